package hsi

import (
	"math"
	"testing"
)

// TestStats: the range leaves out NaN, infinite and no-data samples and
// counts them; the first NaN or infinite sample is the first in raster
// order whatever order the samples are added in.
func TestStats(t *testing.T) {
	c := MustNew(3, 4, 2)
	for i := range c.Data {
		c.Data[i] = float32(i)
	}
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = -9999.9, true
	c.Set(0, 1, 1, float32(-9999.9))
	c.Set(1, 2, 0, float32(math.NaN()))
	c.Set(2, 0, 1, float32(math.Inf(-1)))
	c.Set(2, 3, 1, float32(math.NaN()))
	want := Stats{Lo: 0, Hi: 22, NaN: 2, Inf: 1, Ignored: 1, Row: 1, Col: 2, Band: 0, nd: c.Meta.NoData()}
	if got := StatsOf(c); got != want {
		t.Fatalf("StatsOf %+v, want %+v", got, want)
	}
	// added in reverse order, as an HDF5 chunk walk may deliver runs
	s := NewStats(c.Meta)
	for i := len(c.Data) - 1; i >= 0; i-- {
		p := i / c.B
		s.Add(c.Data[i], p/c.W, p%c.W, i%c.B)
	}
	if *s != want {
		t.Fatalf("reversed %+v, want %+v", *s, want)
	}
	s.AddRepeat(0, 5)
	s.AddRepeat(float32(-9999.9), 2)
	if s.Lo != 0 || s.Ignored != 3 {
		t.Errorf("AddRepeat: lo %v, ignored %d", s.Lo, s.Ignored)
	}
}
