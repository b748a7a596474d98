package model

import (
	"errors"
	"math"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/memlimit"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

func maxAbsDiff(a, b *hsi.Cube) float64 {
	var d float64
	for i := range a.Data {
		d = max(d, math.Abs(float64(a.Data[i]-b.Data[i])))
	}
	return d
}

func TestDihedral(t *testing.T) {
	c := testrand.Cube(testrand.New(5, 1), 3, 5, 2)
	at := func(c *hsi.Cube, i, j int) float32 { return c.Data[(i*c.W+j)*c.B+1] }
	for d := Dihedral(0); d < 8; d++ {
		y, err := d.Apply(c)
		if err != nil {
			t.Fatal(err)
		}
		wantH, wantW := 3, 5
		if d&4 != 0 {
			wantH, wantW = 5, 3
		}
		if y.H != wantH || y.W != wantW || y.B != 2 {
			t.Fatalf("d=%d: shape %dx%dx%d", d, y.H, y.W, y.B)
		}
		back, err := d.Invert(y)
		if err != nil {
			t.Fatal(err)
		}
		if maxAbsDiff(back, c) != 0 {
			t.Errorf("d=%d: Invert(Apply(c)) != c", d)
		}
		// Where the top-left pixel goes: bit 1 to the bottom row, bit 0 to
		// the right column of the output.
		i, j := 0, 0
		if d&2 != 0 {
			i = y.H - 1
		}
		if d&1 != 0 {
			j = y.W - 1
		}
		if at(y, i, j) != at(c, 0, 0) {
			t.Errorf("d=%d: pixel (0,0) is not at (%d,%d)", d, i, j)
		}
	}
	if _, err := Dihedral(8).Apply(c); err == nil {
		t.Error("transform 8: no error")
	}
}

// A model whose operators are zero renders bicubic interpolation, and
// bicubic interpolation commutes with flips and transposes: its
// self-ensemble is bicubic interpolation again.
func TestEnsembleOfBicubic(t *testing.T) {
	m, err := New(DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	lr := testrand.Cube(testrand.New(6, 1), 9, 12, 4)
	want, err := resample.Upsample(lr, 22, 37)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range EnsembleSizes {
		got, err := m.UpscaleEnsemble(lr, 22, 37, n)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(got, want); d > 1e-5 {
			t.Errorf("n=%d: differs from bicubic by %g", n, d)
		}
	}
	if _, err := m.UpscaleEnsemble(lr, 22, 37, 3); err == nil {
		t.Error("n=3: no error")
	}
}

// The 8-orientation ensemble of the trained model is equivariant: super-
// resolving a flipped or rotated image gives the flipped or rotated output
// (a wrong inverse transform would break it).
func TestEnsembleEquivariant(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	lr := testrand.Cube(testrand.New(7, 1), 10, 13, 5)
	const oh, ow = 25, 31
	base, err := m.UpscaleEnsemble(lr, oh, ow, 8)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := m.Upscale(lr, oh, ow)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxAbsDiff(base, plain); d < 1e-4 {
		t.Fatalf("ensemble equals the plain model (max difference %g)", d)
	}
	for d := Dihedral(1); d < 8; d++ {
		x, _ := d.Apply(lr)
		h, w := oh, ow
		if d&4 != 0 {
			h, w = ow, oh
		}
		y, err := m.UpscaleEnsemble(x, h, w, 8)
		if err != nil {
			t.Fatal(err)
		}
		back, _ := d.Invert(y)
		if diff := maxAbsDiff(back, base); diff > 1e-4 {
			t.Errorf("d=%d: ensemble not equivariant (max difference %g)", d, diff)
		}
	}
}

// An in-memory output (self-ensemble, back-projection) larger than the
// memory allowed is refused up front.
func TestInMemoryOutputLimit(t *testing.T) {
	t.Setenv("OMNIHSR_MEM_LIMIT", "1M")
	m, err := New(DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	lr := testrand.Cube(testrand.New(8, 1), 8, 8, 3)
	for name, up := range map[string]func() (*hsi.Cube, error){
		"ensemble":        func() (*hsi.Cube, error) { return m.UpscaleEnsemble(lr, 400, 400, 2) },
		"back-projection": func() (*hsi.Cube, error) { return m.UpscaleBackProjected(lr, 400, 400, 1) },
	} {
		if _, err := up(); !errors.Is(err, memlimit.ErrTooLarge) {
			t.Errorf("%s: error %v, want one wrapping memlimit.ErrTooLarge", name, err)
		}
	}
}
