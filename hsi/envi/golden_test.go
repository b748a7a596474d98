package envi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

type goldenImage struct {
	File       string         `json:"file"`
	Writer     string         `json:"writer"`
	Shape      [3]int         `json:"shape"`
	DType      string         `json:"dtype"`
	Interleave string         `json:"interleave"`
	ByteOrder  int            `json:"byteorder"`
	Values     string         `json:"values"`
	Meta       map[string]any `json:"meta"`
}

type goldenFile struct {
	Values map[string][]json.Number `json:"values"`
	Images []goldenImage            `json:"images"`
}

func loadGolden(t testing.TB) goldenFile {
	t.Helper()
	f, err := os.Open("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.UseNumber()
	var g goldenFile
	if err := dec.Decode(&g); err != nil {
		t.Fatal(err)
	}
	return g
}

// exact converts a golden number to the float32 the cube must hold: the
// integer itself rounded once to float32, or the float rounded to float32.
func exact(t testing.TB, n json.Number, dtype string) float32 {
	s := n.String()
	if strings.HasPrefix(dtype, "float") {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return float32(v)
	}
	if strings.HasPrefix(dtype, "uint") {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return float32(v)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return float32(v)
}

func listOf(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(p))
	}
	return out
}

// TestGoldens reads every image written by spectral, gdal_translate and by
// hand (testdata/gen_golden.py) and compares values and metadata exactly.
func TestGoldens(t *testing.T) {
	g := loadGolden(t)
	if len(g.Images) < 60 {
		t.Fatalf("golden.json lists %d images, want at least 60", len(g.Images))
	}
	for _, im := range g.Images {
		t.Run(strings.TrimSuffix(im.File, filepath.Ext(im.File)), func(t *testing.T) {
			c, info, err := Read(filepath.Join("testdata", im.File), hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c.H != im.Shape[0] || c.W != im.Shape[1] || c.B != im.Shape[2] {
				t.Fatalf("shape %dx%dx%d, want %v", c.H, c.W, c.B, im.Shape)
			}
			if info.DataType != im.DType || info.Layout != im.Interleave || info.Format != "ENVI" {
				t.Errorf("info %+v, want %s %s", info, im.DType, im.Interleave)
			}
			vals := g.Values[im.Values]
			if len(vals) != len(c.Data) {
				t.Fatalf("%d golden values for %d cube values", len(vals), len(c.Data))
			}
			for i, n := range vals {
				if want := exact(t, n, im.DType); c.Data[i] != want {
					p := i / c.B
					t.Fatalf("value at row %d col %d band %d = %v, want %v (%s)", p/c.W, p%c.W, i%c.B, c.Data[i], want, n)
				}
			}
			checkMeta(t, c.Meta, im.Meta)
		})
	}
}

func checkMeta(t *testing.T, m hsi.Meta, want map[string]any) {
	t.Helper()
	floats := func(v any) []float64 {
		var out []float64
		for _, x := range v.([]any) {
			f, _ := x.(json.Number).Float64()
			out = append(out, f)
		}
		return out
	}
	for k, v := range want {
		switch k {
		case "wavelength":
			if w := floats(v); !equalF(m.Wavelengths, w) {
				t.Errorf("wavelengths %v, want %v", m.Wavelengths, w)
			}
		case "fwhm":
			if w := floats(v); !equalF(m.FWHM, w) {
				t.Errorf("fwhm %v, want %v", m.FWHM, w)
			}
		case "wavelength units":
			if m.WavelengthUnits != v.(string) {
				t.Errorf("units %q, want %q", m.WavelengthUnits, v)
			}
		case "bad":
			var w []bool
			for _, x := range v.([]any) {
				w = append(w, x.(bool))
			}
			if len(w) != len(m.BadBands) {
				t.Fatalf("bad bands %v, want %v", m.BadBands, w)
			}
			for i := range w {
				if w[i] != m.BadBands[i] {
					t.Errorf("bad bands %v, want %v", m.BadBands, w)
				}
			}
		case "band names":
			var w []string
			for _, x := range v.([]any) {
				w = append(w, x.(string))
			}
			if strings.Join(w, "|") != strings.Join(m.BandNames, "|") {
				t.Errorf("band names %q, want %q", m.BandNames, w)
			}
		case "data ignore value":
			f, _ := v.(json.Number).Float64()
			if !m.HasDataIgnore || m.DataIgnore != f {
				t.Errorf("data ignore %v (%v), want %v", m.DataIgnore, m.HasDataIgnore, f)
			}
		case "description":
			if m.Description != v.(string) {
				t.Errorf("description %q, want %q", m.Description, v)
			}
		case "map info":
			if m.Geo == nil || strings.Join(listOf(m.Geo.MapInfo), ",") != strings.Join(listOf(v.(string)), ",") {
				t.Errorf("map info %+v, want %q", m.Geo, v)
			}
		case "coordinate system string":
			if m.Geo == nil || m.Geo.CoordSys != v.(string) {
				t.Errorf("coordinate system %+v, want %q", m.Geo, v)
			}
		default:
			t.Fatalf("golden meta key %q not checked", k)
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

// TestGoldenByDataPath opens images by their data file, not the header.
func TestGoldenByDataPath(t *testing.T) {
	a, _, err := Read("testdata/spectral_int16_bil_1.hdr", hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Read("testdata/spectral_int16_bil_1.img", hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			t.Fatal("reading by header and by data file differ")
		}
	}
	if _, _, err := Read("testdata/handmade_offset.dat", hsi.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
}
