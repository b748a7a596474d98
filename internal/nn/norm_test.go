package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLayerNormRowsBitExact checks that the forward pass (the vector
// kernel where it runs: c a multiple of 8) gives the bits of one pixel at
// a time in Go, for any range of pixels.
func TestLayerNormRowsBitExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []int{1, 5, 8, 32, 40} {
		np := 11
		xd := make([]float32, np*c)
		for i := range xd {
			xd[i] = float32(r.NormFloat64()*3 + 1)
		}
		gm, bt := make([]float32, c), make([]float32, c)
		for j := range gm {
			gm[j], bt[j] = float32(r.NormFloat64()), float32(r.NormFloat64())
		}
		const eps = 1e-5
		invC := 1 / float32(c)
		for lo := 0; lo < 3; lo++ {
			for hi := lo; hi <= np; hi++ {
				od := make([]float32, np*c)
				mean, rstd := make([]float32, np), make([]float32, np)
				layerNormRows(xd, od, mean, rstd, gm, bt, c, invC, eps, lo, hi)
				for p := lo; p < hi; p++ {
					xs := xd[p*c : (p+1)*c]
					m, rs := pixelStats(xs, invC, eps)
					if mean[p] != m || rstd[p] != rs {
						t.Fatalf("c %d [%d, %d) pixel %d: mean, rstd %v %v, want %v %v", c, lo, hi, p, mean[p], rstd[p], m, rs)
					}
					for j, v := range xs {
						if want := (v-m)*rs*gm[j] + bt[j]; math.Float32bits(od[p*c+j]) != math.Float32bits(want) {
							t.Fatalf("c %d [%d, %d) pixel %d channel %d: %v, want %v", c, lo, hi, p, j, od[p*c+j], want)
						}
					}
				}
				for p := 0; p < np; p++ {
					if (p < lo || p >= hi) && (mean[p] != 0 || od[p*c] != 0) {
						t.Fatalf("c %d [%d, %d): pixel %d outside the range written", c, lo, hi, p)
					}
				}
			}
		}
	}
}
