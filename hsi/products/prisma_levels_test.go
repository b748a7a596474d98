package products

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// PRISMA L2C (a swath, PRS_L2C_HCO) reads like L2D without georeferencing,
// and "Data_Fields" (SNAP's spelling) like "Data Fields"
// (scripts/miniatures/prisma_levels.py).
func TestPRISMALevels(t *testing.T) {
	var g prismaGolden
	loadJSON(t, "prisma_golden.json", &g)
	for _, tc := range []struct {
		file, product string
		geo           bool
	}{
		{"prisma_l2c.he5", "PRISMA L2C", false},
		{"prisma_data_underscore.he5", "PRISMA L2D", true},
	} {
		c, info, err := ReadHDF5(filepath.Join("testdata", tc.file), hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sameCube(t, c, g.Cube)
		if !strings.HasPrefix(info.Product, tc.product) {
			t.Errorf("%s: product %q", tc.file, info.Product)
		}
		gt, ok := c.Meta.Geo.Transform()
		if ok != tc.geo || (ok && gt != [6]float64(g.GT)) {
			t.Errorf("%s: georeferenced %v %v, want %v", tc.file, ok, gt, tc.geo)
		}
	}
}

// PRISMA L1 reads the radiance of its co-registered cubes (PRS_L1_HCO, not
// PRS_L1_HRC), DN / ScaleFactor - Offset per spectrometer, placeholders
// dropped and bands sorted by wavelength, as a swath; against h5py
// (scripts/miniatures/prisma_l1.py, written from SNAP's expected content of
// a real L1 product). Without its scale attributes it names them.
func TestPRISMAL1(t *testing.T) {
	var g prismaGolden
	loadJSON(t, "prisma_l1_golden.json", &g)
	path := filepath.Join("testdata", g.File)
	c, info, err := ReadHDF5(path, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sameCube(t, c, g.Cube)
	for i := range g.Wavelengths {
		if c.Meta.Wavelengths[i] != g.Wavelengths[i] || c.Meta.FWHM[i] != g.FWHM[i] {
			t.Fatalf("wavelengths %v fwhm %v, want %v %v", c.Meta.Wavelengths, c.Meta.FWHM, g.Wavelengths, g.FWHM)
		}
	}
	if !c.Meta.HasDataIgnore || c.Meta.DataIgnore != -9999 {
		t.Errorf("no-data %v", c.Meta.DataIgnore)
	}
	if info.Product != "PRISMA L1, acquired 2024-04-02T10:28:37.932000" || !strings.Contains(info.Detail, "radiance") || !strings.Contains(info.Detail, "not georeferenced") {
		t.Errorf("product %q, detail %q", info.Product, info.Detail)
	}
	if _, ok := c.Meta.Geo.Transform(); ok {
		t.Error("an L1 swath georeferenced")
	}
	// The rows are served from the cube read whole.
	if r, err := OpenRows(path, hsi.ReadOptions{}); err != nil {
		t.Errorf("OpenRows: %v", err)
	} else {
		if st, ok := r.(interface{ Streams() bool }); !ok || st.Streams() {
			t.Error("OpenRows streams a PRISMA product")
		}
		r.Close()
	}
	// Without ScaleFactor_Swir: an error naming the file and the attribute.
	dir := t.TempDir()
	bad := filepath.Join(dir, g.File)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte("ScaleFactor_Swir"))
	if i < 0 {
		t.Fatal("no ScaleFactor_Swir in the miniature")
	}
	copy(b[i:], "ScaleFactor_Sxir")
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadHDF5(bad, hsi.ReadOptions{}); err == nil || !strings.Contains(err.Error(), "ScaleFactor_Swir") || !strings.Contains(err.Error(), bad) {
		t.Errorf("without ScaleFactor_Swir: %v", err)
	}
}
