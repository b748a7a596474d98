package resample_test

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/resample"
)

func ExampleDegrade() {
	hr := hsi.MustNew(37, 41, 3)
	for i := range hr.Data {
		hr.Data[i] = float32(i%11) / 10
	}
	lr, err := resample.Degrade(hr, resample.DegradeOptions{Scale: 2.5, Blur: 0.4, Noise: 0.01, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	sr, err := resample.Upsample(lr, resample.UpSize(lr.H, 2.5), resample.UpSize(lr.W, 2.5))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("HR %dx%dx%d -> LR %dx%dx%d -> SR %dx%dx%d\n", hr.H, hr.W, hr.B, lr.H, lr.W, lr.B, sr.H, sr.W, sr.B)
	_, err = resample.Degrade(hr, resample.DegradeOptions{Scale: 100})
	fmt.Println(err)
	// Output:
	// HR 37x41x3 -> LR 15x16x3 -> SR 38x40x3
	// resample: degrade: a 37x41 cube divided by 100 gives 0x0 pixels: invalid size: the low-resolution side round(side/s) must be at least 1
}

func ExampleUpsample() {
	lr := hsi.MustNew(1, 4, 1)
	copy(lr.Data, []float32{0, 1, 0, 1})
	sr, _ := resample.Upsample(lr, 1, 8)
	fmt.Printf("%.4f\n", sr.Data) // as torch.nn.functional.interpolate prints
	// Output: [-0.1055 0.2617 0.8789 0.8438 0.1562 0.1211 0.7383 1.1055]
}
