package eval

import (
	"math"
	"testing"
)

func TestTiles(t *testing.T) {
	for _, tc := range []struct {
		h, w, size int
		n          int
		last       Region
	}{
		{100, 100, 64, 1, Region{Index: 0, Y0: 0, X0: 0, H: 64, W: 64, Kind: "tile"}},
		{105, 120, 64, 1, Region{Index: 0, Y0: 0, X0: 0, H: 64, W: 64, Kind: "tile"}},
		{229, 394, 64, 18, Region{Index: 17, Y0: 128, X0: 320, H: 64, W: 64, Kind: "tile"}},
		{128, 128, 64, 4, Region{Index: 3, Y0: 64, X0: 64, H: 64, W: 64, Kind: "tile"}},
		{63, 500, 64, 0, Region{}},
	} {
		r := Tiles(tc.h, tc.w, tc.size)
		if len(r) != tc.n {
			t.Fatalf("Tiles(%d,%d,%d): %d tiles, want %d", tc.h, tc.w, tc.size, len(r), tc.n)
		}
		if tc.n == 0 {
			continue
		}
		if r[len(r)-1] != tc.last {
			t.Errorf("Tiles(%d,%d,%d): last %+v, want %+v", tc.h, tc.w, tc.size, r[len(r)-1], tc.last)
		}
		// Non-overlapping, inside the scene, row-major.
		for i, a := range r {
			if a.Index != i || a.Y0+a.H > tc.h || a.X0+a.W > tc.w {
				t.Errorf("tile %d %+v outside %dx%d", i, a, tc.h, tc.w)
			}
			for _, b := range r[i+1:] {
				if a.Y0 < b.Y0+b.H && b.Y0 < a.Y0+a.H && a.X0 < b.X0+b.W && b.X0 < a.X0+a.W {
					t.Errorf("tiles %+v and %+v overlap", a, b)
				}
			}
		}
	}
}

func TestCenterCrop(t *testing.T) {
	for _, tc := range []struct {
		h, w, size int
		want       Region
	}{
		{256, 256, 256, Region{Y0: 0, X0: 0, H: 256, W: 256, Kind: "crop"}},
		{512, 512, 256, Region{Y0: 128, X0: 128, H: 256, W: 256, Kind: "crop"}},
		{105, 120, 256, Region{Y0: 0, X0: 7, H: 105, W: 105, Kind: "crop"}},
		{229, 394, 0, Region{Y0: 0, X0: 82, H: 229, W: 229, Kind: "crop"}},
		{101, 100, 0, Region{Y0: 0, X0: 0, H: 100, W: 100, Kind: "crop"}},
	} {
		if got := CenterCrop(tc.h, tc.w, tc.size); got != tc.want {
			t.Errorf("CenterCrop(%d,%d,%d) = %+v, want %+v", tc.h, tc.w, tc.size, got, tc.want)
		}
	}
}

func TestRegionsBySensor(t *testing.T) {
	for _, tc := range []struct {
		protocol string
		h, w     int
		sensor   string
		geom     Geometry
		n        int
		kind     string
		side     int
	}{
		{ProtocolSeven, 256, 256, "CAVE", "", 1, "crop", 256},
		{ProtocolSeven, 512, 512, "cave", GeomAuto, 1, "crop", 256},
		{ProtocolSeven, 256, 256, "CAVE", GeomTiles, 16, "tile", 64},
		{ProtocolSeven, 100, 100, "AVIRIS", "", 1, "tile", 64},
		{ProtocolSeven, 229, 394, "unknown-17band", "", 18, "tile", 64},
		{ProtocolSeven, 229, 394, "", GeomCrop, 1, "crop", 229},
		{ProtocolSeven, 105, 120, "ROSIS-03", "", 1, "tile", 64},
		{ProtocolTwelve, 105, 120, "ROSIS-03", "", 1, "crop", 105},
		{ProtocolTwelve, 256, 256, "CAVE", GeomTiles, 1, "crop", 256},
	} {
		r, err := Regions(tc.protocol, tc.h, tc.w, tc.sensor, tc.geom, 0, 0)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		if len(r) != tc.n || r[0].Kind != tc.kind || r[0].H != tc.side || r[0].W != tc.side {
			t.Errorf("%+v: got %d regions, first %+v", tc, len(r), r[0])
		}
	}
	for _, bad := range []struct {
		protocol string
		h, w     int
		geom     Geometry
	}{{"nine", 64, 64, ""}, {ProtocolSeven, 32, 32, GeomTiles}, {ProtocolSeven, 64, 64, "hex"}, {ProtocolSeven, 0, 64, ""}} {
		if _, err := Regions(bad.protocol, bad.h, bad.w, "", bad.geom, 0, 0); err == nil {
			t.Errorf("Regions(%q, %d, %d, %q) accepted", bad.protocol, bad.h, bad.w, bad.geom)
		}
	}
}

func TestCloseRange(t *testing.T) {
	for s, want := range map[string]bool{"CAVE": true, " Harvard ": true, "ARAD": true, "ground": true,
		"AVIRIS": false, "ROSIS-03": false, "": false, "unknown-17band": false, "HYDICE": false} {
		if CloseRange(s) != want {
			t.Errorf("CloseRange(%q) = %v", s, !want)
		}
	}
}

func TestLRSide(t *testing.T) {
	for _, tc := range []struct {
		side int
		s    float64
		want int
	}{
		{64, 2, 32}, {64, 4, 16}, {64, 8, 8}, {256, 3.7, 69}, {256, 2.5, 102}, {100, 2.5, 40},
		{229, 5.3, 43}, {105, 48, 2}, {100, 48, 2}, {229, 48, 5}, {256, 7.6, 34}, {64, 128, 1},
		{37, 2, 19}, // 18.5 rounds half away from zero
	} {
		got, err := LRSide(tc.side, tc.s)
		if err != nil || got != tc.want {
			t.Errorf("LRSide(%d, %g) = %d, %v; want %d", tc.side, tc.s, got, err, tc.want)
		}
	}
	for _, s := range []float64{0, -2, math.NaN(), math.Inf(1), 1000} {
		if _, err := LRSide(64, s); err == nil {
			t.Errorf("LRSide(64, %v) accepted", s)
		}
	}
}

func TestFormatFactor(t *testing.T) {
	for s, want := range map[float64]string{2: "x2", 2.5: "x2.5", 3.7: "x3.7", 48: "x48", 7.625: "x7.625"} {
		if got := FormatFactor(s); got != want {
			t.Errorf("FormatFactor(%v) = %q, want %q", s, got, want)
		}
	}
}
