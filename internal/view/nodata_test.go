package view

import (
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// The viewer takes a no-data value that no float32 holds exactly
// (-9999.9) as the command line does (hsi.Meta.NoData, compared as the
// float32 samples hold it): the samples written with it are no-data in the
// scene's spectra and are left out of its stretch, and the scene counts
// as many no-data samples as `omnihsr info` (hsi.StatsOf) does.
func TestNoDataAsTheCLI(t *testing.T) {
	c := synth(6, 7, 3, 0)
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = -9999.9, true
	c.Meta.BadBands = nil
	nd := float32(-9999.9) // -9999.900390625, what a float32 band holds
	for _, p := range [][3]int{{0, 0, 0}, {2, 3, 1}, {5, 6, 2}, {1, 2, 0}, {1, 2, 1}, {1, 2, 2}} {
		c.Set(p[0], p[1], p[2], nd)
	}
	sc := NewScene("nd", c, nil)
	n := 0
	for _, v := range c.Data {
		if sc.IsNoData(v) {
			n++
		}
		if sc.IsNoData(v) != c.Meta.NoData().Is(v) {
			t.Fatalf("sample %v: the viewer says no-data %v, the command line %v", v, sc.IsNoData(v), c.Meta.NoData().Is(v))
		}
	}
	if st := hsi.StatsOf(c); n != 6 || int64(n) != st.Ignored {
		t.Fatalf("the viewer finds %d no-data samples, omnihsr info %d (want 6)", n, st.Ignored)
	}
	if got := sc.values([]float32{nd, 0.5, nd}); got[0] != nil || got[2] != nil || got[1] == nil || *got[1] != 0.5 {
		t.Errorf("spectrum of [-9999.9, 0.5, -9999.9]: %v, want [null 0.5 null]", got)
	}
	for b := range c.B {
		if lo, _ := sc.Stretch(b, 0, 100); lo == nd {
			t.Errorf("band %d: the stretch starts at the no-data value", b)
		}
	}
}
