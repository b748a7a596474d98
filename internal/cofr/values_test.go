package cofr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// deltaRef returns the float64 primitives of p with every operator the
// identity (centre tap 1), so that the reference renderer's field is the
// splat of the input cube itself: sum_n w_n(p) x_n.
func deltaRef(p *Primitives) *refPrims {
	rp := toRef(p)
	rp.K = make([]float64, p.H*p.W*Taps)
	for n := 0; n < p.H*p.W; n++ {
		rp.K[n*Taps+12] = 1
	}
	return rp
}

var valueCases = []struct {
	h, w, H, W int
	spec       primSpec
	opt        Options
}{
	{6, 7, 15, 18, trained, Options{}},           // x2.5
	{6, 7, 24, 28, trained, Options{}},           // x4
	{5, 6, 22, 15, wide, Options{}},              // per-axis factors, narrow widths
	{6, 5, 12, 10, trained, Options{Workers: 1}}, // x2, one worker
	{2, 9, 8, 36, trained, Options{Workers: 2}},  // column chunks
	{5, 6, 12, 15, trained, Options{PaperRule: true}},
	{8, 6, 5, 4, trained, Options{}}, // downscaling, empty cells
}

// The value splat equals the reference field of the identity operators,
// and banded rendering gives the same bits as the whole image.
func TestValueRendererMatchesReference(t *testing.T) {
	for ci, c := range valueCases {
		t.Run(fmt.Sprintf("%dx%d->%dx%d/paper=%v", c.h, c.w, c.H, c.W, c.opt.PaperRule), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ci), 31))
			v := testrand.Cube(rng, c.h, c.w, 5)
			for i := range v.Data {
				v.Data[i] -= 0.3 // signed values
			}
			p := randPrims(rng, c.h, c.w, c.spec)
			p.K = nil // ignored
			vr, err := NewValueRenderer(v, p, c.H, c.W, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := vr.Render()
			if err != nil {
				t.Fatal(err)
			}
			want := refRender(v, deltaRef(p), c.H, c.W, c.opt).Field
			rel, abs := maxRelErr(got.Data, want)
			if abs > 2e-5 {
				t.Fatalf("largest difference from the reference %.3g (relative %.3g)", abs, rel)
			}
			// Bands of rows.
			band := make([]float32, 0, len(got.Data))
			for u0 := 0; u0 < c.H; u0 += 3 {
				u1 := min(c.H, u0+3)
				d := make([]float32, (u1-u0)*c.W*v.B)
				if err := vr.RenderRows(u0, u1, d); err != nil {
					t.Fatal(err)
				}
				band = append(band, d...)
			}
			for i := range band {
				if band[i] != got.Data[i] {
					t.Fatalf("value %d: banded %v, whole %v", i, band[i], got.Data[i])
				}
			}
		})
	}
}

// Backward: d V and every geometry group against central differences of
// L = <dY, Y> with the float64 reference.
func TestValueRendererBackwardFiniteDifferences(t *testing.T) {
	cases := valueCases
	if testing.Short() {
		cases = cases[:3]
	}
	for ci, c := range cases {
		t.Run(fmt.Sprintf("%dx%d->%dx%d/paper=%v", c.h, c.w, c.H, c.W, c.opt.PaperRule), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ci), 41))
			const B = 3
			v := testrand.Cube(rng, c.h, c.w, B)
			p := randPrims(rng, c.h, c.w, c.spec)
			p.K = nil // ignored; the geometry gradients must not be skipped as for zero operators
			dY := make([]float32, c.H*c.W*B)
			for i := range dY {
				dY[i] = float32(rng.NormFloat64())
			}
			vr, err := NewValueRenderer(v, p, c.H, c.W, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			dv, g, err := vr.Backward(dY)
			if err != nil {
				t.Fatal(err)
			}
			if g.K != nil {
				t.Fatal("value splat returned operator gradients")
			}
			rp := deltaRef(p)
			vv := v.Clone()
			loss := func() (float64, uint64) {
				res := refRender(vv, rp, c.H, c.W, c.opt)
				var l float64
				for k, y := range res.Field {
					l += y * float64(dY[k])
				}
				return l, res.sig
			}
			_, sig0 := loss()
			const eps = 1e-5
			for gi, grp := range rp.groups()[:6] {
				an := g.groups()[gi]
				var worst, scale float64
				checked := 0
				for k := range grp {
					old := grp[k]
					grp[k] = old + eps
					lp, sp := loss()
					grp[k] = old - eps
					lm, sm := loss()
					grp[k] = old
					if sp != sig0 || sm != sig0 {
						continue
					}
					fd := (lp - lm) / (2 * eps)
					worst = math.Max(worst, math.Abs(fd-float64(an[k])))
					scale = math.Max(scale, math.Abs(fd))
					checked++
				}
				if checked == 0 || scale == 0 {
					t.Fatalf("%s: nothing checked", groupNames[gi])
				}
				if rel := worst / scale; rel > 2e-3 {
					t.Errorf("%s: largest error %.3g of %.3g (relative %.3g)", groupNames[gi], worst, scale, rel)
				}
			}
			// d V: the loss is linear in V, so a step of 1e-2 is exact up to rounding.
			const ev = 1e-2
			var worst, scale float64
			for k := 0; k < len(vv.Data); k += 2 {
				old := vv.Data[k]
				vv.Data[k] = old + ev
				lp, _ := loss()
				vv.Data[k] = old - ev
				lm, _ := loss()
				vv.Data[k] = old
				fd := (lp - lm) / (2 * ev)
				worst = math.Max(worst, math.Abs(fd-float64(dv[k])))
				scale = math.Max(scale, math.Abs(fd))
			}
			if rel := worst / scale; rel > 1e-4 {
				t.Errorf("dV: largest error %.3g of %.3g (relative %.3g)", worst, scale, rel)
			}
		})
	}
}

