package stac

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/crs"
)

var stacDir = flag.String("stac-dir", "", "write the test items here for scripts/goldens/stac.py")

// when is the fixed processing time of the test items.
var when = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

func geo(gt [6]float64, epsg int) *hsi.Geo {
	g := &hsi.Geo{PixelScale: []float64{gt[1], -gt[5], 0}, Tiepoints: []float64{0, 0, 0, gt[0], gt[3], 0}}
	g.GeoKeys, g.GeoDoubles, g.GeoASCII = crs.GeoKeys(crs.FromEPSG(epsg), false)
	return g
}

// cases are the items of the golden test: a NEON-like upscaled COG (UTM,
// scale factor, no-data, bad bands, nanometres), an ENVI conversion in
// EPSG:4326 with micrometres and an acquisition time, and a NumPy output
// with nothing but its shape.
func cases() []struct {
	name string
	a    Asset
	p    Processing
} {
	neon := &hsi.Meta{
		Wavelengths: []float64{381.4, 1400.1, 2510}, WavelengthUnits: "Nanometers", FWHM: []float64{5, 5.07, 5.13},
		BadBands: []bool{false, true, false}, DataIgnore: -9999, HasDataIgnore: true, ReflectanceScale: 10000,
		Geo: geo([6]float64{257000, 0.5, 0, 4113000, 0, -0.5}, 32611),
	}
	wgs := &hsi.Meta{
		Wavelengths: []float64{0.4605, 0.5532}, WavelengthUnits: "Micrometers", FWHM: []float64{0.0061, 0.0072},
		BandNames: []string{"blue", "green"}, DataIgnore: math.NaN(), HasDataIgnore: true,
		Scale: []float64{2e-5, 2e-5}, Offset: []float64{-0.1, -0.1},
		Extra: []hsi.Field{{Key: "acquisition time", Value: "2009-08-20T09:44:50"}},
		Geo:   geo([6]float64{13.25, 0.001, 0, 52.5, 0, -0.001}, 4326),
	}
	return []struct {
		name string
		a    Asset
		p    Processing
	}{
		{"neon_x2", Asset{Path: "out/neon_x2.tif", Format: "TIFF", Driver: "COG", DataType: "int16", H: 12, W: 10, Meta: neon},
			Processing{Software: "omnihsr", Version: "v0.0.0-test", Command: "upscale", Method: "omnihsr", FactorY: 2, FactorX: 2, Model: "embedded default pair (model for clean inputs)", Input: "NEON_D17_SJER_DP3_257000_4112000_reflectance.h5"}},
		{"enmapbox", Asset{Path: "out/enmapbox.hdr", Files: []string{"out/enmapbox.hdr", "out/enmapbox.img"}, Format: "ENVI", H: 3, W: 4, Meta: wgs},
			Processing{Software: "omnihsr", Version: "v0.0.0-test", Command: "convert", Input: "enmapbox.tif"}},
		{"plain", Asset{Path: "out/plain.npy", Format: "NPY", H: 5, W: 6, Meta: &hsi.Meta{}},
			Processing{Software: "omnihsr", Version: "v0.0.0-test", Command: "upscale", Method: "bicubic", FactorY: 2.5, FactorX: 3}},
	}
}

// TestItems compares the items with the goldens in testdata/, which
// scripts/goldens/stac.py validated against the STAC 1.1 item schema and
// the eo, raster and projection v2.0.0 extension schemas (and whose
// footprints it checked against GDAL's transformation to longitude and
// latitude).
func TestItems(t *testing.T) {
	for _, tc := range cases() {
		item, err := Item(tc.a, tc.p, when)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.MarshalIndent(item, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		if *stacDir != "" {
			if err := os.WriteFile(filepath.Join(*stacDir, tc.name+".json"), got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(filepath.Join("testdata", tc.name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: item differs from testdata/%s.json (run scripts/goldens/stac.py to validate and update):\n%s", tc.name, tc.name, got)
		}
	}
}

func TestWriteBeside(t *testing.T) {
	dir := t.TempDir()
	c := cases()[0]
	c.a.Path = filepath.Join(dir, "sr.tif")
	p, err := Write(c.a, c.p, when)
	if err != nil || p != filepath.Join(dir, "sr.json") {
		t.Fatalf("%v %s", err, p)
	}
	var item map[string]any
	b, _ := os.ReadFile(p)
	if err := json.Unmarshal(b, &item); err != nil || item["id"] != "sr" {
		t.Fatalf("%v %v", err, item["id"])
	}
	if _, err := Item(Asset{Path: "x.tif"}, Processing{}, when); err == nil {
		t.Error("an asset without shape gave an item")
	}
}

// Issue 39: non-finite wavelengths, FWHM, gains or offsets made the item
// fail to marshal ("json: unsupported value: NaN") after the image was
// written. They are left out; the finite ones stay.
func TestNonFiniteLeftOut(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	m := &hsi.Meta{Wavelengths: []float64{nan, 500, 600}, FWHM: []float64{10, inf, 10}, WavelengthUnits: "Nanometers",
		Scale: []float64{nan, 1, 1}, Offset: []float64{0, inf, 0}}
	p, err := Write(Asset{Path: filepath.Join(t.TempDir(), "x.tif"), Format: "TIFF", H: 2, W: 2, Meta: m}, Processing{Software: "omnihsr"}, when)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	var item struct {
		Assets map[string]struct {
			Bands []map[string]any `json:"bands"`
		} `json:"assets"`
	}
	if err := json.Unmarshal(b, &item); err != nil {
		t.Fatal(err)
	}
	bands := item.Assets["data"].Bands
	if len(bands) != 3 {
		t.Fatalf("%d bands: %s", len(bands), b)
	}
	_, wl0 := bands[0]["eo:center_wavelength"]
	_, fw1 := bands[1]["eo:full_width_half_max"]
	if wl0 || bands[1]["eo:center_wavelength"] != 0.5 || fw1 || bands[2]["eo:full_width_half_max"] != 0.01 {
		t.Errorf("wavelengths and FWHM: %v", bands)
	}
	_, s0 := bands[0]["raster:scale"]
	_, s1 := bands[1]["raster:scale"]
	if s0 || s1 || bands[2]["raster:scale"] != 1.0 {
		t.Errorf("scales: %v", bands)
	}
}

// utmInverse against GDAL (osr, EPSG:32611 and 32733 to EPSG:4326): the
// footprint of the goldens is checked the same way by scripts/goldens/stac.py.
func TestUTMInverse(t *testing.T) {
	for _, tc := range []struct {
		e, n     float64
		zone     int
		north    bool
		lon, lat float64
	}{
		{500000, 0, 31, true, 3, 0},
		{500000, 10000000, 33, false, 15, 0},
	} {
		lon, lat := utmInverse(tc.e, tc.n, tc.zone, tc.north)
		if math.Abs(lon-tc.lon) > 1e-9 || math.Abs(lat-tc.lat) > 1e-9 {
			t.Errorf("%v %v zone %d: %v %v, want %v %v", tc.e, tc.n, tc.zone, lon, lat, tc.lon, tc.lat)
		}
	}
}
