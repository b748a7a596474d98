package cofr_test

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/cofr"
)

func ExampleRender() {
	// A 2x3 input with 2 bands: a vertical edge in band 0, a constant in band 1.
	x := hsi.MustNew(2, 3, 2)
	for i := 0; i < 2; i++ {
		for j := 0; j < 3; j++ {
			x.Set(i, j, 0, float32(j/2))
			x.Set(i, j, 1, 0.5)
		}
	}
	p, _ := cofr.NewPrimitives(2, 3) // zero operators: bicubic
	y, _ := cofr.Render(x, p, 4, 6, cofr.Options{})
	fmt.Printf("%dx%dx%d bicubic row 0, band 0: %.3f\n", y.H, y.W, y.B, y.Band(0)[:6])

	// A zero-sum operator that sharpens horizontally: k = [-0.5, 1, -0.5].
	for n := 0; n < 6; n++ {
		p.K[n*cofr.Taps+2*5+1] = -0.5
		p.K[n*cofr.Taps+2*5+2] = 1
		p.K[n*cofr.Taps+2*5+3] = -0.5
	}
	y, _ = cofr.Render(x, p, 4, 6, cofr.Options{})
	fmt.Printf("with operators, row 0, band 0: %.3f\n", y.Band(0)[:6])
	fmt.Printf("band 1 stays constant: %.3f\n", y.Band(1)[:6])
	// Output:
	// 4x6x2 bicubic row 0, band 0: [0.000 -0.035 -0.105 0.227 0.773 1.105]
	// with operators, row 0, band 0: [-0.041 -0.186 -0.401 0.048 0.962 1.522]
	// band 1 stays constant: [0.500 0.500 0.500 0.500 0.500 0.500]
}

func ExampleRenderer_RenderRows() {
	// Render a large output in bands of rows, e.g. to stream it to disk.
	x := hsi.MustNew(8, 8, 3)
	for i := range x.Data {
		x.Data[i] = float32(i%11) / 10
	}
	p, _ := cofr.NewPrimitives(8, 8)
	r, err := cofr.NewRenderer(x, p, 30, 30, cofr.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	outH, outW := r.Size()
	band := 8
	buf := make([]float32, band*outW*x.B)
	rows := 0
	for u0 := 0; u0 < outH; u0 += band {
		u1 := min(outH, u0+band)
		if err := r.RenderRows(u0, u1, buf[:(u1-u0)*outW*x.B]); err != nil {
			fmt.Println(err)
			return
		}
		rows += u1 - u0 // write buf to disk here
	}
	fmt.Printf("%d rows of %d pixels, factor %.2f\n", rows, outW, r.Factor())
	// Output: 30 rows of 30 pixels, factor 3.75
}
