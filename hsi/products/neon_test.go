package products

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

type neonGolden struct {
	File        string        `json:"file"`
	Cube        [][][]float64 `json:"cube"`
	Wavelengths []float64     `json:"wavelengths"`
	FWHM        []float64     `json:"fwhm"`
	Bad         []bool        `json:"bad"`
	GT          []float64     `json:"geotransform"`
	EPSG        int           `json:"epsg"`
	Scale       float64       `json:"scale_factor"`
	NoData      float64       `json:"no_data"`
}

// TestNEON reads the miniature NEON AOP tile (fixed-length strings, a
// chunked gzip cube, bad-band windows) and flight line (variable-length
// strings, contiguous, no windows) written by scripts/miniatures/neon_aop.py.
func TestNEON(t *testing.T) {
	var g map[string]neonGolden
	loadJSON(t, "neon_golden.json", &g)
	for _, tc := range []struct {
		name, product string
		nbad          int
	}{
		{"tile", "NEON AOP reflectance, site SJER, DP3 mosaic tile", 5},
		{"line", "NEON AOP reflectance, site SJER, DP1 flight line", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := g[tc.name]
			path := filepath.Join("testdata", w.File)
			for _, opt := range []hsi.ReadOptions{{}, {Var: "/SJER/Reflectance/Reflectance_Data"}} {
				c, info, err := ReadHDF5(path, opt)
				if err != nil {
					t.Fatal(err)
				}
				sameCube(t, c, w.Cube)
				m := c.Meta
				for i := range w.Wavelengths {
					if m.Wavelengths[i] != w.Wavelengths[i] || m.FWHM[i] != w.FWHM[i] {
						t.Fatalf("wavelengths %v fwhm %v, want %v %v", m.Wavelengths, m.FWHM, w.Wavelengths, w.FWHM)
					}
				}
				if m.WavelengthUnits != "Nanometers" {
					t.Errorf("units %q", m.WavelengthUnits)
				}
				nbad := 0
				for b, bad := range w.Bad {
					if bad {
						nbad++
					}
					if (len(m.BadBands) > 0 && m.BadBands[b]) != bad {
						t.Errorf("bad bands %v, want %v", m.BadBands, w.Bad)
						break
					}
				}
				if nbad != tc.nbad {
					t.Errorf("golden has %d bad bands, want %d", nbad, tc.nbad)
				}
				if !m.HasDataIgnore || m.DataIgnore != w.NoData || m.ReflectanceScale != w.Scale {
					t.Errorf("no-data %v %v, scale %v; want %v, %v", m.HasDataIgnore, m.DataIgnore, m.ReflectanceScale, w.NoData, w.Scale)
				}
				gt, ok := m.Geo.Transform()
				if !ok || gt != [6]float64(w.GT) {
					t.Errorf("geotransform %v, want the tutorials' %v", gt, w.GT)
				}
				if cr, _ := m.Geo.CRS(); cr.EPSG != w.EPSG {
					t.Errorf("CRS %+v, want EPSG:%d", cr, w.EPSG)
				}
				if info.Product != tc.product || !strings.Contains(info.Detail, "EPSG:32611") {
					t.Errorf("product %q, detail %q", info.Product, info.Detail)
				}
			}
		})
	}
	if _, _, err := ReadHDF5(filepath.Join("testdata", g["tile"].File), hsi.ReadOptions{Ortho: true}); err == nil || !strings.Contains(err.Error(), "already map-projected") {
		t.Errorf("-ortho: %v", err)
	}
}

func TestNEONDamaged(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"neon_bad_epsg.h5", `EPSG Code "UTM11N" is not an EPSG code`},
		{"neon_short_wl.h5", "holds 13 wavelengths for the 14 bands"},
		{"neon_bad_map_info.h5", "Map_Info: map info field 6 (pixel size x) is 0"},
	} {
		path := filepath.Join("testdata", tc.file)
		if _, _, err := ReadHDF5(path, hsi.ReadOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want %q", tc.file, err, tc.want)
		}
	}
}
