package hsi

import (
	"math"
	"testing"
)

// FuzzMapInfo: an ENVI map info value that CheckMapInfo accepts resolves
// to a finite geotransform with a pixel size, which scaling keeps finite;
// none makes the checks or the transform panic.
func FuzzMapInfo(f *testing.F) {
	for _, s := range []string{
		"UTM, 1.000, 1.000, 620000.0, 4200000.0, 30.0, 30.0, 13, North, WGS-84",
		"Geographic Lat/Lon, 1, 1, -118.25, 34.1, 5.4e-4, 5.4e-4, WGS-84, units=Degrees",
		"UTM, 1, 1, 500000, 4000000, 30, 30, 33, North, WGS-84, rotation=15",
		"Arbitrary, 1, 1, 0, 0, 1, 1, 0, North, rotation=-180",
		"UTM, 1, 1, 500000, 4000000, 30, 30, 33, North, WGS-84, rotation=nan",
		"UTM, 1, 1, inf, 4000000, 30, 30",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if err := CheckMapInfo(s); err != nil {
			return
		}
		g := &Geo{MapInfo: s}
		if err := CheckGeo(g); err != nil {
			t.Fatalf("CheckMapInfo accepts %q, CheckGeo refuses it: %v", s, err)
		}
		gt, ok := g.Transform()
		if !ok {
			return
		}
		for _, v := range gt {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%q: transform %v", s, gt)
			}
		}
		_ = g.Scale(2, 3)
		_ = g.Summary()
		_, _, _ = g.ENVI()
	})
}
