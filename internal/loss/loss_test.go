package loss

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

// rcube is a random cube with values in [0.1, 0.9).
func rcube(r *rand.Rand, h, w, b int) *hsi.Cube {
	c := testrand.Cube(r, h, w, b)
	for i, v := range c.Data {
		c.Data[i] = 0.1 + 0.8*v
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
	_, g, err := Compute(y, hr, lr, Paper)
	if err != nil {
		t.Fatal(err)
	}
	f := func(c *hsi.Cube) float64 {
		p, _, err := Compute(c, hr, lr, Paper)
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
