package products

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// The miniatures and their goldens are written by
// scripts/miniatures/*.py (see each script for the sources of its structure).

type emitGolden struct {
	File        string        `json:"file"`
	Swath       [][][]float64 `json:"swath"`
	Ortho       [][][]float64 `json:"ortho"`
	Wavelengths []float64     `json:"wavelengths"`
	FWHM        []float64     `json:"fwhm"`
	Good        []int         `json:"good_wavelengths"`
	GT          []float64     `json:"geotransform"`
	Fill        float64       `json:"fill"`
}

func loadJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// sameCube compares a cube with an (H, W, B) golden, value for value.
func sameCube(t *testing.T, c *hsi.Cube, want [][][]float64) {
	t.Helper()
	if c.H != len(want) || c.W != len(want[0]) || c.B != len(want[0][0]) {
		t.Fatalf("shape %dx%dx%d, want %dx%dx%d", c.H, c.W, c.B, len(want), len(want[0]), len(want[0][0]))
	}
	for y := range want {
		for x := range want[y] {
			for b, v := range want[y][x] {
				if got := c.At(y, x, b); got != float32(v) {
					t.Fatalf("(%d, %d, %d) = %v, want %v", y, x, b, got, v)
				}
			}
		}
	}
}

func TestEMIT(t *testing.T) {
	var g emitGolden
	loadJSON(t, "emit_golden.json", &g)
	path := filepath.Join("testdata", g.File)
	for _, tc := range []struct {
		name  string
		opt   hsi.ReadOptions
		want  [][][]float64
		ortho bool
	}{
		{"swath", hsi.ReadOptions{}, g.Swath, false},
		{"swath by -var", hsi.ReadOptions{Var: "/reflectance"}, g.Swath, false},
		{"ortho", hsi.ReadOptions{Ortho: true}, g.Ortho, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, info, err := ReadHDF5(path, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			sameCube(t, c, tc.want)
			m := c.Meta
			if !m.HasDataIgnore || m.DataIgnore != g.Fill {
				t.Errorf("no-data %v %v, want %v", m.HasDataIgnore, m.DataIgnore, g.Fill)
			}
			for b := range g.Wavelengths {
				if float32(m.Wavelengths[b]) != float32(g.Wavelengths[b]) || float32(m.FWHM[b]) != float32(g.FWHM[b]) {
					t.Fatalf("band %d: wavelength %v fwhm %v, want %v %v", b, m.Wavelengths[b], m.FWHM[b], g.Wavelengths[b], g.FWHM[b])
				}
				if m.BadBands[b] != (g.Good[b] == 0) {
					t.Fatalf("band %d: bad %v, good_wavelengths %d", b, m.BadBands[b], g.Good[b])
				}
			}
			if m.WavelengthUnits != "Nanometers" {
				t.Errorf("units %q", m.WavelengthUnits)
			}
			if !strings.Contains(info.Product, "EMIT L2A") || !strings.Contains(info.Product, "2023-08-01T10:11:12") || !strings.Contains(info.Product, "ISS") {
				t.Errorf("product %q", info.Product)
			}
			if info.Layout != "HWB" || info.Variable != "/reflectance" {
				t.Errorf("layout %q variable %q", info.Layout, info.Variable)
			}
			if !tc.ortho {
				if m.Geo != nil {
					t.Errorf("swath has georeferencing %+v", m.Geo)
				}
				return
			}
			gt, ok := m.Geo.Transform()
			if !ok {
				t.Fatal("ortho cube has no geotransform")
			}
			for i := range gt {
				if math.Abs(gt[i]-g.GT[i]) > 1e-12 {
					t.Fatalf("geotransform %v, want %v", gt, g.GT)
				}
			}
			if cr, note := m.Geo.CRS(); cr.EPSG != 4326 || note != "" {
				t.Errorf("CRS %+v %q, want EPSG:4326", cr, note)
			}
		})
	}
}
