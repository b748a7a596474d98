package main

import (
	"path/filepath"
	"strings"
	"testing"
)

const georefData = "../../hsi/formats/testdata/georef/"

// TestInfoGeoref checks the CRS, pixel size and corners info prints against
// what gdalinfo prints for the same files (see
// hsi/formats/testdata/georef/goldens.json).
func TestInfoGeoref(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"utm32633.tif", []string{"crs:            WGS 84 / UTM zone 33N (EPSG:32633)", "pixel size:     30 x 30 (x, y)",
			"upper left:     (500000.000, 4200000.000)", "lower right:    (500150.000, 4199880.000)"}},
		{"rotated.img", []string{"(EPSG:32633)", "pixel size:     30 x 30 (x, y) (rotated",
			"upper right:    (500129.904, 4200075.000)", "lower left:     (500060.000, 4199896.077)",
			"     2  550 Nanometers  fwhm 10  scale 0.0001 offset 0  bad"}},
		{"albers_gdal.tif", []string{"crs:            unknown (no EPSG code)", "upper left:     (-1000000.000, 2000000.000)"}},
		{"geog4326.tif", []string{"crs:            WGS 84 (EPSG:4326)", "lower right:    (10.5050000, 45.2460000)"}},
	} {
		code, out, errs := runCmd(t, "info", georefData+tc.file)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.file, code, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.file, w, out)
			}
		}
	}
}

// TestConvertWarnsDropped checks that convert and upscale name on stderr
// what the output format cannot hold, and only that.
func TestConvertWarnsDropped(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"convert", "-in", georefData + "rotated.img", "-out", filepath.Join(dir, "a.npy")},
			[]string{"georeferencing", "wavelengths", "FWHM", "bad band list", "radiometric scale/offset", "other header fields"}},
		{[]string{"convert", "-in", georefData + "rotated.img", "-out", filepath.Join(dir, "a.mat")},
			[]string{"georeferencing", "bad band list", "radiometric scale/offset", "other header fields"}},
		{[]string{"upscale", "-in", georefData + "epsg3035.tif", "-out", filepath.Join(dir, "b.hdr"), "-scale", "2", "-method", "bicubic"}, nil},
		{[]string{"convert", "-in", georefData + "rotated.img", "-out", filepath.Join(dir, "c.tif")}, nil},
		{[]string{"upscale", "-in", georefData + "utm32633.tif", "-out", filepath.Join(dir, "d.hdr"), "-scale", "2", "-method", "bicubic"}, nil},
	} {
		code, _, errs := runCmd(t, tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
		}
		warnings := 0
		for _, l := range strings.Split(errs, "\n") {
			if strings.HasPrefix(l, "warning: ") {
				warnings++
			}
		}
		if warnings != len(tc.want) {
			t.Errorf("%v: %d warnings, want %d:\n%s", tc.args, warnings, len(tc.want), errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: stderr lacks %q:\n%s", tc.args, w, errs)
			}
		}
	}
}
