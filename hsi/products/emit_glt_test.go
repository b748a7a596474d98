package products

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// EMIT's GLT fill value changed from 0 (V001) to -9999: both mark ortho
// cells without a swath pixel (scripts/miniatures/emit_glt_fill.py), and
// an entry that is neither a fill nor a swath index is an error naming the
// cell and the file.
func TestEMITGLTFill(t *testing.T) {
	var g emitGolden
	loadJSON(t, "emit_golden.json", &g)
	path := filepath.Join("testdata", "emit_glt_fill9999.nc")
	c, _, err := ReadHDF5(path, hsi.ReadOptions{Ortho: true})
	if err != nil {
		t.Fatal(err)
	}
	sameCube(t, c, g.Ortho)
	for b, good := range g.Good {
		if c.Meta.BadBands[b] != (good == 0) {
			t.Fatalf("bad bands %v, want good_wavelengths %v (stored as float32)", c.Meta.BadBands, g.Good)
		}
	}
	if gt, ok := c.Meta.Geo.Transform(); !ok || gt != [6]float64(g.GT) {
		t.Errorf("geotransform %v, want %v", gt, g.GT)
	}
	c, _, err = ReadHDF5(path, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sameCube(t, c, g.Swath)
	bad := filepath.Join("testdata", "emit_glt_negative.nc")
	_, _, err = ReadHDF5(bad, hsi.ReadOptions{Ortho: true})
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "GLT cell (3, 2) points at swath row 1, column -5, outside the 4 x 3 swath") {
		t.Errorf("a GLT entry of -5: %v", err)
	}
}