// ApplyOperators matches a direct 5x5 sum, and OperatorGrads is its exact
// adjoint: <dr, A k> = <A^T dr, k>.
func TestApplyOperatorsAndAdjoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sz := range [][3]int{{1, 1, 1}, {3, 4, 2}, {7, 6, 5}, {2, 9, 31}} {
		h, w, B := sz[0], sz[1], sz[2]
		x := testrand.Cube(rng, h, w, B)
		k := make([]float32, h*w*Taps)
		for i := range k {
			k[i] = float32(rng.NormFloat64())
		}
		r, err := ApplyOperators(x, k)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < h; i++ {
			for j := 0; j < w; j++ {
				n := i*w + j
				for b := 0; b < B; b++ {
					var s float64
					for dy := -2; dy <= 2; dy++ {
						for dx := -2; dx <= 2; dx++ {
							yy, xx := min(max(i+dy, 0), h-1), min(max(j+dx, 0), w-1)
							s += float64(k[n*Taps+(dy+2)*5+dx+2]) * float64(x.At(yy, xx, b))
						}
					}
					if d := math.Abs(s - float64(r.At(i, j, b))); d > 1e-5*max(1, math.Abs(s)) {
						t.Fatalf("%v: r(%d,%d,%d) = %v, direct sum %v", sz, i, j, b, r.At(i, j, b), s)
					}
				}
			}
		}
		dr := make([]float32, h*w*B)
		for i := range dr {
			dr[i] = float32(rng.NormFloat64())
		}
		dk, err := OperatorGrads(x, dr)
		if err != nil {
			t.Fatal(err)
		}
		var lhs, rhs float64
		for i, v := range dr {
			lhs += float64(v) * float64(r.Data[i])
		}
		for i, v := range dk {
			rhs += float64(v) * float64(k[i])
		}
		if math.Abs(lhs-rhs) > 1e-4*max(1, math.Abs(lhs)) {
			t.Fatalf("%v: <dr, A k> = %v, <A^T dr, k> = %v", sz, lhs, rhs)
		}
	}
	x := hsi.MustNew(3, 3, 2)
	if _, err := ApplyOperators(x, make([]float32, 5)); err == nil {
		t.Fatal("short operators accepted")
	}
	if _, err := OperatorGrads(x, make([]float32, 5)); err == nil {
		t.Fatal("short dL/dr accepted")
	}
}

func TestValueRendererInvalidInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	v := testrand.Cube(rng, 4, 4, 2)
	p := randPrims(rng, 4, 4, trained)
	if _, err := NewValueRenderer(v, nil, 8, 8, Options{}); err == nil {
		t.Fatal("nil primitives accepted")
	}
	if _, err := NewValueRenderer(testrand.Cube(rng, 4, 5, 2), p, 8, 8, Options{}); err == nil {
		t.Fatal("size mismatch accepted")
	}
	vr, err := NewValueRenderer(v, p, 8, 8, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := vr.Backward(make([]float32, 3)); err == nil {
		t.Fatal("short dY accepted")
	}
	if err := vr.RenderRows(0, 9, make([]float32, 9*8*2)); err == nil {
		t.Fatal("rows outside the target accepted")
	}
	v.Data[3] = float32(math.NaN())
	if _, err := NewValueRenderer(v, p, 8, 8, Options{}); err == nil {
		t.Fatal("NaN value accepted")
	}
}
