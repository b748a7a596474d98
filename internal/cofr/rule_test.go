package cofr

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
)

// ruleDiff compares the K x K rule with the paper's rule on one image:
// the largest L1 distance between the two weight vectors of a target pixel
// (an upper bound of |Y_K - Y_paper| / max_n |r_n|), its mean, and the
// largest |Y_K - Y_paper| / max_n |r_n| measured on a render.
func ruleDiff(t *testing.T, seed uint64, h, f, k int, sp primSpec) (maxL1, meanL1, maxRel float64) {
	rng := rand.New(rand.NewPCG(seed, 41))
	x := testrand.Cube(rng, h, h, 4)
	p := randPrims(rng, h, h, sp)
	H := h * f
	rk, err := NewRenderer(x, p, H, H, Options{Neighbourhood: k})
	if err != nil {
		t.Fatal(err)
	}
	rp, err := NewRenderer(x, p, H, H, Options{PaperRule: true})
	if err != nil {
		t.Fatal(err)
	}
	for u := 0; u < H; u++ {
		for v := 0; v < H; v++ {
			ik, wk, _ := rk.Weights(u, v)
			ip, wp, _ := rp.Weights(u, v)
			m := map[int]float64{}
			for j, n := range ip {
				m[n] = wp[j]
			}
			var l1 float64
			for j, n := range ik {
				l1 += math.Abs(wk[j] - m[n])
				delete(m, n)
			}
			for _, w := range m {
				l1 += w
			}
			maxL1 = math.Max(maxL1, l1)
			meanL1 += l1 / float64(H*H)
		}
	}
	yk, _ := rk.Render()
	yp, _ := rp.Render()
	var rmax float64
	fs := rk.newFieldState(0, h)
	for _, v := range fs.rr {
		rmax = math.Max(rmax, math.Abs(float64(v)))
	}
	for i := range yk.Data {
		maxRel = math.Max(maxRel, math.Abs(float64(yk.Data[i]-yp.Data[i]))/rmax)
	}
	return maxL1, meanL1, maxRel
}

// TestNeighbourhoodVersusPaperRule measures how far the K x K truncation
// (K = 7, the default, and K = 9) is from the paper's rule on primitives
// drawn like a trained model's (widths 0.3..1.5 low-res pixels, random
// angles, opacities 0.2..1, offsets within +-0.5), and asserts the bounds
// stated in the package documentation.
func TestNeighbourhoodVersusPaperRule(t *testing.T) {
	// Bounds on the largest and the mean L1 distance of the weights.
	maxBound := map[int]float64{7: 0.2, 9: 0.03}
	meanBound := map[int]float64{7: 0.02, 9: 0.002}
	factors := []int{2, 4}
	seeds := 2
	if !testing.Short() {
		factors = append(factors, 8)
		seeds = 3
	}
	for _, k := range []int{7, 9} {
		for _, f := range factors {
			var worstL1, worstRel, mean float64
			for seed := 0; seed < seeds; seed++ {
				l1, m, rel := ruleDiff(t, uint64(seed), 14, f, k, trained)
				worstL1 = math.Max(worstL1, l1)
				worstRel = math.Max(worstRel, rel)
				mean += m / float64(seeds)
			}
			t.Logf("K=%d x%d: weights L1 distance max %.3g mean %.3g; max |Y_K - Y_paper| / max|r_n| = %.3g", k, f, worstL1, mean, worstRel)
			if worstL1 > maxBound[k] || mean > meanBound[k] {
				t.Errorf("K=%d x%d: weights differ from the paper's rule by %.3g (L1, max) and %.3g (mean), bounds %.3g and %.3g",
					k, f, worstL1, mean, maxBound[k], meanBound[k])
			}
			if worstRel > worstL1*(1+1e-4)+1e-6 {
				t.Errorf("K=%d x%d: output difference %.3g exceeds its bound %.3g", k, f, worstRel, worstL1)
			}
		}
	}
}
