package metrics_test

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/metrics"
)

func ExampleCompute() {
	ref := hsi.MustNew(16, 16, 3)
	est := hsi.MustNew(16, 16, 3)
	for i := range ref.Data {
		ref.Data[i] = float32(i%7) / 7
		est.Data[i] = ref.Data[i] + 0.01 // a small bias
	}
	metrics.Clip01(est)
	s, err := metrics.Compute(ref, est, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("PSNR %.2f dB, RMSE %.4f, SSIM %.4f\n", s.PSNR, s.RMSE, s.SSIM)
	// Output: PSNR 40.00 dB, RMSE 0.0100, SSIM 0.9997
}
