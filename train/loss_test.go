package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/resample"
)

func rcube(r *rand.Rand, h, w, b int) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	for i := range c.Data {
		c.Data[i] = 0.1 + 0.8*r.Float32()
	}
	return c
}

// The loss gradient (including the adjoint of the downsampling in the
// consistency term) agrees with central finite differences.
func TestLossGradientFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	hr := rcube(r, 11, 9, 4)
	lr, err := resample.Downsample(hr, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	y := rcube(r, 11, 9, 4)
	_, g, err := Loss(y, hr, lr, PaperLoss)
	if err != nil {
		t.Fatal(err)
	}
	f := func(c *hsi.Cube) float64 {
		p, _, err := Loss(c, hr, lr, PaperLoss)
		if err != nil {
			t.Fatal(err)
		}
		return p.Total
	}
	const eps = 1e-3
	bad := 0
	for i := 0; i < len(y.Data); i += 3 {
		c := y.Clone()
		c.Data[i] += eps
		fp := f(c)
		c.Data[i] -= 2 * eps
		fm := f(c)
		fd := (fp - fm) / (2 * eps)
		if math.Abs(fd-float64(g[i])) > 2e-2*math.Abs(fd)+2e-6 {
			bad++
			t.Errorf("element %d: analytic %g, finite difference %g", i, g[i], fd)
		}
		if bad > 5 {
			t.FailNow()
		}
	}
}

// The extracted downsampling matrix reproduces resample.Downsample.
func TestDownMatrixMatchesDownsample(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	c := rcube(r, 13, 17, 2)
	d, _ := resample.Downsample(c, 5, 4)
	rows, _ := downMatrix(13, 5)
	cols, _ := downMatrix(17, 4)
	for i := 0; i < 5; i++ {
		for j := 0; j < 4; j++ {
			for b := 0; b < 2; b++ {
				var s float64
				for ki, wy := range rows.w[i] {
					for kj, wx := range cols.w[j] {
						s += float64(wy) * float64(wx) * float64(c.At(rows.first[i]+ki, cols.first[j]+kj, b))
					}
				}
				if math.Abs(s-float64(d.At(i, j, b))) > 1e-5 {
					t.Fatalf("(%d,%d,%d): %v vs %v", i, j, b, s, d.At(i, j, b))
				}
			}
		}
	}
}
