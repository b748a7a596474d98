package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// A NEON AOP tile (the miniature of scripts/miniatures/neon_aop.py) keeps
// its CRS, geotransform (pixels halved at x2), reflectance scale factor,
// no-data value, wavelengths and bad-band windows through upscale to
// GeoTIFF and ENVI.
func TestUpscaleNEON(t *testing.T) {
	dir := filepath.Join("..", "..", "hsi", "products", "testdata")
	b, err := os.ReadFile(filepath.Join(dir, "neon_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g map[string]struct {
		File        string    `json:"file"`
		Wavelengths []float64 `json:"wavelengths"`
		Bad         []bool    `json:"bad"`
		GT          []float64 `json:"geotransform"`
		EPSG        int       `json:"epsg"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, g["tile"].File)
	code, out, errs := runCmd(t, "info", in)
	if code != 0 || !strings.Contains(out, "NEON AOP reflectance, site SJER, DP3 mosaic tile") || !strings.Contains(out, "1340-1445 nm (3 bands)") {
		t.Fatalf("info: exit %d\n%s%s", code, out, errs)
	}
	tmp := t.TempDir()
	for _, name := range []string{"sr.tif", "sr.hdr"} {
		dst := filepath.Join(tmp, name)
		if code, _, errs := runCmd(t, "upscale", "-in", in, "-out", dst, "-scale", "2"); code != 0 {
			t.Fatalf("upscale to %s: exit %d: %s", name, code, errs)
		}
		c, _, err := formats.Read(dst, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m := c.Meta
		if c.H != 12 || c.W != 10 || c.B != len(g["tile"].Wavelengths) {
			t.Fatalf("%s: %dx%dx%d", name, c.H, c.W, c.B)
		}
		for i, w := range g["tile"].Wavelengths {
			if m.Wavelengths[i] != w || m.BadBands[i] != g["tile"].Bad[i] {
				t.Fatalf("%s: wavelengths %v bad %v", name, m.Wavelengths, m.BadBands)
			}
		}
		if !m.HasDataIgnore || m.DataIgnore != -9999 {
			t.Errorf("%s: no-data %v %v", name, m.HasDataIgnore, m.DataIgnore)
		}
		if s, _, ok := m.PhysicalScale(0); !ok || math.Abs(s-1e-4) > 1e-12 {
			t.Errorf("%s: scale %v %v, want 1/10000", name, s, ok)
		}
		gt, ok := m.Geo.Transform()
		want := slices.Clone(g["tile"].GT)
		want[1], want[5] = want[1]/2, want[5]/2
		if !ok || gt != [6]float64(want) {
			t.Errorf("%s: geotransform %v, want %v", name, gt, want)
		}
		if cr, _ := m.Geo.CRS(); cr.EPSG != g["tile"].EPSG {
			t.Errorf("%s: CRS %+v, want EPSG:%d", name, cr, g["tile"].EPSG)
		}
	}
}
