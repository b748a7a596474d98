package formats

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/crs"
)

// georefGoldens is testdata/georef/goldens.json, written by
// scripts/goldens/georef.py: what GDAL reads from each input and from this
// package's ENVI and TIFF outputs of it (converted, and upscaled x2).
type georefGoldens struct {
	GDALVersion string `json:"gdal_version"`
	Cases       []struct {
		Input   string   `json:"input"`
		GDAL    gdalView `json:"gdal"`
		Outputs []struct {
			Op       string   `json:"op"`
			Format   string   `json:"format"`
			Factor   int      `json:"factor"`
			Warnings string   `json:"warnings"`
			GDAL     gdalView `json:"gdal"`
		} `json:"outputs"`
	} `json:"cases"`
}

type gdalView struct {
	GeoTransform []float64            `json:"geotransform"`
	Corners      map[string][]float64 `json:"corners"`
	Size         []int                `json:"size"`
	WKT          string               `json:"wkt"`
	EPSG         int                  `json:"epsg"`
	Scale        []*float64           `json:"scale"`
	BBL          *string              `json:"bbl"`
	IsSame       *bool                `json:"is_same_crs_as_input"`
	IsSameGDAL   *bool                `json:"is_same_crs_as_gdal_envi"`
	GDALENVISame *bool                `json:"gdal_envi_is_same"`
	ESRIWKT      string               `json:"esri_wkt"`
	SpyScale     *float64             `json:"spy_scale_factor"`
}

func loadGeorefGoldens(t *testing.T) georefGoldens {
	t.Helper()
	b, err := os.ReadFile("testdata/georef/goldens.json")
	if err != nil {
		t.Fatal(err)
	}
	var g georefGoldens
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) == 0 {
		t.Fatal("no cases in goldens.json")
	}
	return g
}

func closeGT(a [6]float64, b []float64) bool {
	if len(b) != 6 {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// checkGeo compares the georeferencing this package reads from c with
// what GDAL read from the same file.
func checkGeo(t *testing.T, name string, c *hsi.Cube, want gdalView) {
	t.Helper()
	gt, ok := c.Meta.Geo.Transform()
	if !ok || !closeGT(gt, want.GeoTransform) {
		t.Errorf("%s: geotransform %v (ok %v), GDAL reads %v", name, gt, ok, want.GeoTransform)
	}
	corners := map[string][2]float64{"upper_left": {0, 0}, "upper_right": {float64(c.W), 0},
		"lower_left": {0, float64(c.H)}, "lower_right": {float64(c.W), float64(c.H)}}
	for k, cr := range corners {
		x, y := gt[0]+cr[0]*gt[1]+cr[1]*gt[2], gt[3]+cr[0]*gt[4]+cr[1]*gt[5]
		w := want.Corners[k]
		if len(w) != 2 || math.Abs(x-w[0]) > 1e-6*math.Max(1, math.Abs(w[0])) || math.Abs(y-w[1]) > 1e-6*math.Max(1, math.Abs(w[1])) {
			t.Errorf("%s: %s corner (%v, %v), GDAL reads %v", name, k, x, y, w)
		}
	}
	cs, note := c.Meta.Geo.CRS()
	if note != "" {
		t.Errorf("%s: CRS note %q", name, note)
	}
	if cs.EPSG != want.EPSG {
		t.Errorf("%s: EPSG %d, GDAL identifies %d", name, cs.EPSG, want.EPSG)
	}
	if cs.EPSG == 0 && cs.WKT == "" {
		t.Errorf("%s: no CRS, GDAL reads %.80s...", name, want.WKT)
	}
	for b, s := range want.Scale {
		got, _, ok := c.Meta.PhysicalScale(b)
		if s != nil && (!ok || math.Abs(got-*s) > 1e-15) {
			t.Errorf("%s: band %d scale %v (ok %v), GDAL reads %v", name, b, got, ok, *s)
		}
	}
	if want.BBL != nil {
		var parts []string
		for _, bad := range c.Meta.BadBands {
			parts = append(parts, map[bool]string{true: "0", false: "1"}[bad])
		}
		if got := "{" + strings.Join(parts, ", ") + "}"; got != *want.BBL {
			t.Errorf("%s: bbl %s, GDAL reads %s", name, got, *want.BBL)
		}
	}
}

// TestGeorefGoldens reads each GDAL-made input, writes it as ENVI and TIFF
// (as it is, and on a grid twice as fine), and checks the geotransform,
// corners, CRS, band scale and bad band list against what GDAL read from
// the input and from the outputs the golden script made.
func TestGeorefGoldens(t *testing.T) {
	g := loadGeorefGoldens(t)
	dir := t.TempDir()
	for _, tc := range g.Cases {
		in, _, err := Read(filepath.Join("testdata/georef", tc.Input), hsi.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.Input, err)
		}
		checkGeo(t, tc.Input, in, tc.GDAL)
		inCRS, _ := in.Meta.Geo.CRS()
		for _, o := range tc.Outputs {
			lost := o.Warnings != ""
			// Where GDAL does not read its own ENVI copy of the input as
			// the same CRS, the output is to be the same as that copy.
			same := o.GDAL.IsSame != nil && *o.GDAL.IsSame
			asGDAL := !same && o.GDAL.IsSameGDAL != nil && *o.GDAL.IsSameGDAL
			if !lost && !same && !asGDAL {
				t.Errorf("%s %s %s: GDAL found the output's CRS different from the input's", tc.Input, o.Op, o.Format)
			}
			c := in
			if o.Factor != 1 {
				meta, err := in.Meta.Resized(in.H, in.W, in.H*o.Factor, in.W*o.Factor)
				if err != nil {
					t.Fatal(err)
				}
				c = hsi.MustNew(in.H*o.Factor, in.W*o.Factor, in.B)
				c.Meta = meta
			}
			ext := map[string]string{"ENVI": ".img", "TIFF": ".tif"}[o.Format]
			path := filepath.Join(dir, strings.TrimSuffix(tc.Input, filepath.Ext(tc.Input))+"_"+o.Op+ext)
			if err := Write(path, c, hsi.WriteOptions{}); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			d := Dropped(path, &c.Meta)
			if (len(d) > 0) != lost {
				t.Errorf("%s: dropped %q, golden warnings %q", path, d, o.Warnings)
			}
			for _, w := range d {
				if !strings.Contains(o.Warnings, w) {
					t.Errorf("%s: dropped %q; the golden warnings %q do not say it", path, w, o.Warnings)
				}
			}
			out, _, err := Read(path, hsi.ReadOptions{})
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			name := tc.Input + " " + o.Op + " " + o.Format
			if lost {
				if gt, ok := out.Meta.Geo.Transform(); !ok || !closeGT(gt, o.GDAL.GeoTransform) {
					t.Errorf("%s: geotransform %v, GDAL reads %v", name, gt, o.GDAL.GeoTransform)
				}
				continue
			}
			want := o.GDAL
			if asGDAL {
				want.EPSG = tc.GDAL.EPSG // GDAL's code for its own copy may differ; the input's is kept
			}
			checkGeo(t, name, out, want)
			if s := o.GDAL.SpyScale; s != nil {
				got := out.Meta.ReflectanceScale
				if got == 0 {
					got = 1 // SPy's default
				}
				if got != *s {
					t.Errorf("%s: reflectance scale factor %v, SPy read %v", name, got, *s)
				}
			}
			if outCRS, _ := out.Meta.Geo.CRS(); !crs.Equivalent(outCRS, inCRS) {
				t.Errorf("%s: CRS %+v, input %+v", name, outCRS, inCRS)
			}
		}
	}
}

// TestGeorefESRIWKT compares the CRS this package reads from each golden
// input (EPSG codes through the table, user-defined GeoTIFF keys through
// their projection, datum, ellipsoid and prime meridian) with the ESRI WKT
// GDAL makes of the CRS it reads from the same file: the same elements,
// names and units, and numbers equal to 1e-9 relative.
func TestGeorefESRIWKT(t *testing.T) {
	g := loadGeorefGoldens(t)
	n := 0
	for _, tc := range g.Cases {
		if tc.GDAL.ESRIWKT == "" {
			t.Errorf("%s: no ESRI WKT in the goldens", tc.Input)
			continue
		}
		in, _, err := Read(filepath.Join("testdata/georef", tc.Input), hsi.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.Input, err)
		}
		c, note := in.Meta.Geo.CRS()
		if note != "" || c.WKT == "" {
			t.Errorf("%s: no WKT (%s)", tc.Input, note)
			continue
		}
		got, err := crs.Parse(c.WKT)
		if err != nil {
			t.Fatalf("%s: %v", tc.Input, err)
		}
		want, err := crs.Parse(tc.GDAL.ESRIWKT)
		if err != nil {
			t.Fatalf("%s: GDAL's: %v", tc.Input, err)
		}
		if d := wktDiff(got, want); d != "" {
			t.Errorf("%s: %s\n got  %s\n GDAL %s", tc.Input, d, c.WKT, tc.GDAL.ESRIWKT)
		}
		n++
	}
	if n < 50 {
		t.Errorf("%d inputs compared", n)
	}
}

