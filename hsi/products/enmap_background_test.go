package products

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// An EnMAP METADATA.XML that states specific/backgroundValue (0 in the real
// pre-launch XML) makes the samples at that DN no-data, with the GeoTIFF's
// nodata tag (-32768) and without one; against the values GDAL reads times
// gain plus offset (scripts/miniatures/enmap_l2a.py).
func TestEnMAPBackground(t *testing.T) {
	var g map[string]struct {
		Cube [][][]float64 `json:"cube"`
		Bad  []bool        `json:"bad"`
	}
	loadJSON(t, "enmap_background_golden.json", &g)
	var eg enmapGolden
	loadJSON(t, "enmap_golden.json", &eg)
	for _, dir := range []string{"enmap_background", "enmap_background_notag"} {
		t.Run(dir, func(t *testing.T) {
			want, ok := g[dir]
			if !ok {
				t.Fatal("no golden")
			}
			c, info, err := ReadProduct(filepath.Join("testdata", dir, eg.TIF), hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !c.Meta.HasDataIgnore || c.Meta.DataIgnore != -32768 {
				t.Fatalf("no-data %v %v, want -32768", c.Meta.HasDataIgnore, c.Meta.DataIgnore)
			}
			nd := 0
			for y, row := range want.Cube {
				for x, px := range row {
					for b, v := range px {
						got := c.At(y, x, b)
						if got != float32(v) {
							t.Fatalf("(%d, %d, %d): %v, want %v", y, x, b, got, v)
						}
						if v == -32768 {
							nd++
						}
					}
				}
			}
			if nd < c.W*c.B {
				t.Fatalf("%d no-data samples: the background edge is missing from the golden", nd)
			}
			for b, bad := range want.Bad {
				if c.Meta.BadBands[b] != bad {
					t.Errorf("band %d: bad %v, want %v", b+1, c.Meta.BadBands[b], bad)
				}
			}
			if !strings.Contains(info.Detail, "background value 0: no-data") {
				t.Errorf("detail %q", info.Detail)
			}
		})
	}
}
