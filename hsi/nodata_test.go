package hsi

import (
	"errors"
	"math"
	"math/rand/v2"
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
	lr.Data[(8*11+10)*4+1] = -9999 // one band only: data, not a no-data pixel
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
	for p := 0; p < 9*11; p++ {
		y, x := p/11, p%11
		hole := y >= 2 && y < 6 && x < 5
		if nd.valid[p] == hole {
			t.Fatalf("pixel (%d,%d): valid = %v", y, x, nd.valid[p])
		}
		for k := 0; k < 4; k++ {
			v := got.Data[p*4+k]
			if !hole {
				if v != orig.Data[p*4+k] {
					t.Fatalf("valid pixel (%d,%d) changed", y, x)
				}
				continue
			}
			// Means of valid values in [0, 1): never the no-data value.
			if !(v >= 0 && v < 1) {
				t.Fatalf("filled pixel (%d,%d) band %d = %v", y, x, k, v)
			}
		}
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
