package hsi

import (
	"math"
	"strings"
	"testing"
)

func near(a, b [6]float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// TestTransform checks each source form against the geotransform GDAL 3.6
// reads from it (the rotated case from gdalinfo on
// formats/testdata/georef/rotated.img).
func TestTransform(t *testing.T) {
	s, c := 30*math.Sin(math.Pi/6), 30*math.Cos(math.Pi/6)
	for _, tc := range []struct {
		name string
		g    Geo
		want [6]float64
	}{
		{"map info", Geo{MapInfo: "UTM, 1, 1, 500000, 4200000, 30, 30, 33, North, WGS-84"}, [6]float64{500000, 30, 0, 4200000, 0, -30}},
		{"map info reference pixel", Geo{MapInfo: "UTM, 1.5, 2.5, 500015, 4199955, 30, 30, 33, North"}, [6]float64{500000, 30, 0, 4200000, 0, -30}},
		{"map info rotated", Geo{MapInfo: "UTM, 1, 1, 500000, 4200000, 30, 30, 33, North, WGS-84, rotation=30"}, [6]float64{500000, c, s, 4200000, s, -c}},
		{"tie point", Geo{PixelScale: []float64{30, 30, 0}, Tiepoints: []float64{2, 3, 0, 500060, 4199910, 0}}, [6]float64{500000, 30, 0, 4200000, 0, -30}},
		{"tie point PixelIsPoint", Geo{PixelScale: []float64{30, 30, 0}, Tiepoints: []float64{0, 0, 0, 500015, 4199985, 0}, PixelIsPoint: true}, [6]float64{500000, 30, 0, 4200000, 0, -30}},
		{"transformation", Geo{Transformation: []float64{c, s, 0, 500000, s, -c, 0, 4200000, 0, 0, 0, 0, 0, 0, 0, 1}}, [6]float64{500000, c, s, 4200000, s, -c}},
	} {
		got, ok := tc.g.Transform()
		if !ok || !near(got, tc.want) {
			t.Errorf("%s: %v (ok %v), want %v", tc.name, got, ok, tc.want)
		}
	}
	if _, ok := (&Geo{MapInfo: "UTM, 1, 1"}).Transform(); ok {
		t.Error("short map info gave a transform")
	}
	if _, ok := (*Geo)(nil).Transform(); ok {
		t.Error("nil geo gave a transform")
	}
}

// TestENVIFromGeoTIFF writes GeoTIFF-form grids as ENVI map info and reads
// the map info back to the same geotransform.
func TestENVIFromGeoTIFF(t *testing.T) {
	s, c := 30*math.Sin(math.Pi/6), 30*math.Cos(math.Pi/6)
	utm := []uint16{1, 1, 0, 2, 1024, 0, 1, 1, 3072, 0, 1, 32733}
	for _, tc := range []struct {
		g       Geo
		prefix  string
		lostAny bool
	}{
		{Geo{PixelScale: []float64{30, 30, 0}, Tiepoints: []float64{0, 0, 0, 500000, 4200000, 0}, GeoKeys: utm}, "UTM, 1, 1, 500000, 4200000, 30, 30, 33, South, WGS-84", false},
		{Geo{Transformation: []float64{c, s, 0, 500000, s, -c, 0, 4200000, 0, 0, 0, 0, 0, 0, 0, 1}, GeoKeys: utm}, "UTM, 1, 1, 500000, 4200000, 30, 30, 33, South, WGS-84, rotation=30", false},
		{Geo{PixelScale: []float64{1, 1, 0}, Tiepoints: []float64{0, 0, 0, 10, 20, 0}}, "Arbitrary, 1, 1, 10, 20, 1, 1, 0, North", false},
		// A code of hsi/crs's table gets GDAL's map info and WKT; a code
		// GDAL cannot write as ESRI WKT (EPSG:3139, Hyperbolic
		// Cassini-Soldner) has no WKT here, so its CRS is reported lost.
		{Geo{PixelScale: []float64{1, 1, 0}, Tiepoints: []float64{0, 0, 0, 10, 20, 0}, GeoKeys: []uint16{1, 1, 0, 1, 3072, 0, 1, 3035}}, "Lambert Azimuthal Equal Area, 1, 1, 10, 20, 1, 1", false},
		{Geo{PixelScale: []float64{1, 1, 0}, Tiepoints: []float64{0, 0, 0, 10, 20, 0}, GeoKeys: []uint16{1, 1, 0, 1, 3072, 0, 1, 3400}}, "Transverse Mercator, 1, 1, 10, 20, 1, 1", false},
		{Geo{PixelScale: []float64{1, 1, 0}, Tiepoints: []float64{0, 0, 0, 10, 20, 0}, GeoKeys: []uint16{1, 1, 0, 1, 3072, 0, 1, 3139}}, "EPSG:3139, 1, 1, 10, 20, 1, 1", true},
	} {
		mi, cs, lost := tc.g.ENVI()
		if !strings.HasPrefix(mi, tc.prefix) {
			t.Errorf("map info %q, want %q", mi, tc.prefix)
		}
		if (len(lost) > 0) != tc.lostAny {
			t.Errorf("%q: lost %q", mi, lost)
		}
		want, _ := tc.g.Transform()
		got, ok := (&Geo{MapInfo: mi, CoordSys: cs}).Transform()
		if !ok || !near(got, want) {
			t.Errorf("%q reads back as %v, want %v", mi, got, want)
		}
	}
}

func TestShiftRotated(t *testing.T) {
	g := &Geo{MapInfo: "UTM, 1, 1, 500000, 4200000, 30, 30, 33, North, WGS-84, rotation=30"}
	before, _ := g.Transform()
	g.Shift(2, 3)
	after, _ := g.Transform()
	want := before
	want[0] += 3*before[1] + 2*before[2]
	want[3] += 3*before[4] + 2*before[5]
	if !near(after, want) {
		t.Errorf("shifted %v, want %v (%s)", after, want, g.MapInfo)
	}
}

func TestResizedGridFields(t *testing.T) {
	m := Meta{Extra: []Field{
		{Key: "geo points", Value: "1, 1, 45.0, 10.0, 11, 21, 44.9, 10.1", Braced: true},
		{Key: "rpc info", Value: "1, 2, 3", Braced: true},
		{Key: "x start", Value: "100"},
		{Key: "sensor type", Value: "AVIRIS"},
	}}
	out, err := m.Resized(10, 10, 40, 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Extra) != 2 || out.Extra[0].Value != "1, 1, 45.0, 10.0, 21, 81, 44.9, 10.1" || out.Extra[1].Key != "sensor type" {
		t.Errorf("extra %+v", out.Extra)
	}
	if len(m.Extra) != 4 {
		t.Errorf("the input's fields changed: %+v", m.Extra)
	}
	if _, err := (Meta{Extra: []Field{{Key: "geo points", Value: "1, 2, 3"}}}).Resized(1, 1, 2, 2); err == nil {
		t.Error("broken geo points accepted")
	}
}
