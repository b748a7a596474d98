package cofr

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
)

// A window equals the same window of whole rows, bit for bit, at integer
// and fractional factors, with one or several workers, with and without
// operators.
func TestRenderWindowMatchesRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := testrand.Cube(rng, 13, 11, 4)
	p := randPrims(rng, 13, 11, wide)
	zero := p.Clone()
	clear(zero.K)
	for _, tc := range []struct {
		f              float64
		u0, u1, v0, v1 int
	}{
		{4, 0, 52, 0, 44}, {4, 5, 37, 9, 30}, {4, 51, 52, 43, 44}, {2.5, 3, 20, 1, 2},
		{1.3, 0, 17, 6, 14}, {8, 40, 70, 17, 88}, {1, 0, 13, 3, 8}, {16, 100, 101, 0, 176},
	} {
		for _, opt := range []Options{{}, {Workers: 1}} {
			for name, prims := range map[string]*Primitives{"operators": p, "zero": zero} {
				t.Run(fmt.Sprintf("x%g/%v/%v/%s", tc.f, tc, opt.Workers, name), func(t *testing.T) {
					H, W := factorSize(13, tc.f), factorSize(11, tc.f)
					r, err := NewRenderer(x, prims, H, W, opt)
					if err != nil {
						t.Fatal(err)
					}
					windowMatchesRows(t, r, W, x.B, tc.u0, tc.u1, tc.v0, tc.v1)
				})
			}
		}
	}
	r, err := NewRenderer(x, p, 52, 44, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range [][4]int{{0, 0, 0, 1}, {0, 1, 5, 5}, {-1, 1, 0, 1}, {0, 53, 0, 1}, {0, 1, 40, 45}} {
		if err := r.RenderWindow(w[0], w[1], w[2], w[3], make([]float32, 4)); err == nil {
			t.Errorf("window %v: no error", w)
		}
	}
	if err := r.RenderWindow(0, 1, 0, 2, make([]float32, 7)); err == nil {
		t.Error("short destination: no error")
	}
}

// A window far from the left and right edges of a wide image computes r_n
// and the geometry of the columns near it only, and still matches the
// rows rendered whole.
func TestRenderWindowInnerColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := testrand.Cube(rng, 9, 60, 3)
	p := randPrims(rng, 9, 60, wide)
	for _, tc := range []struct {
		f              float64
		u0, u1, v0, v1 int
	}{{4, 3, 30, 100, 131}, {2, 0, 18, 61, 62}, {1.5, 2, 9, 40, 70}, {8, 10, 50, 230, 300}} {
		H, W := factorSize(9, tc.f), factorSize(60, tc.f)
		r, err := NewRenderer(x, p, H, W, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprintf("%+v", tc), func(t *testing.T) {
			windowMatchesRows(t, r, W, x.B, tc.u0, tc.u1, tc.v0, tc.v1)
		})
	}
}

// windowMatchesRows checks that r's window of rows u0..u1-1 and columns
// v0..v1-1 equals, bit for bit, those columns of r's rows u0..u1-1 rendered
// whole (W columns of B bands).
func windowMatchesRows(t *testing.T, r *Renderer, W, B, u0, u1, v0, v1 int) {
	t.Helper()
	rows := make([]float32, (u1-u0)*W*B)
	if err := r.RenderRows(u0, u1, rows); err != nil {
		t.Fatal(err)
	}
	w := v1 - v0
	got := make([]float32, (u1-u0)*w*B)
	if err := r.RenderWindow(u0, u1, v0, v1, got); err != nil {
		t.Fatal(err)
	}
	for u := 0; u < u1-u0; u++ {
		for v := 0; v < w; v++ {
			for b := 0; b < B; b++ {
				if g, want := got[(u*w+v)*B+b], rows[(u*W+v0+v)*B+b]; g != want {
					t.Fatalf("(%d, %d) band %d: %v, want %v", u0+u, v0+v, b, g, want)
				}
			}
		}
	}
}
