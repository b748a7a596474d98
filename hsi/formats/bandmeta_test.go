package formats

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

var bandmetaDir = flag.String("bandmeta-dir", "", "write the band-metadata outputs here for scripts/goldens/bandmeta.py")

// bandmetaCube is a small cube with every band metadata convention set:
// wavelengths in units, FWHM, bad bands, band names, no-data.
func bandmetaCube(units string) *hsi.Cube {
	c := hsi.MustNew(3, 4, 4)
	for i := range c.Data {
		c.Data[i] = float32(i%13) * 0.05
	}
	f := 1.0
	if units == "Micrometers" {
		f = 0.001
	}
	c.Meta.Wavelengths = []float64{450.5 * f, 550 * f, 1400 * f, 2200.25 * f}
	c.Meta.FWHM = []float64{10 * f, 10.5 * f, 12 * f, 9.75 * f}
	c.Meta.WavelengthUnits = units
	c.Meta.BadBands = []bool{false, false, true, false}
	c.Meta.BandNames = []string{"blue", "green", "water vapour", "swir"}
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = -9999, true
	return c
}

// gdalBand is what GDAL (gdalinfo -json -mdd all) reports of one band.
type gdalBand struct {
	Description  string `json:"description"`
	Wavelength   string `json:"wavelength"`
	Units        string `json:"wavelength_units"`
	FWHM         string `json:"fwhm"`
	BBL          string `json:"bbl"`
	CentralUM    string `json:"CENTRAL_WAVELENGTH_UM"`
	FWHMUM       string `json:"FWHM_UM"`
	NoData       any    `json:"nodata"`
	BandCount    int    `json:"-"`
	ENVIBBL      string `json:"envi_bbl"`
	ENVIUnits    string `json:"envi_wavelength_units"`
	ENVIWaveList string `json:"envi_wavelength"`
}

// TestBandMetadataGDAL writes the band metadata conventions to GeoTIFF and
// ENVI; scripts/goldens/bandmeta.py had GDAL read the same bytes
// (testdata/bandmeta/gdal.json records their SHA-256 and what gdalinfo
// saw): GDAL reads every band's wavelength, unit, FWHM and bad-band flag
// back from our GeoTIFFs (default domain as EnMAP-Box writes them, and the
// IMAGERY domain's CENTRAL_WAVELENGTH_UM and FWHM_UM in micrometres), and
// the wavelengths and units from our ENVI headers.
func TestBandMetadataGDAL(t *testing.T) {
	var golden struct {
		GDAL  string `json:"gdal"`
		Files map[string]struct {
			SHA256 string     `json:"sha256"`
			Bands  []gdalBand `json:"bands"`
		} `json:"files"`
	}
	dir := *bandmetaDir
	if dir == "" {
		dir = t.TempDir()
		b, err := os.ReadFile(filepath.Join("testdata", "bandmeta", "gdal.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &golden); err != nil {
			t.Fatal(err)
		}
	}
	near := func(s string, want float64) bool {
		v, err := strconv.ParseFloat(s, 64)
		return err == nil && math.Abs(v-want) <= 1e-9*math.Max(1, math.Abs(want))
	}
	for _, units := range []string{"Nanometers", "Micrometers"} {
		c := bandmetaCube(units)
		for _, ext := range []string{".tif", ".hdr"} {
			name := "ours_" + units + ext
			p := filepath.Join(dir, name)
			if err := Write(p, c, hsi.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if *bandmetaDir != "" {
				continue
			}
			g, ok := golden.Files[name]
			if !ok {
				t.Errorf("%s: not in testdata/bandmeta/gdal.json: run scripts/goldens/bandmeta.py", name)
				continue
			}
			b, _ := os.ReadFile(p)
			sum := sha256.Sum256(b)
			if hex.EncodeToString(sum[:]) != g.SHA256 {
				t.Errorf("%s: the writer's bytes differ from those %s read: run scripts/goldens/bandmeta.py", name, golden.GDAL)
			}
			if len(g.Bands) != c.B {
				t.Fatalf("%s: GDAL saw %d bands", name, len(g.Bands))
			}
			nm, fw, _ := c.Meta.Nanometers()
			for k, gb := range g.Bands {
				if !near(gb.Wavelength, c.Meta.Wavelengths[k]) || gb.Units != units {
					t.Errorf("%s band %d: GDAL read wavelength %q %q, want %v %s", name, k+1, gb.Wavelength, gb.Units, c.Meta.Wavelengths[k], units)
				}
				if ext == ".hdr" {
					continue // GDAL's ENVI driver reports wavelengths (above); fwhm and bbl stay in the header
				}
				bbl := "1"
				if c.Meta.BadBands[k] {
					bbl = "0"
				}
				if !near(gb.FWHM, c.Meta.FWHM[k]) || gb.BBL != bbl || gb.Description != c.Meta.BandNames[k] {
					t.Errorf("%s band %d: GDAL read fwhm %q bbl %q description %q", name, k+1, gb.FWHM, gb.BBL, gb.Description)
				}
				if !near(gb.CentralUM, nm[k]/1000) || !near(gb.FWHMUM, fw[k]/1000) {
					t.Errorf("%s band %d: GDAL read IMAGERY %q / %q um, want %v / %v", name, k+1, gb.CentralUM, gb.FWHMUM, nm[k]/1000, fw[k]/1000)
				}
			}
			// And we read our own output back the same.
			back, _, err := Read(p, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for k := range c.Meta.Wavelengths {
				if back.Meta.Wavelengths[k] != c.Meta.Wavelengths[k] || back.Meta.FWHM[k] != c.Meta.FWHM[k] ||
					back.Meta.BadBands[k] != c.Meta.BadBands[k] || back.Meta.WavelengthUnits != units {
					t.Errorf("%s: read back %+v", name, back.Meta)
					break
				}
			}
		}
	}
}

// TestBandMetadataFromGDAL reads GeoTIFFs that GDAL wrote
// (scripts/goldens/bandmeta.py) with EnMAP-Box's per-band items
// (wavelength, wavelength_units, fwhm, bbl in the default domain) and with
// only the IMAGERY domain's CENTRAL_WAVELENGTH_UM / FWHM_UM.
func TestBandMetadataFromGDAL(t *testing.T) {
	for _, tc := range []struct {
		file  string
		wl    []float64
		fwhm  []float64
		units string
		bad   []bool
	}{
		{"enmapbox.tif", []float64{0.4605, 0.5532, 1.3401, 2.4453}, []float64{0.0061, 0.0072, 0.0098, 0.0085}, "Micrometers", []bool{false, false, true, false}},
		{"imagery.tif", []float64{0.443, 0.49, 2.19}, []float64{0.027, 0.098, 0.242}, "Micrometers", nil},
	} {
		c, _, err := Read(filepath.Join("testdata", "bandmeta", tc.file), hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m := c.Meta
		if len(m.Wavelengths) != len(tc.wl) || len(m.FWHM) != len(tc.fwhm) || m.WavelengthUnits != tc.units || len(m.BadBands) != len(tc.bad) {
			t.Fatalf("%s: %+v", tc.file, m)
		}
		for k := range tc.wl {
			if m.Wavelengths[k] != tc.wl[k] || m.FWHM[k] != tc.fwhm[k] || (tc.bad != nil && m.BadBands[k] != tc.bad[k]) {
				t.Fatalf("%s: wavelengths %v fwhm %v bad %v", tc.file, m.Wavelengths, m.FWHM, m.BadBands)
			}
		}
	}
}
