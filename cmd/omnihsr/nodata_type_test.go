package main

import (
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// Issue 29: a float32 input whose no-data value no float32 holds exactly
// (-9999.9 in an ENVI data ignore value or a GeoTIFF GDAL_NODATA) or is
// FLT_MAX as printed (-3.4028235e+38): the fill is recognised as it is
// stored, kept out of the upscaling and written back as no-data. Before,
// it was smeared into valid pixels (down to -560,534.75) or made +Inf.
func TestUpscaleNoDataStoredType(t *testing.T) {
	dir := t.TempDir()
	const h, w, b = 12, 10, 4
	for _, declared := range []float64{-9999.9, -3.4028235e+38} {
		for _, ext := range []string{".hdr", ".tif"} {
			lr := testrand.Cube(testrand.New(h, w), h, w, b)
			fill := float32(declared)
			for p := 0; p < h*w; p++ {
				if p%w == 3 {
					for k := 0; k < b; k++ {
						lr.Data[p*b+k] = fill
					}
				}
			}
			lr.Meta.DataIgnore, lr.Meta.HasDataIgnore = declared, true
			in := filepath.Join(dir, "lr"+ext)
			if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, method := range []string{"bicubic", "omnihsr"} {
				out := filepath.Join(dir, method+ext)
				if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", out, "-scale", "2", "-method", method, "-overwrite"); code != 0 {
					t.Fatalf("%v %s %s: exit %d: %s", declared, ext, method, code, stderr)
				}
				got, _ := readNaN(t, out)
				if ign, ok := got.Meta.IgnoreValue(); !ok || ign != fill {
					t.Errorf("%v %s %s: output declares no-data %v (%v)", declared, ext, method, got.Meta.DataIgnore, got.Meta.HasDataIgnore)
				}
				for p := 0; p < got.H*got.W; p++ {
					inFill := (p%got.W)/2 == 3
					for k := 0; k < b; k++ {
						x := got.Data[p*b+k]
						if inFill != (x == fill) || !inFill && (x < -1 || x > 2 || x != x) {
							t.Fatalf("%v %s %s: pixel %d band %d = %v (in the no-data column: %v)", declared, ext, method, p, k, x, inFill)
						}
					}
				}
			}
		}
	}
}
