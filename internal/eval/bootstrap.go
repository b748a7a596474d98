package eval

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/omnihsr/omnihsr/internal/stat"
)

// DefaultResamples is the number of bootstrap resamples.
const DefaultResamples = 2000

// Interval is a paired bootstrap interval of a mean difference.
type Interval struct {
	Mean      Num `json:"mean"` // mean of the paired differences
	Lo        Num `json:"lo"`   // 2.5th percentile of the resampled means
	Hi        Num `json:"hi"`   // 97.5th percentile of the resampled means
	N         int `json:"n"`    // number of pairs
	Resamples int `json:"resamples"`
}

// PairedBootstrap returns the 95% percentile bootstrap interval of the mean
// of the paired differences d (e.g. the PSNR of a method minus that of
// bicubic on the same images): resamples means of len(d) values drawn with
// replacement, with a PCG generator seeded by seed. With one pair the
// interval is that pair's value. Percentiles interpolate linearly between
// order statistics (numpy's default).
func PairedBootstrap(d []float64, resamples int, seed uint64) Interval {
	n := len(d)
	iv := Interval{N: n, Resamples: resamples}
	if n == 0 {
		iv.Mean, iv.Lo, iv.Hi = Num(math.NaN()), Num(math.NaN()), Num(math.NaN())
		return iv
	}
	iv.Mean = Num(stat.Mean(d))
	if n == 1 || resamples <= 0 {
		iv.Lo, iv.Hi = iv.Mean, iv.Mean
		return iv
	}
	rng := rand.New(rand.NewPCG(seed, 0x6f6d6e6968737221))
	means := make([]float64, resamples)
	for r := range means {
		var s float64
		for i := 0; i < n; i++ {
			s += d[rng.IntN(n)]
		}
		means[r] = s / float64(n)
	}
	sort.Float64s(means)
	iv.Lo = Num(percentile(means, 2.5))
	iv.Hi = Num(percentile(means, 97.5))
	return iv
}

// percentile of sorted values, linear interpolation (numpy "linear").
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 1 {
		return sorted[0]
	}
	x := p / 100 * float64(len(sorted)-1)
	i := int(math.Floor(x))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	f := x - float64(i)
	return sorted[i] + f*(sorted[i+1]-sorted[i])
}

// seedFor derives a bootstrap seed from a base seed and the labels of one
// interval (scene, factor, method), so that every interval is reproducible
// on its own, whatever else the run contains.
func seedFor(base uint64, labels ...string) uint64 {
	h := fnv.New64a()
	for _, l := range labels {
		h.Write([]byte(l))
		h.Write([]byte{0})
	}
	return base ^ h.Sum64()
}
