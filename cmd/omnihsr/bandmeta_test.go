package main

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// An EnMAP-Box GeoTIFF (per-band wavelength, wavelength_units, fwhm and
// bbl items, written by GDAL in scripts/goldens/bandmeta.py) keeps its bad
// bands, micrometre wavelengths and FWHM through upscale to GeoTIFF and
// ENVI.
func TestUpscaleEnMAPBoxBadBands(t *testing.T) {
	in := filepath.Join("..", "..", "hsi", "formats", "testdata", "bandmeta", "enmapbox.tif")
	src, _, err := formats.Read(in, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(src.Meta.BadBands, []bool{false, false, true, false}) {
		t.Fatalf("input bad bands %v", src.Meta.BadBands)
	}
	for _, name := range []string{"sr.tif", "sr.hdr"} {
		dst := filepath.Join(t.TempDir(), name)
		if code, _, errs := runCmd(t, "upscale", "-in", in, "-out", dst, "-scale", "2"); code != 0 {
			t.Fatalf("upscale to %s: exit %d: %s", name, code, errs)
		}
		c, _, err := formats.Read(dst, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m := c.Meta
		if !slices.Equal(m.BadBands, src.Meta.BadBands) || !slices.Equal(m.Wavelengths, src.Meta.Wavelengths) ||
			!slices.Equal(m.FWHM, src.Meta.FWHM) || m.WavelengthUnits != "Micrometers" {
			t.Errorf("%s: bad %v wavelengths %v %q fwhm %v", name, m.BadBands, m.Wavelengths, m.WavelengthUnits, m.FWHM)
		}
	}
}
