package model

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

func TestGainOf(t *testing.T) {
	u := []float32{0, 1, 2, 3}
	p := []float32{1, 0, 4, 3}
	target := func(g float32) []float32 {
		out := make([]float32, len(u))
		for i := range u {
			out[i] = u[i] + g*(p[i]-u[i])
		}
		return out
	}
	for _, tc := range []struct {
		name string
		p, t []float32
		want float64
	}{
		{"half", p, target(0.5), 0.5},
		{"whole", p, target(1), 1},
		{"none", p, u, 0},
		{"opposite, clamped", p, target(-1), 0},
		{"beyond, clamped", p, target(3), 1},
		{"no field", u, p, 1},
	} {
		if got := gainOf(u, tc.p, tc.t); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: gain %v, want %v", tc.name, got, tc.want)
		}
	}
}

// scene is a cube with edges and texture, values in [0, 1], plus white
// noise of standard deviation sigma.
func scene(h, w, b int, sigma float64, seed uint64) *hsi.Cube {
	c, _ := hsi.New(h, w, b)
	rng := rand.New(rand.NewPCG(seed, 3))
	for y := range h {
		for x := range w {
			for k := range b {
				v := 0.3 + 0.2*math.Sin(float64(x)/3+float64(k)/5)*math.Cos(float64(y)/4)
				if (x/7+y/9)%2 == 0 {
					v += 0.3
				}
				c.Data[(y*w+x)*b+k] = float32(v + sigma*rng.NormFloat64())
			}
		}
	}
	return c
}

// The pair's output for a routed input is U_s X plus the companion's
// operator field times the measured gain.
func TestFieldGainScalesField(t *testing.T) {
	m, n := randomPair(t, 6, 7)
	pair, err := m.WithNoisy(n, 1)
	if err != nil {
		t.Fatal(err)
	}
	lr := testrand.Cube(testrand.New(4, 1), 16, 18, 6)
	e, err := pair.EncodeImage(lr)
	if err != nil {
		t.Fatal(err)
	}
	nz := e.Noise()
	if !nz.Routed || !(nz.Gain >= 0 && nz.Gain <= 1) {
		t.Fatalf("routed %v, gain %v", nz.Routed, nz.Gain)
	}
	got, err := e.Render(40, 45)
	if err != nil {
		t.Fatal(err)
	}
	c, err := n.EncodeImage(lr)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := c.Render(40, 45)
	if err != nil {
		t.Fatal(err)
	}
	c.noise.Routed, c.noise.Gain = true, 0
	us, err := c.Render(40, 45)
	if err != nil {
		t.Fatal(err)
	}
	var field float64
	for i, v := range got.Data {
		f := float64(whole.Data[i] - us.Data[i])
		field = max(field, math.Abs(f))
		want := float64(us.Data[i]) + nz.Gain*f
		if math.Abs(float64(v)-want) > 1e-5 {
			t.Fatalf("value %d: %v, want U_s X + %.4f * field = %v", i, v, nz.Gain, want)
		}
	}
	if field < 1e-3 {
		t.Fatalf("the companion's field is %g: the test cannot tell a gain", field)
	}
}

// The trained companion keeps more of its field where the input's detail
// stands above its noise than where noise drowns it, and an input too
// small to halve keeps all of it.
func TestFieldGainFollowsNoise(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	comp, _ := m.Noisy()
	gain := func(sigma float64) float64 {
		t.Helper()
		c := scene(48, 48, 8, sigma, 1)
		s, err := comp.NoiseLevel(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		g, err := comp.fieldGain(context.Background(), c, s.bands)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	light, heavy := gain(0.005), gain(0.1)
	t.Logf("gain %.3f at noise 0.005, %.3f at 0.1", light, heavy)
	if !(heavy < light) {
		t.Errorf("gain %.3f at noise 0.1, not below its %.3f at 0.005", heavy, light)
	}
	c := scene(4, 40, 8, 0.1, 1)
	if g, err := comp.fieldGain(context.Background(), c, fill(8, 0.1)); err != nil || g != 1 {
		t.Errorf("4-row input: gain %v, %v; want 1", g, err)
	}
}
