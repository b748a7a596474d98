package hsi

import (
	"math"
	"testing"
)

// TestCheckGeoTransform: the one finiteness rule for georeferencing.
func TestCheckGeoTransform(t *testing.T) {
	for _, tc := range []struct {
		gt [6]float64
		ok bool
	}{
		{[6]float64{500000, 30, 0, 4e6, 0, -30}, true},
		{[6]float64{-118.25, 5.4e-4, 0, 34.1, 0, -5.4e-4}, true},
		{[6]float64{500000, 30, 1, 4e6, 1, -30}, true}, // rotated
		{[6]float64{math.NaN(), 30, 0, 4e6, 0, -30}, false},
		{[6]float64{500000, math.Inf(1), 0, 4e6, 0, -30}, false},
		{[6]float64{0, 0, 0, 0, 0, 0}, false},            // all zero: no pixel size
		{[6]float64{500000, 30, 30, 4e6, 30, 30}, false}, // singular
		{[6]float64{500000, 30, 0, 1e300, 0, -30}, false},
		{[6]float64{500000, 1e200, 0, 4e6, 0, -1e200}, false}, // determinant overflows
	} {
		if err := CheckGeoTransform(tc.gt); (err == nil) != tc.ok {
			t.Errorf("%v: error %v, want ok=%v", tc.gt, err, tc.ok)
		}
	}
	if err := CheckGeo(&Geo{PixelScale: []float64{30, math.NaN(), 0}, Tiepoints: []float64{0, 0, 0, 1, 1, 0}}); err == nil {
		t.Error("NaN pixel scale accepted")
	}
	if err := CheckGeo(nil); err != nil {
		t.Error(err)
	}
}
