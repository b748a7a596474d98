package formats

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/crs"
)

// geokeyGoldens is testdata/georef/geokeys.json, written by
// scripts/goldens/geokeys.py: for each golden input whose CRS has no EPSG
// code, the ESRI WKT GDAL makes of it, the GeoTIFF keys GDAL writes for
// that WKT, the keys this package wrote for it when the script ran, and
// what GDAL and libgeotiff's listgeo read from those.
type geokeyGoldens struct {
	Cases []struct {
		Input          string            `json:"input"`
		ESRIWKT        string            `json:"esri_wkt"`
		GDALKeys       []goldenKey       `json:"gdal_keys"`
		OmnihsrKeys    []goldenKey       `json:"omnihsr_keys"`
		SameAsWKT      bool              `json:"gdal_reads_omnihsr_same_as_wkt"`
		SameAsGDALTIFF bool              `json:"gdal_reads_omnihsr_same_as_gdal_geotiff"`
		GDALSameAsWKT  bool              `json:"gdal_geotiff_same_as_wkt"`
		Listgeo        map[string]string `json:"listgeo_omnihsr"`
	} `json:"cases"`
}

// goldenKey is one key as [id, location, value]: a short, a double or
// the text without its '|' terminator.
type goldenKey struct {
	ID, Location uint16
	Short        uint16
	Double       float64
	Text         string
}

func (k *goldenKey) UnmarshalJSON(b []byte) error {
	var v []json.RawMessage
	if err := json.Unmarshal(b, &v); err != nil || len(v) != 3 {
		return fmt.Errorf("key %s: %v", b, err)
	}
	if err := json.Unmarshal(v[0], &k.ID); err != nil {
		return err
	}
	if err := json.Unmarshal(v[1], &k.Location); err != nil {
		return err
	}
	switch k.Location {
	case 0:
		return json.Unmarshal(v[2], &k.Short)
	case 34736:
		return json.Unmarshal(v[2], &k.Double)
	case 34737:
		return json.Unmarshal(v[2], &k.Text)
	}
	return fmt.Errorf("key %d: location %d", k.ID, k.Location)
}

func (k goldenKey) String() string {
	switch k.Location {
	case 0:
		return fmt.Sprintf("%d=%d", k.ID, k.Short)
	case 34736:
		return fmt.Sprintf("%d=%v", k.ID, k.Double)
	}
	return fmt.Sprintf("%d=%q", k.ID, k.Text)
}

// directoryKeys lists a written key directory as goldenKeys.
func directoryKeys(t *testing.T, keys []uint16, doubles []float64, ascii string) []goldenKey {
	t.Helper()
	var out []goldenKey
	for _, e := range crs.Entries(keys) {
		k := goldenKey{ID: e.ID, Location: e.Location}
		switch e.Location {
		case 0:
			k.Short = e.Value
		case 34736:
			if int(e.Value) >= len(doubles) || e.Count != 1 {
				t.Fatalf("key %d: doubles %d+%d of %d", e.ID, e.Value, e.Count, len(doubles))
			}
			k.Double = doubles[e.Value]
		case 34737:
			s, ok := crs.ASCII(keys, ascii, e.ID)
			if !ok {
				t.Fatalf("key %d: text %d+%d of %q", e.ID, e.Value, e.Count, ascii)
			}
			k.Text = s
		default:
			t.Fatalf("key %d: location %d", e.ID, e.Location)
		}
		out = append(out, k)
	}
	return out
}

func sameKey(a, b goldenKey) bool {
	return a.ID == b.ID && a.Location == b.Location && a.Short == b.Short && a.Text == b.Text &&
		math.Abs(a.Double-b.Double) <= 1e-9*math.Max(1, math.Abs(b.Double))
}

// keyDiffs lists the keys where got and want differ, by key ID.
func keyDiffs(got, want []goldenKey) map[uint16]string {
	byID := func(ks []goldenKey) map[uint16]goldenKey {
		m := map[uint16]goldenKey{}
		for _, k := range ks {
			m[k.ID] = k
		}
		return m
	}
	g, w := byID(got), byID(want)
	out := map[uint16]string{}
	for id, k := range g {
		if v, ok := w[id]; !ok {
			out[id] = fmt.Sprintf("%v, GDAL none", k)
		} else if !sameKey(k, v) {
			out[id] = fmt.Sprintf("%v, GDAL %v", k, v)
		}
	}
	for id, v := range w {
		if _, ok := g[id]; !ok {
			out[id] = fmt.Sprintf("none, GDAL %v", v)
		}
	}
	return out
}

// geokeyDifferences are the keys in which this package's GeoTIFF keys
// differ from GDAL's on purpose (docs/FORMATS.md lists them).
var geokeyDifferences = map[string]map[uint16]string{
	// The ESRI datum D_NTF names both NTF datums: GDAL writes NTF
	// (Greenwich) and reads the file as another CRS than the WKT; this
	// package writes NTF (Paris), the one on the CRS's Paris meridian.
	"ud_lcc1sp_paris.tif": {2050: "6807"},
	// GDAL cites a geographic CRS that has an EPSG CRS's ESRI name by the
	// EPSG name (ED50, ETRS89); this package has no EPSG names and cites
	// the ESRI name, which it reads back.
	"extra_tm_ed50":    {2049: `"GCS Name = GCS_European_1950|Primem = Greenwich|"`},
	"extra_lcc_etrs89": {2049: `"GCS Name = GCS_ETRS_1989|Primem = Greenwich|"`},
}

// geokeyPE are the cases this package writes with the ESRI PE citation
// where GDAL writes standard keys: a linear unit other than metre and
// feet, which GDAL writes as a user-defined unit with its size and this
// package's reader does not read.
var geokeyPE = map[string]bool{"extra_km": true}

