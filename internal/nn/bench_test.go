package nn

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/internal/cputime"
)

// benchOp times forward + backward of one op on a training graph with an
// arena (as a training loop runs it), and reports GFLOP/s when flops > 0
// (flops per forward; forward + backward counts 3x).
func benchOp(b *testing.B, flops float64, inputs []*Tensor, f func(g *Graph) *Tensor) {
	arena := NewArena()
	var seed []float32
	run := func() {
		g := NewGraph(true).WithArena(arena)
		out := f(g)
		if len(seed) != out.Len() {
			seed = make([]float32, out.Len())
			for i := range seed {
				seed[i] = 1e-3
			}
		}
		g.BackwardFrom(map[*Tensor][]float32{out: seed})
		g.Release()
	}
	run()
	b.ResetTimer()
	c0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		run()
	}
	reportCPU(b, c0)
	if flops > 0 {
		b.ReportMetric(3*flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	}
}

func BenchmarkConv2D(b *testing.B) {
	for _, tc := range []struct {
		name            string
		n, h, w, ci, co int
	}{
		{"Small/1x32x32/32-128", 1, 32, 32, 32, 128},
		{"Medium/2x64x64/32-128", 2, 64, 64, 32, 128},
		{"Medium/2x64x64/128-32", 2, 64, 64, 128, 32},
		{"Large/1x256x256/32-128", 1, 256, 256, 32, 128},
	} {
		for _, pad := range []Padding{PadZero, PadReplicate} {
			b.Run(tc.name+"/"+pad.String(), func(b *testing.B) {
				r := rand.New(rand.NewPCG(1, 1))
				x := New(tc.n, tc.h, tc.w, tc.ci).Randn(r, 1).RequireGrad()
				l := NewConv2D(r, tc.ci, tc.co, 3, pad)
				benchOp(b, 2*float64(tc.n*tc.h*tc.w*tc.ci*tc.co*9), []*Tensor{x}, func(g *Graph) *Tensor { return l.Forward(g, x) })
			})
		}
	}
}

func BenchmarkLinear(b *testing.B) {
	for _, tc := range []struct{ np, ci, co int }{{8192, 32, 96}, {8192, 32, 32}, {65536, 32, 96}} {
		b.Run(fmt.Sprintf("%dx%d-%d", tc.np, tc.ci, tc.co), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			x := New(1, 1, tc.np, tc.ci).Randn(r, 1).RequireGrad()
			l := NewLinear(r, tc.ci, tc.co)
			benchOp(b, 2*float64(tc.np*tc.ci*tc.co), []*Tensor{x}, func(g *Graph) *Tensor { return l.Forward(g, x) })
		})
	}
}

func BenchmarkElementwise(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	x := New(2, 64, 64, 128).Randn(r, 1).RequireGrad()
	y := New(2, 64, 64, 128).Randn(r, 1).RequireGrad()
	x32 := New(2, 64, 64, 32).Randn(r, 1).RequireGrad()
	ln := NewLayerNorm(32)
	qkv := New(2, 64, 64, 96).Randn(r, 1).RequireGrad()
	for _, tc := range []struct {
		name string
		f    func(g *Graph) *Tensor
	}{
		{"GELU/2x64x64x128", func(g *Graph) *Tensor { return g.GELU(x) }},
		{"Add/2x64x64x128", func(g *Graph) *Tensor { return g.Add(x, y) }},
		{"LayerNorm/2x64x64x32", func(g *Graph) *Tensor { return ln.Forward(g, x32) }},
		{"ESSA/2x64x64x32", func(g *Graph) *Tensor { return g.ESSA(qkv) }},
	} {
		b.Run(tc.name, func(b *testing.B) { benchOp(b, 0, nil, tc.f) })
	}
}

// BenchmarkForward times the encoder's non-GEMM ops on an inference graph
// (no tape, an arena), at the size of one band of a 512-pixel-wide image.
func BenchmarkForward(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	x32 := New(1, 128, 512, 32).Randn(r, 1)
	x128 := New(1, 128, 512, 128).Randn(r, 1)
	qkv := New(1, 128, 512, 96).Randn(r, 1)
	ln := NewLayerNorm(32)
	arena := NewArena()
	for _, tc := range []struct {
		name string
		f    func(g *Graph) error
	}{
		{"LayerNorm/128x512x32", func(g *Graph) error { ln.Forward(g, x32); return nil }},
		{"GELU/128x512x128", func(g *Graph) error { g.GELU(x128); return nil }},
		{"ESSAStream/128x512x96", func(g *Graph) error {
			st := NewESSAStream(32)
			if err := st.Add(qkv); err != nil {
				return err
			}
			st.Finish()
			_, err := st.Apply(g, qkv)
			return err
		}},
	} {
		b.Run(tc.name, func(b *testing.B) { benchInference(b, arena, tc.f) })
	}
}

// benchInference times f on a fresh inference graph with arena per
// iteration, and reports the CPU time per operation.
func benchInference(b *testing.B, arena *Arena, f func(g *Graph) error) {
	c0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		g := NewGraph(false).WithArena(arena)
		if err := f(g); err != nil {
			b.Fatal(err)
		}
		g.Release()
	}
	reportCPU(b, c0)
}
