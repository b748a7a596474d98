package products

import (
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
