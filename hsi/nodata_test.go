package hsi

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func randImage(seed uint64, h, w, b int) *Cube {
	r := rand.New(rand.NewPCG(seed, 1))
	c := MustNew(h, w, b)
	for i := range c.Data {
		c.Data[i] = r.Float32()
	}
	return c
}

// withHole is randImage with the pixels of rows [y0,y1) x cols [x0,x1) set
// to v in every band and v declared as the no-data value.
func withHole(seed uint64, h, w, b, y0, y1, x0, x1 int, v float32) *Cube {
	c := randImage(seed, h, w, b)
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			for k := 0; k < b; k++ {
				c.Data[(y*w+x)*b+k] = v
			}
		}
	}
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = float64(v), true
	return c
}

func TestFillNoData(t *testing.T) {
	plain := randImage(1, 6, 7, 3)
	if got, nd, err := FillNoData(plain); err != nil || nd != nil || got != plain {
		t.Fatalf("no data ignore value: got %p (input %p), mask %v, err %v", got, plain, nd, err)
	}
	declared := randImage(1, 6, 7, 3)
	declared.Meta.DataIgnore, declared.Meta.HasDataIgnore = -9999, true
	if got, nd, err := FillNoData(declared); err != nil || nd != nil || got != declared {
		t.Fatalf("no pixel equal to the value: mask %v, err %v", nd, err)
	}
	all := withHole(2, 4, 4, 2, 0, 4, 0, 4, -9999)
	if _, _, err := FillNoData(all); !errors.Is(err, ErrAllNoData) {
		t.Fatalf("all no-data: error %v", err)
	}

	lr := withHole(3, 9, 11, 4, 2, 6, 0, 5, -9999)
	lr.Data[(8*11+10)*4+1] = -9999 // one sample of band 1: no-data in band 1 only
	orig := lr.Clone()
	got, nd, err := FillNoData(lr)
	if err != nil {
		t.Fatal(err)
	}
	for i := range lr.Data {
		if lr.Data[i] != orig.Data[i] && !(math.IsNaN(float64(lr.Data[i])) && math.IsNaN(float64(orig.Data[i]))) {
			t.Fatal("fillNoData modified its input")
		}
	}
	if len(nd.groups) != 2 || nd.BadBands() != 0 {
		t.Fatalf("%d mask groups, %d bad bands; want 2 (bands 0, 2, 3 and band 1) and 0", len(nd.groups), nd.BadBands())
	}
	for p := 0; p < 9*11; p++ {
		y, x := p/11, p%11
		hole := y >= 2 && y < 6 && x < 5
		for k := 0; k < 4; k++ {
			v := got.Data[p*4+k]
			if !hole && !(p == 8*11+10 && k == 1) {
				if v != orig.Data[p*4+k] {
					t.Fatalf("valid sample (%d,%d) band %d changed", y, x, k)
				}
				continue
			}
			// Means of valid values in [0, 1): never the no-data value.
			if !(v >= 0 && v < 1) {
				t.Fatalf("filled sample (%d,%d) band %d = %v", y, x, k, v)
			}
		}
	}
}

// No-data is decided band by band: a column at -9999 in bands 1-2 of 4
// (like a detector column dropping out in some bands) is filled in those
// bands from the same band's neighbours, the other bands are untouched,
// and Apply masks exactly those bands over the column.
func TestFillNoDataPerBand(t *testing.T) {
	const h, w, b = 5, 6, 4
	c := randImage(7, h, w, b)
	for y := 0; y < h; y++ {
		for k := 1; k <= 2; k++ {
			c.Data[(y*w+3)*b+k] = -9999
		}
	}
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = -9999, true
	got, nd, err := FillNoData(c)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for k := 0; k < b; k++ {
				i := (y*w+x)*b + k
				if x != 3 || k == 0 || k == 3 {
					if got.Data[i] != c.Data[i] {
						t.Fatalf("(%d,%d) band %d changed", y, x, k)
					}
					continue
				}
				// Column 3 sits between columns 2 and 4: the mean of the two.
				want := float32((float64(c.Data[i-b]) + float64(c.Data[i+b])) / 2)
				if got.Data[i] != want {
					t.Fatalf("(%d,3) band %d = %v, want %v (mean of its row neighbours in the same band)", y, k, got.Data[i], want)
				}
			}
		}
	}
	dst := make([]float32, 2*h*2*w*b)
	nd.Apply(0, 2*h, 2*h, 2*w, b, dst)
	for u := 0; u < 2*h; u++ {
		for v := 0; v < 2*w; v++ {
			for k := 0; k < b; k++ {
				want := float32(0)
				if v/2 == 3 && (k == 1 || k == 2) {
					want = -9999
				}
				if x := dst[(u*2*w+v)*b+k]; x != want {
					t.Fatalf("masked (%d,%d) band %d = %v, want %v", u, v, k, x, want)
				}
			}
		}
	}
}

