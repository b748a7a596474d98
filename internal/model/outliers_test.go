package model

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/noise"
)

// Bands whose estimated noise is far above their neighbours' (noise.Outliers)
// are left out of the pair's noise level, routing and field gain, and
// still rendered; EncodeOptions.KeepNoisyBands keeps them in; a clean input renders
// the same either way.
func TestNoisyBandsScreened(t *testing.T) {
	pair, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	clean := scene(48, 48, 40, 0.002, 5)
	lr := clean.Clone()
	garbage := []int{20, 21, 22, 23, 24}
	r := rand.New(rand.NewPCG(9, 9))
	for p := 0; p < lr.H*lr.W; p++ {
		for _, b := range garbage {
			lr.Data[p*lr.B+b] = float32(0.05*float64(lr.Data[p*lr.B+b]) + 0.1*r.NormFloat64())
		}
	}
	screened, err := pair.EncodeImage(lr)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := pair.EncodeImageContext(context.Background(), lr, EncodeOptions{KeepNoisyBands: true})
	if err != nil {
		t.Fatal(err)
	}
	ns, nk := screened.Noise(), kept.Noise()
	var got []int
	for _, o := range ns.Outliers {
		got = append(got, o.Band)
	}
	if !slices.Equal(got, garbage) || nk.Outliers != nil {
		t.Fatalf("outliers %v (kept: %v), want %v", got, nk.Outliers, garbage)
	}
	sig, err := noise.Bands(lr, true)
	if err != nil {
		t.Fatal(err)
	}
	var rest []float64
	for b, s := range sig {
		if !slices.Contains(garbage, b) {
			rest = append(rest, s)
		}
	}
	if want := noise.Level(rest); ns.Sigma != want || !(nk.Sigma > 5*ns.Sigma) {
		t.Errorf("noise %v (kept in: %v), want %v without the garbage bands", ns.Sigma, nk.Sigma, want)
	}
	if ns.Routed || !nk.Routed {
		t.Errorf("routed %v with the garbage bands screened, %v with them kept: want false, true", ns.Routed, nk.Routed)
	}
	out, err := screened.Render(96, 96)
	if err != nil {
		t.Fatal(err)
	}
	if out.B != lr.B {
		t.Errorf("%d bands rendered, want all %d", out.B, lr.B)
	}
	// A clean input: nothing screened, the same output bit for bit.
	a, err := pair.Upscale(clean, 96, 96)
	if err != nil {
		t.Fatal(err)
	}
	eb, err := pair.EncodeImageContext(context.Background(), clean, EncodeOptions{KeepNoisyBands: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := eb.Render(96, 96)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Data, b.Data) {
		t.Error("a clean input renders differently with the screening on")
	}
}
