package cofr_test

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/cofr"
)

// A ValueRenderer splats one vector per primitive with COFR's normalised
// weights: a constant field of values stays (almost, by the 1e-6 in the
// denominator) constant at any factor.
func ExampleValueRenderer() {
	v := hsi.MustNew(4, 4, 2)
	for i := 0; i < 16; i++ {
		v.Data[2*i], v.Data[2*i+1] = 0.25, 0.75
	}
	p, _ := cofr.NewPrimitives(4, 4) // widths 0.5, opacity 0.5, K unused
	vr, err := cofr.NewValueRenderer(v, p, 10, 10, cofr.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	y, _ := vr.Render()
	fmt.Printf("%dx%dx%d, pixel (5, 7) = %.4f, %.4f\n", y.H, y.W, y.B, y.At(5, 7, 0), y.At(5, 7, 1))
	// Output: 10x10x2, pixel (5, 7) = 0.2500, 0.7500
}
