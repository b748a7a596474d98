package eval_test

import (
	"context"
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/eval"
)

// A method plugs in through the Method interface; Run scores it next to
// bicubic on the images of a protocol.
func ExampleRun() {
	// A 128x128 remote-sensing scene with 8 bands: four 64x64 tiles.
	c := hsi.MustNew(128, 128, 8)
	for y := 0; y < c.H; y++ {
		for x := 0; x < c.W; x++ {
			for b := 0; b < c.B; b++ {
				c.Set(y, x, b, float32(2+math.Sin(0.2*float64(x)+0.1*float64(b))*math.Cos(0.1*float64(y))))
			}
		}
	}
	scene := eval.CubeScene("demo", "AVIRIS", c)
	// Nearest-neighbour upsampling as a stand-in for a model.
	nearest := eval.MethodFunc{Label: "Nearest", Fn: func(lr *hsi.Cube, h, w int) (*hsi.Cube, error) {
		out, err := hsi.New(h, w, lr.B)
		if err != nil {
			return nil, err
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				copy(out.Spectrum(y, x), lr.Spectrum((2*y+1)*lr.H/(2*h), (2*x+1)*lr.W/(2*w)))
			}
		}
		return out, nil
	}}
	res, err := eval.Run(context.Background(), []*eval.Scene{scene}, eval.Config{Protocol: eval.ProtocolSeven, Factors: []float64{4}, Methods: []eval.Method{nearest}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range res.Summaries {
		fmt.Printf("%s x%g %s: %d images, PSNR %.2f dB\n", s.Scene, s.Factor, s.Method, s.Images, float64(s.PSNR))
		if s.Gain != nil {
			fmt.Printf("gain over bicubic %+.2f dB, 95%% interval [%+.2f, %+.2f]\n", float64(s.Gain.Mean), float64(s.Gain.Lo), float64(s.Gain.Hi))
		}
	}
	// Output:
	// demo x4 Bicubic: 4 images, PSNR 39.13 dB
	// demo x4 Nearest: 4 images, PSNR 27.60 dB
	// gain over bicubic -11.53 dB, 95% interval [-11.93, -11.14]
}

func ExamplePairedBootstrap() {
	gains := []float64{0.4, 0.6, 0.5, 0.7, 0.3, 0.5}
	iv := eval.PairedBootstrap(gains, eval.DefaultResamples, 1)
	fmt.Printf("mean %.2f, 95%% interval [%.2f, %.2f] over %d pairs\n", float64(iv.Mean), float64(iv.Lo), float64(iv.Hi), iv.N)
	// Output:
	// mean 0.50, 95% interval [0.40, 0.60] over 6 pairs
}

func ExampleRegions() {
	// The seven-dataset protocol: a 229x394 satellite scene gives 18 tiles,
	// the CAVE scene its centred crop.
	tiles, _ := eval.Regions(eval.ProtocolSeven, 229, 394, "unknown-17band", eval.GeomAuto, 0, 0)
	crop, _ := eval.Regions(eval.ProtocolSeven, 512, 512, "CAVE", eval.GeomAuto, 0, 0)
	twelve, _ := eval.Regions(eval.ProtocolTwelve, 229, 394, "unknown-17band", eval.GeomAuto, 0, 0)
	fmt.Println(len(tiles), tiles[17].Y0, tiles[17].X0)
	fmt.Printf("%+v\n%+v\n", crop[0], twelve[0])
	// Output:
	// 18 128 320
	// {Index:0 Y0:128 X0:128 H:256 W:256 Kind:crop}
	// {Index:0 Y0:0 X0:82 H:229 W:229 Kind:crop}
}
