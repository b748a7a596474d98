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

// The output of a cropped encoding at a factor that is a power of two on
// each axis equals the whole output bit for bit CropMargin pixels inside the crop's sides (and up to
// the sides that are the image's), for crops aligned to CropAlign, no-data
// and bad bands included.
func TestEncodedCrop(t *testing.T) {
	const H, W, B = 70, 75, 6
	lr := testrand.Cube(testrand.New(70, 75), H, W, B)
	lr.Meta.DataIgnore, lr.Meta.HasDataIgnore = -1, true
	for b := range lr.B {
		lr.Set(30, 33, b, -1)
	}
	lr.Set(31, 40, 2, -1)
	lr.Meta.BadBands = []bool{false, false, false, false, true, false}
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	e, err := m.EncodeImage(lr)
	if err != nil {
		t.Fatal(err)
	}
	for _, z := range [][2]int{{1, 1}, {2, 2}, {4, 4}, {8, 8}, {16, 16}, {2, 4}} {
		o, err := e.Output(H*z[0], W*z[1])
		if err != nil {
			t.Fatal(err)
		}
		whole, err := o.Render()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range [][4]int{{24, 24, 30, 30}, {0, 48, 40, 27}, {48, 0, 22, 40}, {24, 0, 30, 75}} {
			y0, x0, h, w := c[0], c[1], c[2], c[3]
			ce, err := e.Crop(y0, x0, h, w)
			if err != nil {
				t.Fatal(err)
			}
			co, err := ce.Output(h*z[0], w*z[1])
			if err != nil {
				t.Fatal(err)
			}
			got, err := co.Render()
			if err != nil {
				t.Fatal(err)
			}
			// Low-res rows and columns far enough from the crop's inner sides.
			lo := func(a0 int) int {
				if a0 == 0 {
					return 0
				}
				return a0 + CropMargin
			}
			hi := func(a0, n, N int) int {
				if a0+n == N {
					return N
				}
				return a0 + n - CropMargin
			}
			bad := 0
			for i := lo(y0) * z[0]; i < hi(y0, h, H)*z[0]; i++ {
				for j := lo(x0) * z[1]; j < hi(x0, w, W)*z[1]; j++ {
					for b := range B {
						g, w := got.At(i-y0*z[0], j-x0*z[1], b), whole.At(i, j, b)
						if math.Float32bits(g) != math.Float32bits(w) {
							if bad++; bad <= 3 {
								t.Errorf("factor %v, crop %v: (%d, %d) band %d: %v, want %v", z, c, i, j, b, g, w)
							}
						}
					}
				}
			}
		}
	}
}
