package resample

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
)

// A one-column no-data hole in 4 of 16 bands and an all-NaN band, upscaled
// x4 by bicubic inside hsi.KeepNoData, against gdal_translate -r cubic
// -outsize 400% 400% on the same file (testdata/nodata/gen_golden.py):
// like GDAL, no output sample holds part of -9999 in any band, and the NaN
// band is no-data in every pixel. Bands without no-data have none in the
// output, as with GDAL. Over the column itself GDAL interpolates across
// the hole from the valid taps; here the output samples whose centre lies
// in the column are no-data (4 columns of 48 rows in each of those bands).
func TestNoDataColumnAgainstGDAL(t *testing.T) {
	dir := filepath.Join("testdata", "nodata")
	var golden struct {
		OutH  int `json:"out_h"`
		OutW  int `json:"out_w"`
		Bands []struct{ NoData, Leaked int }
	}
	b, err := os.ReadFile(filepath.Join(dir, "golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	c, _, err := envi.Read(filepath.Join(dir, "column.hdr"), hsi.ReadOptions{})
	var nf *hsi.NonFiniteError
	if err != nil && !(errors.As(err, &nf) && c != nil) {
		t.Fatal(err)
	}
	if c.B != len(golden.Bands) || !c.Meta.HasDataIgnore || c.Meta.DataIgnore != -9999 {
		t.Fatalf("input: %d bands (golden %d), data ignore value %v (%v)", c.B, len(golden.Bands), c.Meta.DataIgnore, c.Meta.HasDataIgnore)
	}
	out, err := hsi.KeepNoData(c, func(x *hsi.Cube) (*hsi.Cube, error) { return Upsample(x, 4*x.H, 4*x.W) })
	if err != nil {
		t.Fatal(err)
	}
	if out.H != golden.OutH || out.W != golden.OutW {
		t.Fatalf("output %dx%d, GDAL %dx%d", out.H, out.W, golden.OutH, golden.OutW)
	}
	inputND := make([]bool, c.B)
	for i, v := range c.Data {
		if v == -9999 || v != v {
			inputND[i%c.B] = true
		}
	}
	for k, g := range golden.Bands {
		nodata, leaked := 0, 0
		for p := 0; p < out.H*out.W; p++ {
			v := out.Data[p*out.B+k]
			switch {
			case v == -9999:
				nodata++
			case v != v || math.IsInf(float64(v), 0):
				t.Fatalf("band %d: %v in the output", k, v)
			case v < -10:
				leaked++
			}
		}
		if leaked != g.Leaked || leaked != 0 {
			t.Errorf("band %d: %d samples hold part of -9999 (GDAL: %d)", k, leaked, g.Leaked)
		}
		switch {
		case g.NoData == out.H*out.W || !inputND[k]:
			if nodata != g.NoData {
				t.Errorf("band %d: %d no-data samples, GDAL %d", k, nodata, g.NoData)
			}
		case nodata != 4*out.H:
			t.Errorf("band %d: %d no-data samples, want the %d over the column", k, nodata, 4*out.H)
		}
	}
}
