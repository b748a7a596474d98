package envi

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// An AVIRIS-NG radiance header states its wavelengths only as band names;
// a header whose names carry none keeps its wavelengths unknown.
func TestBandNameWavelengths(t *testing.T) {
	for _, tc := range []struct {
		names, extra string
		wl           []float64
		units        string
	}{
		{"{376.44 Nanometers, 381.45 Nanometers}", "", []float64{376.44, 381.45}, "Nanometers"},
		{"{band 8, band 9}", "wavelength units = Micrometers\n", nil, "Micrometers"},
		{"{376.44 Nanometers, 381.45 Nanometers}", "wavelength = {0.4, 0.5}\nwavelength units = Micrometers\n", []float64{0.4, 0.5}, "Micrometers"},
	} {
		dir := t.TempDir()
		hdr := "ENVI\nsamples = 2\nlines = 1\nbands = 2\nheader offset = 0\ndata type = 4\ninterleave = bsq\nbyte order = 0\nband names = " + tc.names + "\n" + tc.extra
		if err := os.WriteFile(filepath.Join(dir, "x.hdr"), []byte(hdr), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "x.img"), make([]byte, 16), 0o644); err != nil {
			t.Fatal(err)
		}
		c, _, err := Read(filepath.Join(dir, "x.hdr"), hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Meta.Wavelengths) != len(tc.wl) || c.Meta.WavelengthUnits != tc.units {
			t.Fatalf("%s: wavelengths %v %q, want %v %q", tc.names, c.Meta.Wavelengths, c.Meta.WavelengthUnits, tc.wl, tc.units)
		}
		for i := range tc.wl {
			if c.Meta.Wavelengths[i] != tc.wl[i] {
				t.Fatalf("%s: wavelengths %v, want %v", tc.names, c.Meta.Wavelengths, tc.wl)
			}
		}
	}
}

// The EnMAP-Box example headers (../shared/data/products-real, real ENVI
// headers) state wavelengths in micrometres, exponent pixel sizes and y start.
func TestEnMAPBoxHeaders(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "products-real", "enmapbox-headers")
	p := filepath.Join(dir, "enmap_berlin.hdr")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s absent (../shared is for development only): %v", p, err)
	}
	h, w, b, m, err := HeaderMeta(p)
	if err != nil {
		t.Fatal(err)
	}
	nm, fw, ok := m.Nanometers()
	if h != 400 || w != 220 || b != 177 || m.WavelengthUnits != "Micrometers" || !ok || len(fw) != 177 || nm[0] < 400 || nm[0] > 500 || nm[176] < 2000 {
		t.Errorf("%dx%dx%d units %q nm %v..%v fwhm %d", h, w, b, m.WavelengthUnits, nm[0], nm[len(nm)-1], len(fw))
	}
	if gt, ok := m.Geo.Transform(); !ok || gt[1] != 30 || gt[0] != 380952.37 {
		t.Errorf("geotransform %v", gt)
	}
	// hires_berlin: "wavelength units = nanometers", lower case
	_, _, _, m, err = HeaderMeta(filepath.Join(dir, "hires_berlin.hdr"))
	if nm, _, ok := m.Nanometers(); err != nil || !ok || nm[0] != 665 || len(m.BandNames) != 3 {
		t.Errorf("hires_berlin: %v %+v", err, m)
	}
}
