package hsi

import (
	"math"
	"testing"
)

// TestNoDataInStoredType: a float32 cube whose no-data value is declared
// as -9999.9 (ENVI data ignore value, GDAL_NODATA), which no float32 holds
// exactly, or as -3.4028235e+38 (FLT_MAX as printed): its fill samples are
// recognised, kept out of a resampling and written back as the no-data
// value (issue 29: they were smeared into valid pixels, down to -560,534.75).
func TestNoDataInStoredType(t *testing.T) {
	for _, declared := range []float64{-9999.9, -3.4028235e+38} {
		c := MustNew(6, 6, 2)
		for i := range c.Data {
			c.Data[i] = 1 + float32(i%7)/10 // valid: 1 .. 1.6
		}
		fill := float32(declared) // what a float32 band written with that value holds
		for _, p := range []int{7, 8, 14, 20, 35} {
			c.Data[2*p], c.Data[2*p+1] = fill, fill
		}
		c.Meta.DataIgnore, c.Meta.HasDataIgnore = declared, true
		// a 3x3 box blur: every output sample mixes its neighbours
		blur := func(in *Cube) (*Cube, error) {
			out := MustNew(in.H, in.W, in.B)
			out.Meta = in.Meta
			for y := range in.H {
				for x := range in.W {
					for k := range in.B {
						var s float64
						n := 0
						for dy := -1; dy <= 1; dy++ {
							for dx := -1; dx <= 1; dx++ {
								yy, xx := y+dy, x+dx
								if yy >= 0 && yy < in.H && xx >= 0 && xx < in.W {
									s += float64(in.Data[(yy*in.W+xx)*in.B+k])
									n++
								}
							}
						}
						out.Data[(y*in.W+x)*in.B+k] = float32(s / float64(n))
					}
				}
			}
			return out, nil
		}
		out, err := KeepNoData(c, blur)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range out.Data {
			isFill := c.Data[i] == fill
			switch {
			case isFill && v != fill:
				t.Fatalf("%v: sample %d = %v, want the no-data value written back (%v)", declared, i, v, fill)
			case !isFill && (v < 1 || v > 1.6 || math.IsNaN(float64(v))):
				t.Fatalf("%v: valid sample %d = %v: the no-data value was smeared into it", declared, i, v)
			}
		}
	}
}
