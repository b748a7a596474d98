package noise

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// garbageBands replaces bands with a tenth of their signal plus Gaussian
// noise of sd (a water-vapour band after atmospheric correction).
func garbageBands(c *hsi.Cube, bands []int, sd float64, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 3))
	for p := 0; p < c.H*c.W; p++ {
		for _, b := range bands {
			i := p*c.B + b
			c.Data[i] = float32(0.1*float64(c.Data[i]) + sd*r.NormFloat64())
		}
	}
}

func outlierBands(out []Outlier) []int {
	var b []int
	for _, o := range out {
		b = append(b, o.Band)
	}
	return b
}

func TestOutliers(t *testing.T) {
	block := []int{30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41}
	for _, tc := range []struct {
		name string
		make func() *hsi.Cube
		want []int
	}{
		{"clean", func() *hsi.Cube { return scene(48, 48, 80, 1) }, nil},
		{"white noise", func() *hsi.Cube {
			c := scene(48, 48, 80, 2)
			Spec{Kind: White, Sigma: 0.02}.Add(c, rand.New(rand.NewPCG(1, 1)))
			return c
		}, nil},
		{"sensor profile (peaks 6x at the water vapour bands)", func() *hsi.Cube {
			c := scene(48, 48, 80, 3)
			Spec{Kind: Profile, Sigma: 0.01, Band: SensorProfile(nil, 80)}.Add(c, rand.New(rand.NewPCG(1, 2)))
			return c
		}, nil},
		{"a block of garbage bands", func() *hsi.Cube {
			c := scene(48, 48, 80, 4)
			Spec{Kind: White, Sigma: 0.002}.Add(c, rand.New(rand.NewPCG(1, 3)))
			garbageBands(c, block, 0.05, 1)
			return c
		}, block},
		{"garbage at a detector edge", func() *hsi.Cube {
			c := scene(48, 48, 80, 5)
			Spec{Kind: White, Sigma: 0.002}.Add(c, rand.New(rand.NewPCG(1, 4)))
			garbageBands(c, []int{0, 1, 79}, 0.05, 2)
			return c
		}, []int{0, 1, 79}},
		{"noisy against its neighbours but small against its signal", func() *hsi.Cube {
			c := scene(48, 48, 80, 6)
			Spec{Kind: White, Sigma: 0.0005}.Add(c, rand.New(rand.NewPCG(1, 5)))
			r := rand.New(rand.NewPCG(2, 5))
			for p := 0; p < c.H*c.W; p++ {
				c.Data[p*c.B+50] += float32(0.01 * r.NormFloat64()) // 20x the others, ~3 % of the signal
			}
			return c
		}, nil},
		{"seven bands: none judged", func() *hsi.Cube {
			c := scene(48, 48, 7, 7)
			garbageBands(c, []int{3}, 0.1, 3)
			return c
		}, nil},
	} {
		c := tc.make()
		sig, err := Bands(c, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := outlierBands(Outliers(c, sig)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: outliers %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Quantised bands whose estimated noise is 0 do not make a neighbour with
// a little noise an outlier: the reference is at least a quarter of the
// median over all bands.
func TestOutliersFloor(t *testing.T) {
	c := scene(16, 16, 20, 8)
	sig := make([]float64, 20)
	for b := range sig {
		sig[b] = 0.001
	}
	for b := 5; b < 12; b++ {
		sig[b] = 0
	}
	sig[8] = 0.003 // 3x the median, infinitely more than its neighbours
	if out := Outliers(c, sig); out != nil {
		t.Errorf("outliers %v", out)
	}
	sig[8] = 0.1 // 400x the floor, over 10 % of its signal (about 0.2-0.5)
	if got := outlierBands(Outliers(c, sig)); !slices.Equal(got, []int{8}) {
		t.Errorf("outliers %v, want [8]", got)
	}
}
