package formats

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// TestProducts reads each mission product's miniature through the format
// registry (scripts/miniatures/*.py write them and the goldens: GDAL's
// geotransform for the TIF and ENVI inputs, emit_tools' and prismaread's
// conventions for EMIT and PRISMA), then writes it as GeoTIFF and ENVI and
// reads it back: the band metadata, no-data and georeferencing survive.
func TestProducts(t *testing.T) {
	dir := filepath.Join("..", "products", "testdata")
	golden := func(name string) (g struct {
		GT   []float64 `json:"geotransform"`
		EPSG int       `json:"epsg"`
	}) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &g); err != nil {
			t.Fatal(err)
		}
		return g
	}
	emit, prisma, enmap, aviris := golden("emit_golden.json"), golden("prisma_golden.json"), golden("enmap_golden.json"), golden("aviris_golden.json")
	for _, tc := range []struct {
		name, file, product string
		opt                 hsi.ReadOptions
		h, w, b, bad        int
		nodata              float64
		gt                  []float64
		epsg                int
	}{
		{"EMIT swath", "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc", "EMIT L2A", hsi.ReadOptions{}, 4, 3, 7, 2, -9999, nil, 0},
		{"EMIT ortho", "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc", "EMIT L2A", hsi.ReadOptions{Ortho: true}, 6, 5, 7, 2, -9999, emit.GT, 4326},
		{"EMIT uncertainty swath", "EMIT_L2A_RFLUNCERT_001_20230801T101112_2321307_002.nc", "EMIT L2A Estimated Surface Reflectance Uncertainty", hsi.ReadOptions{}, 4, 3, 7, 2, -9999, nil, 0},
		{"EMIT uncertainty ortho", "EMIT_L2A_RFLUNCERT_001_20230801T101112_2321307_002.nc", "EMIT L2A Estimated Surface Reflectance Uncertainty", hsi.ReadOptions{Ortho: true}, 6, 5, 7, 2, -9999, emit.GT, 4326},
		{"PRISMA L2D", "PRS_L2D_STD_20210615102030_20210615102034_0001.he5", "PRISMA L2D", hsi.ReadOptions{}, 4, 5, 9, 0, -9999, prisma.GT, prisma.EPSG},
		{"EnMAP TIF", "ENMAP01-____L2A-DT0000004950_20221103T102316Z_001_V010303_20221104T083010Z-SPECTRAL_IMAGE.TIF", "EnMAP L2A", hsi.ReadOptions{}, 4, 5, 6, 1, -32768, enmap.GT, enmap.EPSG},
		{"EnMAP XML", "ENMAP01-____L2A-DT0000004950_20221103T102316Z_001_V010303_20221104T083010Z-METADATA.XML", "EnMAP L2A", hsi.ReadOptions{}, 4, 5, 6, 1, -32768, enmap.GT, enmap.EPSG},
		{"AVIRIS-NG", "ang20200712t182253_corr_v2y1_img", "", hsi.ReadOptions{}, 3, 4, 6, 2, -9999, aviris.GT, aviris.EPSG},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, info, err := Read(filepath.Join(dir, tc.file), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, c *hsi.Cube) {
				t.Helper()
				if c.H != tc.h || c.W != tc.w || c.B != tc.b {
					t.Fatalf("%s: shape %dx%dx%d, want %dx%dx%d", what, c.H, c.W, c.B, tc.h, tc.w, tc.b)
				}
				m := c.Meta
				nbad := 0
				for _, v := range m.BadBands {
					if v {
						nbad++
					}
				}
				if len(m.Wavelengths) != tc.b || len(m.FWHM) != tc.b || nbad != tc.bad || !m.HasDataIgnore || m.DataIgnore != tc.nodata {
					t.Errorf("%s: %d wavelengths, %d fwhm, %d bad bands, no-data %v %v; want %d, %d, %d, %v",
						what, len(m.Wavelengths), len(m.FWHM), nbad, m.HasDataIgnore, m.DataIgnore, tc.b, tc.b, tc.bad, tc.nodata)
				}
				gt, ok := m.Geo.Transform()
				if tc.gt == nil {
					if ok {
						t.Errorf("%s: georeferenced %v, want none", what, gt)
					}
					return
				}
				for i := range gt {
					if !ok || math.Abs(gt[i]-tc.gt[i]) > 1e-6*math.Max(1, math.Abs(tc.gt[i])) {
						t.Fatalf("%s: geotransform %v (%v), want %v", what, gt, ok, tc.gt)
					}
				}
				if cr, _ := m.Geo.CRS(); cr.EPSG != tc.epsg {
					t.Errorf("%s: CRS %+v, want EPSG:%d", what, cr, tc.epsg)
				}
			}
			check("read", c)
			if !strings.HasPrefix(info.Product, tc.product) {
				t.Errorf("product %q, want %q...", info.Product, tc.product)
			}
			for _, ext := range []string{".tif", ".hdr"} {
				out := filepath.Join(t.TempDir(), "out"+ext)
				if err := Write(out, c, hsi.WriteOptions{}); err != nil {
					t.Fatal(err)
				}
				back, _, err := Read(out, hsi.ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				check("written as "+ext, back)
			}
		})
	}
}
