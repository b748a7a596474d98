package tiff

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

type goldenSource struct {
	Shape  []int     `json:"shape"`
	Values []float64 `json:"values"`
}

type goldenFile struct {
	Source         string    `json:"source"`
	Bands          int       `json:"bands"`
	Pages          int       `json:"pages"`
	NoData         *float64  `json:"nodata"`
	GeoTransform   []float64 `json:"geotransform"`
	Point          bool      `json:"point"`
	Wavelengths    []float64 `json:"wavelengths"`
	BandNames      []string  `json:"band_names"`
	PixelScale     []float64 `json:"pixel_scale"`
	Tiepoints      []float64 `json:"tiepoints"`
	Transformation []float64 `json:"transformation"`
	GeoKeys        []float64 `json:"geokeys"`
	GeoDoubles     []float64 `json:"geodoubles"`
	GeoASCII       string    `json:"geoascii"`
}

type goldens struct {
	Sources map[string]goldenSource `json:"sources"`
	Files   map[string]goldenFile   `json:"files"`
}

// loadGoldens reads testdata/expected.json, written by testdata/gen_golden.py.
func loadGoldens(t testing.TB) goldens {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g goldens
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

func checkValues(t *testing.T, c *hsi.Cube, s goldenSource) {
	t.Helper()
	if c.H != s.Shape[0] || c.W != s.Shape[1] || c.B != s.Shape[2] {
		t.Fatalf("cube %dx%dx%d, want %v", c.H, c.W, c.B, s.Shape)
	}
	for i, want := range s.Values {
		if c.Data[i] != float32(want) {
			p, b := i/c.B, i%c.B
			t.Fatalf("value at row %d, column %d, band %d = %v, want %v", p/c.W, p%c.W, b, c.Data[i], want)
		}
	}
}

func equalF(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGoldens reads every file GDAL and tifffile wrote and compares values,
// geo tags and metadata with what they reported.
func TestGoldens(t *testing.T) {
	g := loadGoldens(t)
	names := make([]string, 0, len(g.Files))
	for n := range g.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) < 25 {
		t.Fatalf("only %d golden files", len(names))
	}
	for _, name := range names {
		e := g.Files[name]
		t.Run(name, func(t *testing.T) {
			c, info, err := Read(filepath.Join("testdata", name), hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkValues(t, c, g.Sources[e.Source])
			if info.DataType != e.Source {
				t.Errorf("data type %q, want %q", info.DataType, e.Source)
			}
			wantLayout := "samples"
			if e.Pages > 1 {
				wantLayout = "pages"
			}
			if info.Layout != wantLayout {
				t.Errorf("layout %q, want %q", info.Layout, wantLayout)
			}
			if strings.Contains(name, "bigendian") || strings.Contains(name, "_be") {
				if !strings.Contains(info.Detail, "big-endian") {
					t.Errorf("detail %q does not say big-endian", info.Detail)
				}
			}
			if strings.Contains(name, "bigtiff") && !strings.Contains(info.Detail, "BigTIFF") {
				t.Errorf("detail %q does not say BigTIFF", info.Detail)
			}
			m := c.Meta
			if e.NoData != nil {
				if !m.HasDataIgnore || m.DataIgnore != *e.NoData {
					t.Errorf("data ignore %v (%v), want %v", m.DataIgnore, m.HasDataIgnore, *e.NoData)
				}
			} else if m.HasDataIgnore {
				t.Errorf("data ignore %v set, file has none", m.DataIgnore)
			}
			if e.Wavelengths != nil {
				if !equalF(m.Wavelengths, e.Wavelengths) || m.WavelengthUnits != "Nanometers" {
					t.Errorf("wavelengths %v %q, want %v Nanometers", m.Wavelengths, m.WavelengthUnits, e.Wavelengths)
				}
				if strings.Join(m.BandNames, "|") != strings.Join(e.BandNames, "|") {
					t.Errorf("band names %q, want %q", m.BandNames, e.BandNames)
				}
			} else if m.Wavelengths != nil {
				t.Errorf("wavelengths %v, file has none", m.Wavelengths)
			}
			geo := m.Geo
			if e.GeoTransform == nil {
				if geo != nil {
					t.Errorf("geo %+v, file has none", geo)
				}
				if info.Format != "TIFF" {
					t.Errorf("format %q, want TIFF", info.Format)
				}
				return
			}
			if geo == nil {
				t.Fatal("no geo tags read")
			}
			if info.Format != "GeoTIFF" {
				t.Errorf("format %q, want GeoTIFF", info.Format)
			}
			keys := make([]float64, len(geo.GeoKeys))
			for i, k := range geo.GeoKeys {
				keys[i] = float64(k)
			}
			if !equalF(geo.PixelScale, e.PixelScale) || !equalF(geo.Tiepoints, e.Tiepoints) ||
				!equalF(geo.Transformation, e.Transformation) || !equalF(keys, e.GeoKeys) ||
				!equalF(geo.GeoDoubles, e.GeoDoubles) || geo.GeoASCII != e.GeoASCII {
				t.Errorf("geo %+v, want scale %v tie %v trans %v keys %v doubles %v ascii %q",
					geo, e.PixelScale, e.Tiepoints, e.Transformation, e.GeoKeys, e.GeoDoubles, e.GeoASCII)
			}
			if geo.PixelIsPoint != e.Point {
				t.Errorf("PixelIsPoint %v, want %v", geo.PixelIsPoint, e.Point)
			}
			// The pixel grid GDAL reports follows from the tags.
			gt := geoTransform(geo)
			if gt == nil || !near(gt, e.GeoTransform) {
				t.Errorf("geotransform %v, GDAL says %v", gt, e.GeoTransform)
			}
		})
	}
}

// geoTransform computes GDAL's geotransform (corner of pixel (0,0), pixel
// steps) from the tags, as GDAL does for PixelIsArea and PixelIsPoint.
func geoTransform(g *hsi.Geo) []float64 {
	var gt []float64
	switch {
	case len(g.Transformation) == 16:
		t := g.Transformation
		gt = []float64{t[3], t[0], t[1], t[7], t[4], t[5]}
	case len(g.PixelScale) >= 2 && len(g.Tiepoints) >= 6:
		s, tp := g.PixelScale, g.Tiepoints
		gt = []float64{tp[3] - tp[0]*s[0], s[0], 0, tp[4] + tp[1]*s[1], 0, -s[1]}
	default:
		return nil
	}
	if g.PixelIsPoint {
		// GDAL shifts by half a pixel so that the geotransform names corners.
		gt[0] -= 0.5*gt[1] + 0.5*gt[2]
		gt[3] -= 0.5*gt[4] + 0.5*gt[5]
	}
	return gt
}

func near(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		d := a[i] - b[i]
		if d > 1e-9*max(1, b[i], -b[i]) || d < -1e-9*max(1, b[i], -b[i]) {
			return false
		}
	}
	return true
}
