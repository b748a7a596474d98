package cofr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
)

// TestBackwardFiniteDifferences checks every parameter group of Backward
// against central differences of L = <dY, Y> computed with the float64
// reference renderer.
func TestBackwardFiniteDifferences(t *testing.T) {
	type fdCase struct {
		h, w, H, W int
		spec       primSpec
		opt        Options
	}
	cases := []fdCase{
		{6, 7, 15, 18, trained, Options{}},           // x2.5
		{6, 7, 24, 28, trained, Options{}},           // x4
		{5, 6, 22, 15, wide, Options{}},              // per-axis factors, narrow widths
		{6, 5, 12, 10, trained, Options{Workers: 1}}, // x2, one worker
		{2, 9, 8, 36, trained, Options{Workers: 2}},  // column chunks
		{5, 6, 12, 15, trained, Options{PaperRule: true}},
		{4, 5, 32, 40, primSpec{0.01, 0.03, 0.5, 0.3}, Options{A: 0.05}}, // direct exponentials
		{8, 6, 5, 4, trained, Options{}},                                 // downscaling, empty cells
	}
	if testing.Short() {
		cases = cases[:3]
	}
	for ci, c := range cases {
		t.Run(fmt.Sprintf("%dx%d->%dx%d/paper=%v", c.h, c.w, c.H, c.W, c.opt.PaperRule), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ci), 77))
			const B = 3
			x := testrand.Cube(rng, c.h, c.w, B)
			p := randPrims(rng, c.h, c.w, c.spec)
			dY := make([]float32, c.H*c.W*B)
			for i := range dY {
				dY[i] = float32(rng.NormFloat64())
			}
			g, err := Backward(x, p, c.H, c.W, dY, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			rp := toRef(p)
			loss := func() (float64, uint64) {
				res := refRender(x, rp, c.H, c.W, c.opt)
				var l float64
				for k, v := range res.Y {
					l += v * float64(dY[k])
				}
				return l, res.sig
			}
			_, sig0 := loss()
			const eps = 1e-5
			for gi, grp := range rp.groups() {
				an := g.groups()[gi]
				step := 1
				if groupNames[gi] == "K" {
					step = 7 // the loss is linear in K; a sample is enough
				}
				var worst, scale float64
				checked := 0
				for k := 0; k < len(grp); k += step {
					old := grp[k]
					grp[k] = old + eps
					lp, sp := loss()
					grp[k] = old - eps
					lm, sm := loss()
					grp[k] = old
					if sp != sig0 || sm != sig0 {
						continue // the considered set changed (paper rule): not differentiable here
					}
					fd := (lp - lm) / (2 * eps)
					worst = math.Max(worst, math.Abs(fd-float64(an[k])))
					scale = math.Max(scale, math.Abs(fd))
					checked++
				}
				rel := worst / scale
				t.Logf("%-6s %4d checked, max |grad| %.3g, max error %.3g, relative %.2g", groupNames[gi], checked, scale, worst, rel)
				if checked == 0 || scale == 0 {
					t.Errorf("%s: nothing checked", groupNames[gi])
				} else if rel > 1e-3 {
					t.Errorf("%s: analytic and finite-difference gradients differ by %.3g (relative %.3g)", groupNames[gi], worst, rel)
				}
			}
		})
	}
}

func TestBackwardZeroOperators(t *testing.T) {
	// With every operator zero only K receives a gradient:
	// dL/dk_nq = sum_p w_n(p) <dY(p), x(q)>.
	rng := rand.New(rand.NewPCG(21, 22))
	x := testrand.Cube(rng, 5, 6, 4)
	p := randPrims(rng, 5, 6, trained)
	clear(p.K)
	dY := make([]float32, 12*15*4)
	for i := range dY {
		dY[i] = float32(rng.NormFloat64())
	}
	r, err := NewRenderer(x, p, 12, 15, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := r.Backward(dY)
	if err != nil {
		t.Fatal(err)
	}
	for gi, grp := range g.groups()[:6] {
		for _, v := range grp {
			if v != 0 {
				t.Fatalf("%s: non-zero gradient %v with zero operators", groupNames[gi], v)
			}
		}
	}
	want := make([]float64, len(g.K))
	for u := 0; u < 12; u++ {
		for v := 0; v < 15; v++ {
			idx, w, _ := r.Weights(u, v)
			for k, n := range idx {
				i, j := n/6, n%6
				for tp := 0; tp < Taps; tp++ {
					yy := min(max(i+tp/5-2, 0), 4)
					xx := min(max(j+tp%5-2, 0), 5)
					var d float64
					for b := 0; b < 4; b++ {
						d += float64(dY[(u*15+v)*4+b]) * float64(x.At(yy, xx, b))
					}
					want[n*Taps+tp] += w[k] * d
				}
			}
		}
	}
	rel, abs := maxRelErr(g.K, want)
	if rel > 1e-5 {
		t.Errorf("dL/dK differs from the direct sum by %.3g (relative %.3g)", abs, rel)
	}
}

func TestBackwardDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	x := testrand.Cube(rng, 7, 9, 5)
	p := randPrims(rng, 7, 9, trained)
	dY := make([]float32, 25*30*5)
	for i := range dY {
		dY[i] = float32(rng.NormFloat64())
	}
	for _, nw := range []int{2, 3} {
		first, err := Backward(x, p, 25, 30, dY, Options{Workers: nw})
		if err != nil {
			t.Fatal(err)
		}
		for rep := 0; rep < 5; rep++ {
			g, _ := Backward(x, p, 25, 30, dY, Options{Workers: nw})
			for gi := range g.groups() {
				for k, v := range g.groups()[gi] {
					if math.Float32bits(v) != math.Float32bits(first.groups()[gi][k]) {
						t.Fatalf("%d workers, run %d: %s[%d] = %v, first run %v", nw, rep, groupNames[gi], k, v, first.groups()[gi][k])
					}
				}
			}
		}
	}
}

func TestBackwardWorkersAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	x := testrand.Cube(rng, 9, 8, 5)
	p := randPrims(rng, 9, 8, trained)
	dY := make([]float32, 30*27*5)
	for i := range dY {
		dY[i] = float32(rng.NormFloat64())
	}
	g1, err := Backward(x, p, 30, 27, dY, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, nw := range []int{2, 3} {
		g2, err := Backward(x, p, 30, 27, dY, Options{Workers: nw})
		if err != nil {
			t.Fatal(err)
		}
		for gi := range g1.groups() {
			want := make([]float64, len(g1.groups()[gi]))
			for k, v := range g1.groups()[gi] {
				want[k] = float64(v)
			}
			if rel, _ := maxRelErr(g2.groups()[gi], want); rel > 1e-5 {
				t.Errorf("%d workers: %s differs from one worker by %.3g relative", nw, groupNames[gi], rel)
			}
		}
	}
}
