package resample

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/omnihsr/omnihsr/hsi"
)

// noiseChunk is the number of values drawn from one random stream.
const noiseChunk = 1 << 16

// AddNoise returns c plus independent zero-mean Gaussian noise of standard
// deviation sigma on every value (no clipping). The noise is a function of
// seed alone: value i uses stream i/65536 of a PCG generator seeded with
// (seed, stream) and Box-Muller, so the same seed gives the same cube on
// every run and with any number of workers. sigma = 0 returns a copy.
// Errors: sigma < 0, NaN or Inf; NaN or Inf pixels.
func AddNoise(c *hsi.Cube, sigma float64, seed uint64) (*hsi.Cube, error) {
	if !(sigma >= 0) || math.IsInf(sigma, 0) {
		return nil, fmt.Errorf("resample: noise: sigma %v: %w: must be a finite number >= 0", sigma, ErrSize)
	}
	if err := checkInput("noise", c, 1, 1); err != nil {
		return nil, err
	}
	if checkFinite(c) != nil {
		return nil, nonFinite("noise", c)
	}
	out := c.Clone()
	addNoiseInPlace(out.Data, sigma, seed)
	return out, nil
}

func addNoiseInPlace(data []float32, sigma float64, seed uint64) {
	if sigma == 0 {
		return
	}
	chunks := (len(data) + noiseChunk - 1) / noiseChunk
	parallel(chunks, 1, func(lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			r := rand.New(rand.NewPCG(seed, uint64(ch)))
			d := data[ch*noiseChunk : min((ch+1)*noiseChunk, len(data))]
			for i := 0; i < len(d); i += 2 {
				// Box-Muller: u1 in (0, 1], u2 in [0, 1).
				u1 := float64(r.Uint64()>>11+1) / (1 << 53)
				u2 := float64(r.Uint64()>>11) / (1 << 53)
				rad := sigma * math.Sqrt(-2*math.Log(u1))
				sn, cs := math.Sincos(2 * math.Pi * u2)
				d[i] = float32(float64(d[i]) + rad*cs)
				if i+1 < len(d) {
					d[i+1] = float32(float64(d[i+1]) + rad*sn)
				}
			}
		}
	})
}
