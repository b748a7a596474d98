package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -stac writes NAME.json beside the outputs of upscale and convert: the
// NEON miniature's item has its EPSG code, transform at the new grid,
// shape, no-data, data type, micrometre wavelengths and the processing
// note. hsi/stac's golden test covers the schema validation.
func TestSTACFlag(t *testing.T) {
	in := filepath.Join("..", "..", "hsi", "products", "testdata", "NEON_D17_SJER_DP3_257000_4112000_reflectance.h5")
	dir := t.TempDir()
	for _, tc := range []struct {
		args          []string
		json, typ     string
		shape         []any
		method, asset string
	}{
		{[]string{"upscale", "-in", in, "-out", filepath.Join(dir, "sr.tif"), "-scale", "2", "-method", "bicubic", "-stac"}, "sr.json", "float32", []any{12.0, 10.0}, "bicubic", "sr.tif"},
		{[]string{"upscale", "-in", in, "-out", filepath.Join(dir, "sr2.hdr"), "-scale", "2", "-stac", "-type", "same"}, "sr2.json", "int16", []any{12.0, 10.0}, "omnihsr", "sr2.img"},
		{[]string{"convert", "-in", in, "-out", filepath.Join(dir, "cv.tif"), "-stac"}, "cv.json", "float32", []any{6.0, 5.0}, "", "cv.tif"},
	} {
		if code, _, errs := runCmd(t, tc.args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
		}
		b, err := os.ReadFile(filepath.Join(dir, tc.json))
		if err != nil {
			t.Fatal(err)
		}
		var item struct {
			Version string                    `json:"stac_version"`
			Props   map[string]any            `json:"properties"`
			Assets  map[string]map[string]any `json:"assets"`
		}
		if err := json.Unmarshal(b, &item); err != nil {
			t.Fatal(err)
		}
		p := item.Props
		data := item.Assets["data"]
		bands, _ := data["bands"].([]any)
		if item.Version != "1.1.0" || p["proj:code"] != "EPSG:32611" || data["data_type"] != tc.typ || data["nodata"] != -9999.0 ||
			data["href"] != tc.asset || len(bands) != 14 {
			t.Errorf("%s: %s", tc.json, b)
			continue
		}
		if fmt.Sprint(p["proj:shape"]) != fmt.Sprint(tc.shape) {
			t.Errorf("%s: shape %v, want %v", tc.json, p["proj:shape"], tc.shape)
		}
		if b0 := bands[0].(map[string]any); b0["eo:center_wavelength"] != 0.3814 || b0["raster:scale"] != 0.0001 {
			t.Errorf("%s: band 1 %v", tc.json, b0)
		}
		if tc.method != "" && p["omnihsr:method"] != tc.method {
			t.Errorf("%s: method %v", tc.json, p["omnihsr:method"])
		}
		if d, _ := p["description"].(string); !strings.Contains(d, "omnihsr") || !strings.Contains(d, tc.args[0]) {
			t.Errorf("%s: description %q", tc.json, d)
		}
	}
	if code, _, errs := runCmd(t, "convert", "-in", in, "-out", filepath.Join(dir, "p.png"), "-stac"); code == 0 || !strings.Contains(errs, "PNG preview, which has no STAC item") {
		t.Errorf("PNG with -stac: exit %d: %s", code, errs)
	}
}