// Bad bands: a band flagged bad (bbl = 0) and a band that is NaN in every
// pixel are left as they are (their no-data samples set to zero in the
// filled cube) and become no-data everywhere in the output; NaN samples are
// no-data without a declared value, and the filled cube then declares NaN.
// Only an input with no usable band is an error.
func TestFillNoDataBadBands(t *testing.T) {
	const h, w, b = 4, 5, 4
	nan := float32(math.NaN())
	c := randImage(8, h, w, b)
	c.Meta.BadBands = []bool{false, true, false, false}
	for p := 0; p < h*w; p++ {
		c.Data[p*b+2] = nan // an all-NaN band
	}
	c.Data[(1*w+1)*b+1] = nan // a NaN in the flagged band
	c.Data[(2*w+3)*b+3] = nan // one NaN in a usable band
	got, nd, err := FillNoData(c)
	if err != nil {
		t.Fatal(err)
	}
	if nd.BadBands() != 2 || !slices.Equal(nd.Usable(b), []int{0, 3}) {
		t.Fatalf("%d bad bands, usable %v; want 2 and [0 3]", nd.BadBands(), nd.Usable(b))
	}
	if !got.Meta.HasDataIgnore || !math.IsNaN(got.Meta.DataIgnore) {
		t.Errorf("filled cube declares %v (%v), want NaN", got.Meta.DataIgnore, got.Meta.HasDataIgnore)
	}
	if c.Meta.HasDataIgnore {
		t.Error("FillNoData changed its input's metadata")
	}
	for p := 0; p < h*w; p++ {
		for k := 0; k < b; k++ {
			v, in := got.Data[p*b+k], c.Data[p*b+k]
			switch {
			case v != v:
				t.Fatalf("pixel %d band %d is still NaN", p, k)
			case k == 2 && v != 0, k == 1 && p == 1*w+1 && v != 0:
				t.Fatalf("pixel %d band %d = %v, want 0", p, k, v)
			case (k == 0 || k == 1 && p != 1*w+1) && v != in:
				t.Fatalf("pixel %d band %d changed", p, k)
			}
		}
	}
	if v := got.Data[(2*w+3)*b+3]; !(v >= 0 && v < 1) {
		t.Errorf("the NaN of band 3 was filled with %v", v)
	}
	dst := make([]float32, h*w*b)
	nd.Apply(0, h, h, w, b, dst)
	for p := 0; p < h*w; p++ {
		for k := 0; k < b; k++ {
			v := dst[p*b+k]
			isND := k == 1 || k == 2 || (k == 3 && p == 2*w+3)
			if isND != (v != v) {
				t.Fatalf("output pixel %d band %d = %v", p, k, v)
			}
		}
	}

	c.Meta.BadBands = []bool{true, true, false, true}
	for p := 0; p < h*w; p++ {
		c.Data[p*b+2] = -9999
	}
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = -9999, true
	if _, _, err := FillNoData(c); !errors.Is(err, ErrAllNoData) {
		t.Fatalf("no usable band: error %v", err)
	}
}

// NoDataValue is the declared value, NaN where the cube needs one (NaN
// samples, bad bands) and declares none, and nothing otherwise.
func TestNoDataValue(t *testing.T) {
	c := randImage(9, 3, 3, 2)
	if _, ok := NoDataValue(c); ok {
		t.Error("a clean cube needs no no-data value")
	}
	c.Meta.BadBands = []bool{false, true}
	if v, ok := NoDataValue(c); !ok || !math.IsNaN(v) {
		t.Errorf("bad band: %v %v, want NaN", v, ok)
	}
	c.Meta.BadBands = nil
	c.Data[3] = float32(math.Inf(1))
	if _, ok := NoDataValue(c); ok {
		t.Error("an infinite value is not no-data")
	}
	c.Data[4] = float32(math.NaN())
	if v, ok := NoDataValue(c); !ok || !math.IsNaN(v) {
		t.Errorf("NaN sample: %v %v, want NaN", v, ok)
	}
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = -1, true
	if v, ok := NoDataValue(c); !ok || v != -1 {
		t.Errorf("declared: %v %v, want -1", v, ok)
	}
}

