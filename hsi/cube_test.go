package hsi

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestNewRejectsBadSizes(t *testing.T) {
	for _, s := range [][3]int{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}, {-1, 2, 2}} {
		if _, err := New(s[0], s[1], s[2]); !errors.Is(err, ErrEmpty) {
			t.Errorf("New%v: err %v, want ErrEmpty", s, err)
		}
	}
	if _, err := Elems(math.MaxInt32, math.MaxInt32, math.MaxInt32); err == nil {
		t.Error("overflowing size accepted")
	}
}

func TestCropSelectClone(t *testing.T) {
	c := MustNew(4, 5, 3)
	for i := range c.Data {
		c.Data[i] = float32(i)
	}
	c.Meta.Wavelengths = []float64{400, 500, 600}
	c.Meta.BandNames = []string{"a", "b", "c"}
	c.Meta.Geo = &Geo{Tiepoints: []float64{0, 0, 0, 100, 200, 0}, PixelScale: []float64{10, 10, 0}}
	w, err := c.Crop(1, 2, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := w.At(0, 0, 1), c.At(1, 2, 1); got != want {
		t.Fatalf("crop value %v, want %v", got, want)
	}
	if w.Meta.Geo.Tiepoints[0] != -2 || w.Meta.Geo.Tiepoints[1] != -1 {
		t.Fatalf("crop tie point %v", w.Meta.Geo.Tiepoints)
	}
	if c.Meta.Geo.Tiepoints[0] != 0 {
		t.Fatal("crop changed the source georeferencing")
	}
	s, err := c.SelectBands([]int{2, 0})
	if err != nil {
		t.Fatal(err)
	}
	if s.B != 2 || s.At(3, 4, 0) != c.At(3, 4, 2) || s.Meta.Wavelengths[0] != 600 || s.Meta.BandNames[1] != "a" {
		t.Fatalf("select bands: %+v", s.Meta)
	}
	for _, bad := range [][]int{nil, {3}, {-1}} {
		if _, err := c.SelectBands(bad); err == nil {
			t.Errorf("SelectBands(%v) accepted", bad)
		}
	}
	if _, err := c.Crop(3, 0, 2, 1); err == nil {
		t.Error("crop outside accepted")
	}
	d := c.Clone()
	d.Data[0] = 99
	d.Meta.Wavelengths[0] = 1
	if c.Data[0] == 99 || c.Meta.Wavelengths[0] == 1 {
		t.Fatal("Clone shares memory")
	}
}

func TestValidateAndFinite(t *testing.T) {
	c := MustNew(2, 2, 2)
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Meta.Wavelengths = []float64{1}
	if err := c.Validate(); err == nil {
		t.Fatal("wavelength count mismatch accepted")
	}
	c.Meta.Wavelengths = nil
	c.Data[5] = float32(math.NaN())
	err := c.CheckFinite()
	if err == nil || !strings.Contains(err.Error(), "row 1, column 0, band 1") {
		t.Fatalf("CheckFinite: %v", err)
	}
}

func TestNormalizeMax(t *testing.T) {
	c := MustNew(1, 2, 2)
	copy(c.Data, []float32{-3, 2, 4, 1})
	if d := c.NormalizeMax(); d != 4 {
		t.Fatalf("divisor %v", d)
	}
	want := []float32{0, 0.5, 1, 0.25}
	for i, v := range want {
		if c.Data[i] != v {
			t.Fatalf("value %d: %v want %v", i, c.Data[i], v)
		}
	}
	z := MustNew(1, 1, 2)
	if z.NormalizeMax() != 1 {
		t.Fatal("all-zero cube divisor must be 1")
	}
}

func TestGeoScale(t *testing.T) {
	tests := []struct {
		name string
		geo  Geo
		sy   float64
		sx   float64
		want Geo
	}{
		{"envi map info", Geo{MapInfo: "UTM, 1, 1, 620000, 4200000, 30, 30, 13, North, WGS-84"}, 4, 2,
			Geo{MapInfo: "UTM, 1, 1, 620000, 4200000, 15, 7.5, 13, North, WGS-84"}},
		{"envi reference pixel", Geo{MapInfo: "UTM, 1.5, 1.5, 620015, 4199985, 30, 30"}, 2, 2,
			Geo{MapInfo: "UTM, 2, 2, 620015, 4199985, 15, 15"}},
		{"geotiff area", Geo{PixelScale: []float64{30, 30, 0}, Tiepoints: []float64{1, 2, 0, 5, 6, 0}}, 3, 3,
			Geo{PixelScale: []float64{10, 10, 0}, Tiepoints: []float64{3, 6, 0, 5, 6, 0}}},
		{"geotiff point", Geo{PixelIsPoint: true, PixelScale: []float64{30, 30, 0}, Tiepoints: []float64{0, 0, 0, 5, 6, 0}}, 2, 2,
			Geo{PixelIsPoint: true, PixelScale: []float64{15, 15, 0}, Tiepoints: []float64{0.5, 0.5, 0, 5, 6, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.geo.Clone()
			if err := g.Scale(tc.sy, tc.sx); err != nil {
				t.Fatal(err)
			}
			if got, want := fmt.Sprint(g), fmt.Sprint(tc.want.Clone()); got != want {
				t.Fatalf("got %s\nwant %s", got, want)
			}
		})
	}
	g := Geo{MapInfo: "UTM, 1, 1"}
	if err := g.Scale(2, 2); err == nil {
		t.Fatal("short map info accepted")
	}
	if err := (&Geo{}).Scale(0, 1); err == nil {
		t.Fatal("zero factor accepted")
	}
}

// The transformation of a GeoTIFF maps the same world point to the
// corner of the image before and after scaling.
func TestGeoScaleTransformation(t *testing.T) {
	g := Geo{Transformation: []float64{30, 0, 0, 500, 0, -30, 0, 900, 0, 0, 0, 0, 0, 0, 0, 1}}
	g.Scale(4, 4)
	if g.Transformation[0] != 7.5 || g.Transformation[5] != -7.5 || g.Transformation[3] != 500 || g.Transformation[7] != 900 {
		t.Fatalf("transformation %v", g.Transformation)
	}
}

func ExampleGeo_Scale() {
	g := Geo{MapInfo: "UTM, 1, 1, 620000, 4200000, 30, 30, 13, North, WGS-84"}
	g.Scale(4, 4) // a x4 super-resolved grid: same footprint, 7.5 m pixels
	fmt.Println(g.MapInfo)
	// Output: UTM, 1, 1, 620000, 4200000, 7.5, 7.5, 13, North, WGS-84
}

// Resized deep-copies the metadata and scales the georeferencing by the
// per-axis factors of the new grid (rows x4, columns x2: the map info's
// x pixel size 30 -> 15, y 30 -> 7.5).
func TestMetaResized(t *testing.T) {
	m := Meta{Wavelengths: []float64{400, 500}, Geo: &Geo{MapInfo: "UTM, 1, 1, 620000, 4200000, 30, 30, 13, North, WGS-84"}}
	got, err := m.Resized(10, 20, 40, 40)
	if err != nil {
		t.Fatal(err)
	}
	if want := "UTM, 1, 1, 620000, 4200000, 15, 7.5, 13, North, WGS-84"; got.Geo.MapInfo != want {
		t.Errorf("map info %q, want %q", got.Geo.MapInfo, want)
	}
	got.Wavelengths[0] = 1
	if m.Wavelengths[0] != 400 || m.Geo.MapInfo == got.Geo.MapInfo {
		t.Error("Resized shares memory with its receiver")
	}
	if _, err := m.Resized(10, 20, 0, 40); err == nil {
		t.Error("a zero-height grid: no error")
	}
}
