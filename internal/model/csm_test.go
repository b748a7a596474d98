package model

import (
	"math"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

func TestBandMapInterpolatesLinearSpectra(t *testing.T) {
	// A spectrum linear in the normalised band position must map to the same
	// line sampled at the reference positions, for any B >= 2.
	for _, b := range []int{2, 3, 17, 31, 103, 224} {
		bm, err := NewBandMap(b, 31)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float32, b)
		for i := range x {
			x[i] = 2 + 3*float32(i)/float32(b-1)
		}
		z := make([]float32, 31)
		bm.Apply(z, x, 1)
		for m, v := range z {
			want := 2 + 3*float64(m)/30
			if math.Abs(float64(v)-want) > 1e-5 {
				t.Fatalf("B=%d position %d: got %v want %v", b, m, v, want)
			}
		}
	}
}

func TestBandMapIdentityAt31(t *testing.T) {
	bm, _ := NewBandMap(31, 31)
	x := make([]float32, 31)
	for i := range x {
		x[i] = float32(i*i) * 0.1
	}
	z := make([]float32, 31)
	bm.Apply(z, x, 1)
	for i := range x {
		if math.Abs(float64(z[i]-x[i])) > 1e-5 {
			t.Fatalf("band %d: %v != %v", i, z[i], x[i])
		}
	}
}

func TestBandMapOneBand(t *testing.T) {
	bm, err := NewBandMap(1, 31)
	if err != nil {
		t.Fatal(err)
	}
	z := make([]float32, 62)
	bm.Apply(z, []float32{0.25, 4}, 2)
	for i := 0; i < 31; i++ {
		if z[i] != 0.5 || z[31+i] != 8 {
			t.Fatalf("position %d: %v %v", i, z[i], z[31+i])
		}
	}
}

func TestBandMapErrors(t *testing.T) {
	if _, err := NewBandMap(0, 31); err == nil {
		t.Fatal("0 bands accepted")
	}
	if _, err := NewBandMap(3, 0); err == nil {
		t.Fatal("0 positions accepted")
	}
}

func TestInputScaleHomogeneous(t *testing.T) {
	c := hsi.MustNew(3, 4, 5)
	for i := range c.Data {
		c.Data[i] = float32(i%7) - 2
	}
	s1 := InputScale(c)
	for i := range c.Data {
		c.Data[i] *= 1000
	}
	s2 := InputScale(c)
	if math.Abs(float64(s1/s2)/1000-1) > 1e-6 {
		t.Fatalf("scale not homogeneous: %v vs %v", s1, s2)
	}
	z := hsi.MustNew(2, 2, 2)
	if InputScale(z) != 1 {
		t.Fatal("all-zero cube must get scale 1")
	}
}

// inputScaleBands gives the same bits as InputScale of the selected bands'
// cube, and 1 for bands that are all zero.
func TestInputScaleBands(t *testing.T) {
	c := hsi.MustNew(200, 120, 6) // every band: three blocks of the sum; bands 0, 2, 3: two
	for i := range c.Data {
		c.Data[i] = float32(math.Sin(float64(i)*0.37)) * float32(1+i%6)
	}
	for _, bands := range [][]int{{0, 1, 2, 3, 4, 5}, {1, 4}, {5}, {0, 2, 3}} {
		sub, err := c.SelectBands(bands)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := inputScaleBands(c, bands), InputScale(sub); math.Float32bits(got) != math.Float32bits(want) {
			t.Errorf("bands %v: %v, want %v", bands, got, want)
		}
		if got, want := absSumBands(c, bands), absSumBands(sub, nil); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("bands %v: sum %v, want %v", bands, got, want)
		}
	}
	z := hsi.MustNew(2, 2, 3)
	z.Data[0] = 5 // band 0 only
	if got := inputScaleBands(z, []int{1, 2}); got != 1 {
		t.Errorf("all-zero bands: %v, want 1", got)
	}
}
