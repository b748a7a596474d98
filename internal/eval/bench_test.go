package eval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

// The prior test's cost is the accumulation of the 24x24 normal equations:
// about 300 multiply-adds per HR pixel and band.
func BenchmarkPriorAccumulate(b *testing.B) {
	for _, sz := range []struct {
		name    string
		side, B int
	}{{"Small_64x64x31", 64, 31}, {"Medium_64x64x205", 64, 205}, {"Large_256x256x31", 256, 31}} {
		b.Run(sz.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			hr := testrand.Cube(rng, sz.side, sz.side, sz.B)
			lr, err := resample.Downsample(hr, sz.side/2, sz.side/2)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := accumulatePrior(hr, lr, 16, 2, 2); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(sz.side*sz.side*sz.B)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpixband/s")
		})
	}
}

func BenchmarkRunBicubic(b *testing.B) {
	for _, side := range []int{64, 256} {
		b.Run(fmt.Sprintf("%dx%dx31_x4", side, side), func(b *testing.B) {
			sc := []*Scene{CubeScene("s", "CAVE", smoothCube(side, side, 31, 0))}
			for i := 0; i < b.N; i++ {
				if _, err := Run(context.Background(), sc, Config{Protocol: ProtocolSeven, Factors: []float64{4}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