// loadGeokeyGoldens reads testdata/georef/geokeys.json (made by
// scripts/goldens/geokeys.py).
func loadGeokeyGoldens(t *testing.T) geokeyGoldens {
	t.Helper()
	b, err := os.ReadFile("testdata/georef/geokeys.json")
	if err != nil {
		t.Fatal(err)
	}
	var g geokeyGoldens
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGeoKeysGDAL writes the GeoTIFF keys of each golden CRS without an
// EPSG code (from the ESRI WKT an ENVI header holds) and compares them key
// by key with those GDAL writes for the same WKT (numbers to 1e-9
// relative), with those the golden script checked with GDAL (the same CRS,
// or the same as GDAL's own GeoTIFF) and with listgeo, and reads them back
// as the same CRS.
func TestGeoKeysGDAL(t *testing.T) {
	g := loadGeokeyGoldens(t)
	if len(g.Cases) < 42 {
		t.Fatalf("%d cases in geokeys.json", len(g.Cases))
	}
	n := 0
	for _, tc := range g.Cases {
		c, err := crs.FromWKT(tc.ESRIWKT)
		if err != nil || c.EPSG != 0 {
			t.Errorf("%s: %v, EPSG %d", tc.Input, err, c.EPSG)
			continue
		}
		keys, doubles, ascii := crs.GeoKeys(c, false)
		got := directoryKeys(t, keys, doubles, ascii)
		pe := false
		for _, k := range got {
			pe = pe || k.ID == crs.KeyPCSCitation && k.Text == "ESRI PE String = "+tc.ESRIWKT
		}
		if d := keyDiffs(got, tc.OmnihsrKeys); len(d) > 0 {
			t.Errorf("%s: keys differ from those GDAL checked (rerun scripts/goldens/geokeys.py): %v", tc.Input, d)
		}
		back, ok := crs.FromGeoKeys(keys, doubles, ascii)
		if !ok || !crs.Equivalent(back, c) {
			t.Errorf("%s: read back as %s (ok %v)\nwritten %s", tc.Input, back.WKT, ok, c.WKT)
		}
		if geokeyPE[tc.Input] {
			if !pe || !tc.SameAsWKT {
				t.Errorf("%s: ESRI PE citation %v, GDAL reads the same CRS %v", tc.Input, pe, tc.SameAsWKT)
			}
			continue
		}
		diffs := keyDiffs(got, tc.GDALKeys)
		want := geokeyDifferences[tc.Input]
		for id, d := range diffs {
			if v, ok := want[id]; !ok || !strings.HasPrefix(d, fmt.Sprintf("%d=%s,", id, v)) {
				t.Errorf("%s: key %s", tc.Input, d)
			}
		}
		for id := range want {
			if _, ok := diffs[id]; !ok {
				t.Errorf("%s: key %d is GDAL's; the documented difference is gone", tc.Input, id)
			}
		}
		switch {
		case tc.SameAsWKT:
		case tc.SameAsGDALTIFF && len(diffs) == 0 && !tc.GDALSameAsWKT:
			// GDAL reads its own keys as another CRS too (the axis order of
			// a geographic CRS read from a GeoTIFF).
		default:
			t.Errorf("%s: GDAL read the keys as another CRS", tc.Input)
		}
		if len(want) > 0 && !tc.SameAsWKT {
			t.Errorf("%s: differs from GDAL's keys, yet GDAL does not read it as the same CRS", tc.Input)
		}
		if tc.Listgeo != nil && !c.Geographic() && !pe && tc.Listgeo["Projection Method"] == "" {
			t.Errorf("%s: listgeo read no projection method: %v", tc.Input, tc.Listgeo)
		}
		if pe {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d cases written with the ESRI PE citation as GDAL does, want 1 (Mollweide)", n)
	}
}

// TestGeoKeysThroughTIFF writes ENVI georeferencing in each golden
// user-defined CRS to TIFF and reads the file back: the tags hold the keys
// crs.GeoKeys makes, and the CRS and grid are the same.
func TestGeoKeysThroughTIFF(t *testing.T) {
	g := loadGeokeyGoldens(t)
	dir := t.TempDir()
	for i, tc := range g.Cases {
		c := hsi.MustNew(2, 3, 1)
		c.Meta.Geo = &hsi.Geo{MapInfo: "Arbitrary, 1, 1, 1000, 2000, 10, 10", CoordSys: tc.ESRIWKT}
		want, note := c.Meta.Geo.CRS()
		if note != "" {
			t.Fatalf("%s: %s", tc.Input, note)
		}
		path := filepath.Join(dir, fmt.Sprintf("%d.tif", i))
		if err := Write(path, c, hsi.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		out, _, err := Read(path, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		keys, doubles, ascii := crs.GeoKeys(want, false)
		og := out.Meta.Geo
		if got, w := directoryKeys(t, og.GeoKeys, og.GeoDoubles, og.GeoASCII), directoryKeys(t, keys, doubles, ascii); len(keyDiffs(got, w)) > 0 {
			t.Errorf("%s: TIFF keys %v, crs.GeoKeys %v", tc.Input, got, w)
		}
		if got, _ := og.CRS(); !crs.Equivalent(got, want) {
			t.Errorf("%s: read back %s, wrote %s", tc.Input, got.WKT, want.WKT)
		}
		if gt, ok := og.Transform(); !ok || gt != [6]float64{1000, 10, 0, 2000, 0, -10} {
			t.Errorf("%s: geotransform %v (ok %v)", tc.Input, gt, ok)
		}
	}
}