func TestNoDataMaskApply(t *testing.T) {
	lr := withHole(5, 4, 5, 2, 1, 2, 3, 5, -1)
	_, nd, err := FillNoData(lr)
	if err != nil {
		t.Fatal(err)
	}
	// 2x per axis: output rows 2-3, columns 6-9 are no-data.
	const oh, ow = 8, 10
	dst := make([]float32, 3*ow*2) // rows 1..3
	nd.Apply(1, 4, oh, ow, 2, dst)
	for u := 1; u < 4; u++ {
		for v := 0; v < ow; v++ {
			want := float32(0)
			if u >= 2 && v >= 6 {
				want = -1
			}
			for k := 0; k < 2; k++ {
				if got := dst[((u-1)*ow+v)*2+k]; got != want {
					t.Fatalf("(%d,%d) band %d = %v, want %v", u, v, k, got, want)
				}
			}
		}
	}
	var none *NoDataMask
	none.Apply(0, 1, 1, 1, 1, dst) // a nil mask does nothing
}

// Each filled pixel is the mean of its neighbours in earlier layers:
// a 1 x 5 row [2, X, 6, X, X] becomes [2, 4, 6, 6, 6].
func TestFillNoDataLayers(t *testing.T) {
	c := MustNew(1, 5, 1)
	copy(c.Data, []float32{2, -1, 6, -1, -1})
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = -1, true
	got, _, err := FillNoData(c)
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{2, 4, 6, 6, 6}
	for i, v := range want {
		if got.Data[i] != v {
			t.Fatalf("filled %v, want %v", got.Data, want)
		}
	}
}

// KeepNoData hands f the filled image and masks f's output.
func TestKeepNoData(t *testing.T) {
	c := withHole(6, 4, 6, 2, 0, 2, 3, 6, -9999)
	out, err := KeepNoData(c, func(x *Cube) (*Cube, error) {
		for _, v := range x.Data {
			if v == -9999 {
				t.Fatal("f saw the no-data value")
			}
		}
		return MustNew(8, 12, 2), nil // a 2x grid of zeros
	})
	if err != nil {
		t.Fatal(err)
	}
	for u := 0; u < 8; u++ {
		for v := 0; v < 12; v++ {
			want := float32(0)
			if u < 4 && v >= 6 {
				want = -9999
			}
			if got := out.Data[(u*12+v)*2]; got != want {
				t.Fatalf("(%d,%d) = %v, want %v", u, v, got, want)
			}
		}
	}
	all := withHole(6, 2, 2, 1, 0, 2, 0, 2, -1)
	if _, err := KeepNoData(all, func(x *Cube) (*Cube, error) { return x, nil }); !errors.Is(err, ErrAllNoData) {
		t.Errorf("all no-data: error %v", err)
	}
}

func TestIgnoreValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    Meta
		want float32
		ok   bool
	}{
		{"none", Meta{}, 0, false},
		{"-9999", Meta{HasDataIgnore: true, DataIgnore: -9999}, -9999, true},
		{"zero", Meta{HasDataIgnore: true, DataIgnore: 0}, 0, true},
		{"NaN", Meta{HasDataIgnore: true, DataIgnore: math.NaN()}, 0, false},
		// issue 29: compared as a float32 sample holds it, as GDAL does
		{"not exact in float32", Meta{HasDataIgnore: true, DataIgnore: 0.1}, float32(0.1), true},
		{"-9999.9", Meta{HasDataIgnore: true, DataIgnore: -9999.9}, float32(-9999.9), true},
		{"FLT_MAX printed", Meta{HasDataIgnore: true, DataIgnore: -3.4028235e+38}, -math.MaxFloat32, true},
		{"beyond float32", Meta{HasDataIgnore: true, DataIgnore: 1e300}, 0, false},
		{"-Inf", Meta{HasDataIgnore: true, DataIgnore: math.Inf(-1)}, float32(math.Inf(-1)), true},
	} {
		got, ok := tc.m.IgnoreValue()
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("%s: %v %v, want %v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
