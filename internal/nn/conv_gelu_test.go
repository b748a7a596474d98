package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Conv2DGELU is GELU of Conv2D: fused on an inference graph (the same
// GELU per element, so the same values up to the vector/scalar split of the
// GELU kernel), the two ops on a training graph (gradients included).
func TestConv2DGELU(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct{ h, w, ci, co, k int }{{9, 13, 4, 8, 3}, {40, 37, 32, 128, 3}, {5, 6, 3, 5, 3}, {7, 7, 4, 6, 1}} {
		x := New(1, tc.h, tc.w, tc.ci).Randn(r, 1)
		l := NewConv2D(r, tc.ci, tc.co, tc.k, PadReplicate)
		want := NewGraph(false).GELU(NewGraph(false).Conv2D(x, l.W, l.B, l.Pad))
		g := NewGraph(false).WithArena(NewArena())
		got := l.ForwardGELU(g, x)
		for i, v := range got.Data {
			if d := math.Abs(float64(v - want.Data[i])); d > 1e-6*max(1, math.Abs(float64(want.Data[i]))) {
				t.Fatalf("%+v: element %d: %v, want %v", tc, i, v, want.Data[i])
			}
		}
		g.Release()
		// Training: the same forward values and a gradient that reaches x.
		xt := x.Clone().RequireGrad()
		tg := NewGraph(true)
		y := l.ForwardGELU(tg, xt)
		for i, v := range y.Data {
			if d := math.Abs(float64(v - want.Data[i])); d > 1e-6*max(1, math.Abs(float64(want.Data[i]))) {
				t.Fatalf("%+v training: element %d: %v, want %v", tc, i, v, want.Data[i])
			}
		}
		tg.Backward(tg.Mean(y))
		if xt.Grad == nil {
			t.Fatalf("%+v: no gradient for x on a training graph", tc)
		}
	}
}