// wktDiff describes the first difference between two WKT trees ("" if
// none): keywords, quoted names and tokens must be equal, numbers equal to
// 1e-9 relative.
func wktDiff(a, b *crs.Node) string {
	if a.Key != b.Key || len(a.Args) != len(b.Args) {
		return fmt.Sprintf("%s with %d arguments, GDAL %s with %d", a.Key, len(a.Args), b.Key, len(b.Args))
	}
	for i := range a.Args {
		x, y := a.Args[i], b.Args[i]
		switch {
		case x.Node != nil && y.Node != nil:
			if d := wktDiff(x.Node, y.Node); d != "" {
				return a.Key + "[" + a.Name() + "] > " + d
			}
		case x.Node != nil || y.Node != nil || x.Quoted != y.Quoted:
			return fmt.Sprintf("%s[%s]: argument %d differs in kind", a.Key, a.Name(), i)
		case x.Quoted:
			// GDAL names a CRS read from an ENVI map info without a
			// coordinate system string "unnamed".
			if x.Text != y.Text && !(i == 0 && y.Text == "unnamed") {
				return fmt.Sprintf("%s: name %q, GDAL %q", a.Key, x.Text, y.Text)
			}
		default:
			u, err1 := strconv.ParseFloat(x.Text, 64)
			v, err2 := strconv.ParseFloat(y.Text, 64)
			if err1 != nil || err2 != nil {
				if x.Text != y.Text {
					return fmt.Sprintf("%s[%s]: %s, GDAL %s", a.Key, a.Name(), x.Text, y.Text)
				}
				continue
			}
			if math.Abs(u-v) > 1e-9*math.Max(1, math.Abs(v)) {
				return fmt.Sprintf("%s[%s]: %s, GDAL %s", a.Key, a.Name(), x.Text, y.Text)
			}
		}
	}
	return ""
}
