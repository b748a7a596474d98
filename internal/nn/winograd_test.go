package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// winoClose checks got against want elementwise: the difference may be a
// few float32 rounding steps of the largest value the convolution adds
// (scale: the largest |w| |x| sum of any output).
func winoClose(t *testing.T, name string, got, want []float32, scale float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", name, len(got), len(want))
	}
	tol := 2e-6 * scale
	worst := 0.0
	for i := range want {
		d := math.Abs(float64(got[i]) - float64(want[i]))
		if !(d <= tol) {
			t.Fatalf("%s: value %d is %g, want %g (tolerance %.3g)", name, i, got[i], want[i], tol)
		}
		worst = max(worst, d)
	}
	t.Logf("%s: largest difference %.3g (%.2f of the tolerance)", name, worst, worst/tol)
}

// convScale is the largest sum of |w| |x| over a 3 x 3 window and the
// input channels, plus |b|: the size of the terms an output adds up.
func convScale(x, w, b *Tensor) float64 {
	var xm, wm, bm float64
	for _, v := range x.Data {
		xm = max(xm, math.Abs(float64(v)))
	}
	for co := range w.N {
		var s float64
		for _, v := range w.Data[co*9*w.C : (co+1)*9*w.C] {
			s += math.Abs(float64(v))
		}
		wm = max(wm, s)
	}
	if b != nil {
		for _, v := range b.Data {
			bm = max(bm, math.Abs(float64(v)))
		}
	}
	return xm*wm + bm
}

func TestConv2DWinograd(t *testing.T) {
	for _, tc := range []struct {
		name            string
		n, h, w, ci, co int
		pad             Padding
		bias, gelu      bool
	}{
		{"1x1", 1, 1, 1, 8, 8, PadReplicate, true, false},
		{"3x5 zero", 1, 3, 5, 8, 16, PadZero, true, false},
		{"4x4", 1, 4, 4, 16, 8, PadReplicate, false, false},
		{"7x9 two samples", 2, 7, 9, 8, 24, PadReplicate, true, true},
		{"13x17 zero gelu", 1, 13, 17, 16, 16, PadZero, true, true},
		{"FFN first", 1, 10, 203, 32, 128, PadReplicate, true, true},
		{"FFN second", 1, 9, 250, 128, 32, PadReplicate, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(tc.h), uint64(tc.w)))
			x := New(tc.n, tc.h, tc.w, tc.ci).Randn(r, 1)
			l := NewConv2D(r, tc.ci, tc.co, 3, tc.pad)
			if !tc.bias {
				l.B = nil
			}
			g := NewGraph(false)
			var got, want *Tensor
			if tc.gelu {
				got, want = l.ForwardWinogradGELU(g, x), l.ForwardGELU(g, x)
			} else {
				got, want = l.ForwardWinograd(g, x), l.Forward(g, x)
			}
			winoClose(t, tc.name, got.Data, want.Data, convScale(x, l.W, l.B))
		})
	}
}

// Random shapes: every size from 1 pixel up, tiles that end inside and
// outside the image, both paddings, one or two samples.
func TestConv2DWinogradRandomShapes(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 40 {
		n, h, w := 1+r.IntN(2), 1+r.IntN(23), 1+r.IntN(23)
		ci, co := 8*(1+r.IntN(3)), 8*(1+r.IntN(3))
		pad := Padding(r.IntN(2))
		x := New(n, h, w, ci).Randn(r, 1)
		l := NewConv2D(r, ci, co, 3, pad)
		g := NewGraph(false)
		winoClose(t, fmt.Sprintf("case %d: %dx%dx%dx%d -> %d, %v", i, n, h, w, ci, co, pad),
			l.ForwardWinograd(g, x).Data, l.Forward(g, x).Data, convScale(x, l.W, l.B))
	}
}

