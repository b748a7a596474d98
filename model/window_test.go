package model

import (
	"math"
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
)

// A window of the output equals the same window of whole rows, no-data
// and bad bands included.
func TestOutputRenderWindow(t *testing.T) {
	lr := testrand.Cube(testrand.New(9, 8), 9, 8, 5)
	lr.Meta.DataIgnore, lr.Meta.HasDataIgnore = -1, true
	for b := range lr.B {
		lr.Set(2, 3, b, -1)
	}
	lr.Meta.BadBands = []bool{false, false, true, false, false}
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	e, err := m.EncodeImage(lr)
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range [][2]int{{36, 32}, {23, 19}} {
		o, err := e.Output(sz[0], sz[1])
		if err != nil {
			t.Fatal(err)
		}
		whole, err := o.Render()
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range [][4]int{{0, sz[0], 0, sz[1]}, {5, 17, 9, 14}, {8, 9, 11, 12}, {sz[0] - 3, sz[0], 0, 7}} {
			u0, u1, v0, v1 := w[0], w[1], w[2], w[3]
			got := make([]float32, (u1-u0)*(v1-v0)*lr.B)
			if err := o.RenderWindow(u0, u1, v0, v1, got); err != nil {
				t.Fatal(err)
			}
			for u := u0; u < u1; u++ {
				for v := v0; v < v1; v++ {
					for b := range lr.B {
						g, want := got[((u-u0)*(v1-v0)+v-v0)*lr.B+b], whole.At(u, v, b)
						if g != want {
							t.Fatalf("%v window %v: (%d, %d) band %d: %v, want %v", sz, w, u, v, b, g, want)
						}
					}
				}
			}
		}
		if err := o.RenderWindow(0, 1, 0, sz[1]+1, make([]float32, (sz[1]+1)*lr.B)); err == nil {
			t.Error("window past the last column: no error")
		}
	}
}

// An output restricted to some bands renders those bands of the whole
// output, no-data and bad bands included, for the OmniHSR and low-res
// variants; the spectral variant has no restriction.
func TestOutputBands(t *testing.T) {
	lr := testrand.Cube(testrand.New(9, 8), 9, 8, 20)
	lr.Meta.DataIgnore, lr.Meta.HasDataIgnore = -1, true
	for b := range 7 {
		lr.Set(2, 3, b, -1)
	}
	lr.Meta.BadBands = make([]bool, 20)
	lr.Meta.BadBands[4] = true
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	lowres, err := New(variantConfig(VariantLowRes), 3)
	if err != nil {
		t.Fatal(err)
	}
	spectral, err := New(variantConfig(VariantSpectral), 4)
	if err != nil {
		t.Fatal(err)
	}
	if e, err := spectral.EncodeImage(lr); err != nil {
		t.Fatal(err)
	} else if o, err := e.Output(18, 16); err != nil {
		t.Fatal(err)
	} else if _, err := o.Bands([]int{1}); err == nil {
		t.Error("spectral variant: Bands gave no error")
	}
	for name, m := range map[string]*Model{"omnihsr": m, "lowres": lowres} {
		e, err := m.EncodeImage(lr)
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.Output(36, 32)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := o.Render()
		if err != nil {
			t.Fatal(err)
		}
		for _, bands := range [][]int{{15, 4, 0}, {3}, {19, 8, 2, 6}} {
			sub, err := o.Bands(bands)
			if err != nil {
				t.Fatal(err)
			}
			u0, u1, v0, v1 := 5, 30, 2, 20
			got := make([]float32, (u1-u0)*(v1-v0)*len(bands))
			if err := sub.RenderWindow(u0, u1, v0, v1, got); err != nil {
				t.Fatal(err)
			}
			for u := u0; u < u1; u++ {
				for v := v0; v < v1; v++ {
					for k, b := range bands {
						g, want := got[((u-u0)*(v1-v0)+v-v0)*len(bands)+k], whole.At(u, v, b)
						if g != want && math.Abs(float64(g-want)) > 1e-5*(1+math.Abs(float64(want))) {
							t.Fatalf("%s bands %v: (%d, %d) band %d: %v, want %v", name, bands, u, v, b, g, want)
						}
					}
				}
			}
		}
		if _, err := o.Bands([]int{20}); err == nil {
			t.Errorf("%s: band 20 of 20 accepted", name)
		}
	}
}
