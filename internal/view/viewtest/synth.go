package viewtest

import (
	"math"

	"github.com/omnihsr/omnihsr/hsi"
)

// Synth returns a smooth h x w x b scene (b >= 2) with wavelengths
// 400..2400 nm, a no-data pixel at (1, 2) (value -9999, so h >= 2 and
// w >= 3) and band 1 flagged bad; phase shifts the pattern along y.
func Synth(h, w, b int, phase float64) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for k := 0; k < b; k++ {
				v := 0.3 + 0.2*math.Sin(float64(y)*0.5+phase+float64(k)*0.3) + 0.15*math.Cos(float64(x)*0.4-float64(k)*0.2)
				c.Set(y, x, k, float32(v))
			}
		}
	}
	c.Meta.Wavelengths = make([]float64, b)
	c.Meta.BadBands = make([]bool, b)
	for k := range b {
		c.Meta.Wavelengths[k] = 400 + 2000*float64(k)/float64(b-1)
	}
	c.Meta.WavelengthUnits = "Nanometers"
	c.Meta.BadBands[1] = true
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = -9999, true
	for k := range b {
		c.Set(1, 2, k, -9999)
	}
	return c
}
