package cofr

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/gemm"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

// The latency table of the paper: a 32x32 input, B = 31, 103, 128, 145,
// x4, x8, x16. Every Render sub-benchmark also times U_s alone on the same
// input (median of 5 runs) and reports it with the ratio.

var benchBands = []int{31, 103, 128, 145}

// -cofr.workers sets Options.Workers in the benchmarks (0: GOMAXPROCS), e.g.
// go test -bench Render -args -cofr.workers=1 for single-core figures on a
// busy machine.
var benchWorkers = flag.Int("cofr.workers", 0, "goroutines for the cofr benchmarks (0: GOMAXPROCS)")
var benchFactors = []int{4, 8, 16}

func benchInput(h, w, B int) (*hsi.Cube, *Primitives) {
	rng := rand.New(rand.NewPCG(uint64(B), 99))
	return testrand.Cube(rng, h, w, B), randPrims(rng, h, w, trained)
}

func medianTime(n int, f func()) time.Duration {
	ts := make([]time.Duration, n)
	for k := range ts {
		t0 := time.Now()
		f()
		ts[k] = time.Since(t0)
	}
	sort.Slice(ts, func(a, b int) bool { return ts[a] < ts[b] })
	return ts[n/2]
}

func BenchmarkRender(b *testing.B) {
	b.Logf("gemm backend: %s", gemm.Backend())
	for _, B := range benchBands {
		for _, f := range benchFactors {
			b.Run(fmt.Sprintf("B=%d/x%d", B, f), func(b *testing.B) {
				x, p := benchInput(32, 32, B)
				H, W := 32*f, 32*f
				r, err := NewRenderer(x, p, H, W, Options{Workers: *benchWorkers})
				if err != nil {
					b.Fatal(err)
				}
				dst := make([]float32, H*W*B)
				bic := medianTime(5, func() { r.renderRows(0, H, dst, false) })
				b.ResetTimer()
				for range b.N {
					if err := r.RenderRows(0, H, dst); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				ms := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / 1e6
				b.ReportMetric(ms, "ms")
				b.ReportMetric(float64(bic.Nanoseconds())/1e6, "bicubic-ms")
				b.ReportMetric(ms/(float64(bic.Nanoseconds())/1e6), "x-bicubic")
			})
		}
	}
}

// BenchmarkRenderCube is the allocating API, Render, against the
// project's bicubic method, resample.Upsample (which allocates too): the
// comparison a user of `omnihsr upscale` sees.
func BenchmarkRenderCube(b *testing.B) {
	for _, B := range benchBands {
		for _, f := range benchFactors {
			b.Run(fmt.Sprintf("B=%d/x%d", B, f), func(b *testing.B) {
				x, p := benchInput(32, 32, B)
				H, W := 32*f, 32*f
				bic := medianTime(5, func() { resample.Upsample(x, H, W) })
				b.ResetTimer()
				for range b.N {
					if _, err := Render(x, p, H, W, Options{Workers: *benchWorkers}); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				ms := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / 1e6
				b.ReportMetric(ms, "ms")
				b.ReportMetric(float64(bic.Nanoseconds())/1e6, "resample-ms")
				b.ReportMetric(ms/(float64(bic.Nanoseconds())/1e6), "x-resample")
			})
		}
	}
}

// BenchmarkBicubic is U_s alone: the renderer's fused bicubic path and
// resample.Upsample.
func BenchmarkBicubic(b *testing.B) {
	for _, B := range benchBands {
		for _, f := range benchFactors {
			x, _ := benchInput(32, 32, B)
			H, W := 32*f, 32*f
			b.Run(fmt.Sprintf("cofr/B=%d/x%d", B, f), func(b *testing.B) {
				dst := make([]float32, H*W*B)
				p, _ := NewPrimitives(32, 32)
				r, err := NewRenderer(x, p, H, W, Options{Workers: *benchWorkers})
				if err != nil {
					b.Fatal(err)
				}
				for range b.N {
					r.renderRows(0, H, dst, false)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms")
			})
			b.Run(fmt.Sprintf("resample/B=%d/x%d", B, f), func(b *testing.B) {
				for range b.N {
					if _, err := resample.Upsample(x, H, W); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms")
			})
		}
	}
}

// BenchmarkBackward covers training shapes: 64x64 -> x2 and 16x16 -> x8.
func BenchmarkBackward(b *testing.B) {
	for _, c := range []struct{ side, f int }{{64, 2}, {16, 8}} {
		for _, B := range []int{31, 200} {
			b.Run(fmt.Sprintf("%dx%d-x%d/B=%d", c.side, c.side, c.f, B), func(b *testing.B) {
				x, p := benchInput(c.side, c.side, B)
				H := c.side * c.f
				r, err := NewRenderer(x, p, H, H, Options{Workers: *benchWorkers})
				if err != nil {
					b.Fatal(err)
				}
				dY := make([]float32, H*H*B)
				for i := range dY {
					dY[i] = float32(i%7) - 3
				}
				fwd := medianTime(3, func() { r.RenderRows(0, H, make([]float32, H*H*B)) })
				b.ResetTimer()
				for range b.N {
					if _, err := r.Backward(dY); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms")
				b.ReportMetric(float64(fwd.Nanoseconds())/1e6, "forward-ms")
			})
		}
	}
}
