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