// Where Winograd does not apply, the result is Conv2D's, bit for bit.
func TestConv2DWinogradFallback(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, tc := range []struct {
		name  string
		train bool
		k, ci int
	}{
		{"training graph", true, 3, 8},
		{"5x5", false, 5, 8},
		{"31 channels", false, 3, 31},
	} {
		x := New(1, 9, 11, tc.ci).Randn(r, 1)
		l := NewConv2D(r, tc.ci, 16, tc.k, PadReplicate)
		got := l.ForwardWinograd(NewGraph(tc.train), x).Data
		want := l.Forward(NewGraph(tc.train), x).Data
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: value %d is %g, want Conv2D's %g", tc.name, i, got[i], want[i])
			}
		}
	}
}

// Weights changed in place (as a training step changes them) are
// transformed again.
func TestConv2DWinogradWeightsChange(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	x := New(1, 8, 8, 8).Randn(r, 1)
	l := NewConv2D(r, 8, 8, 3, PadReplicate)
	l.ForwardWinograd(NewGraph(false), x)
	for i := range l.W.Data {
		l.W.Data[i] *= -2
	}
	got := l.ForwardWinograd(NewGraph(false), x).Data
	want := l.Forward(NewGraph(false), x).Data
	winoClose(t, "after the change", got, want, convScale(x, l.W, l.B))
}

// The assembly transforms evaluate the Go transforms' expressions (with
// fused multiply-adds) and give the same bits.
func TestWinogradTransformsAsm(t *testing.T) {
	if !winoAsm {
		t.Skip("no AVX2 + FMA transforms on this CPU or build")
	}
	for _, c := range []int{8, 24, 128} {
		r := rand.New(rand.NewPCG(5, uint64(c)))
		vs, rs := c+16, 5*c
		d := make([]float32, 36*c)
		for i := range d {
			d[i] = float32(r.NormFloat64())
		}
		tmp := make([]float32, 36*8)
		got, want := make([]float32, 36*vs), make([]float32, 36*vs)
		winoIn(d, c, 6*c, got, vs, tmp)
		winoInGo(d, c, 6*c, want, vs)
		sameBits(t, fmt.Sprintf("%d channels: B^T D B", c), got, want)
		m, bias := want, make([]float32, c)
		for i := range bias {
			bias[i] = float32(r.NormFloat64())
		}
		got, want = make([]float32, 4*rs), make([]float32, 4*rs)
		winoOut(m, vs, c, bias, got, rs, tmp)
		winoOutGo(m, vs, c, bias, want, rs)
		sameBits(t, fmt.Sprintf("%d channels: A^T M A + b", c), got, want)
	}
}

// BenchmarkConv2DWinograd compares the forward pass of the direct and the
// Winograd convolution on an inference graph, on the encoder's
// feed-forward shapes (one band of rows of a 512-pixel-wide image).
func BenchmarkConv2DWinograd(b *testing.B) {
	for _, tc := range []struct {
		name            string
		n, h, w, ci, co int
	}{
		{"Small/32x32/32-128", 1, 32, 32, 32, 128},
		{"Small/32x32/128-32", 1, 32, 32, 128, 32},
		{"Large/68x512/32-128", 1, 68, 512, 32, 128},
		{"Large/68x512/128-32", 1, 68, 512, 128, 32},
	} {
		r := rand.New(rand.NewPCG(1, 1))
		x := New(tc.n, tc.h, tc.w, tc.ci).Randn(r, 1)
		l := NewConv2D(r, tc.ci, tc.co, 3, PadReplicate)
		arena := NewArena()
		for _, m := range []struct {
			name string
			f    func(g *Graph, x *Tensor) *Tensor
		}{{"direct", l.Forward}, {"winograd", l.ForwardWinograd}} {
			b.Run(tc.name+"/"+m.name, func(b *testing.B) {
				benchInference(b, arena, func(g *Graph) error { m.f(g, x); return nil })
				b.ReportMetric(2*float64(tc.n*tc.h*tc.w*tc.ci*tc.co*9)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

func sameBits(t *testing.T, what string, got, want []float32) {
	t.Helper()
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: element %d: %v (%#x), the Go code gives %v (%#x)", what, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}
