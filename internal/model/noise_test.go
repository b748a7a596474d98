package model

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// A model widened by WithNoiseInput renders exactly what the original
// renders, whatever the noise feature, until its new column is trained.
func TestWithNoiseInputExact(t *testing.T) {
	m, err := New(smallConfig(), 5)
	if err != nil {
		t.Fatal(err)
	}
	randomise(m, 6, 0.05)
	n, err := m.WithNoiseInput()
	if err != nil {
		t.Fatal(err)
	}
	if !n.Cfg.NoiseInput || m.Cfg.NoiseInput {
		t.Fatal("WithNoiseInput changed the original or did not set the flag")
	}
	if got, want := n.NumParams(), m.NumParams()+m.Cfg.FiLMHidden; got != want {
		t.Fatalf("%d parameters, want %d", got, want)
	}
	lr := testrand.Cube(testrand.New(9, 1), 7, 9, 12)
	want, err := m.Upscale(lr, 21, 27)
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range [][]float64{nil, make([]float64, 12), fill(12, 0.3)} {
		e, err := n.EncodeImageContext(context.Background(), lr, EncodeOptions{Noise: sig})
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Render(21, 27)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got.Data {
			if got.Data[i] != want.Data[i] {
				t.Fatalf("noise %v: value %d is %v, want %v", sig, i, got.Data[i], want.Data[i])
			}
		}
	}
	if again, _ := n.WithNoiseInput(); again != n {
		t.Fatal("widening a widened model made a copy")
	}
}

// randomPair returns a small model with random weights and a widened copy
// whose weights (the noise column included) are perturbed further.
func randomPair(t *testing.T, seed, noisySeed uint64) (m, n *Model) {
	t.Helper()
	m, err := New(smallConfig(), 5)
	if err != nil {
		t.Fatal(err)
	}
	randomise(m, seed, 0.05)
	if n, err = m.WithNoiseInput(); err != nil {
		t.Fatal(err)
	}
	randomise(n, noisySeed, 0.05)
	return m, n
}

func fill(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// Once the noise column is not zero, the noise level changes the output,
// and a model saved with NoiseInput loads with it.
func TestNoiseInputWired(t *testing.T) {
	_, n := randomPair(t, 7, 8)
	lr := testrand.Cube(testrand.New(3, 1), 8, 8, 5)
	render := func(mm *Model, sig []float64) []float32 {
		e, err := mm.EncodeImageContext(context.Background(), lr, EncodeOptions{Noise: sig})
		if err != nil {
			t.Fatal(err)
		}
		y, err := e.Render(16, 16)
		if err != nil {
			t.Fatal(err)
		}
		return y.Data
	}
	a, b := render(n, fill(5, 0)), render(n, fill(5, 0.2))
	var d float64
	for i := range a {
		d = max(d, math.Abs(float64(a[i]-b[i])))
	}
	if d == 0 {
		t.Fatal("the noise level does not change the output")
	}
	path := filepath.Join(t.TempDir(), "n.omw")
	if err := n.Save(path, nil); err != nil {
		t.Fatal(err)
	}
	l, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !l.Cfg.NoiseInput {
		t.Fatal("NoiseInput lost in the weight file")
	}
	c := render(l, fill(5, 0.2))
	for i := range c {
		if c[i] != b[i] {
			t.Fatalf("loaded model renders value %d as %v, want %v", i, c[i], b[i])
		}
	}
}

func TestNoiseLevel(t *testing.T) {
	m, err := New(smallConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	lr := testrand.Cube(testrand.New(2, 1), 6, 6, 4)
	nz, err := m.NoiseLevel(lr, []float64{0.1, 0.1, 0.2, 0.2})
	if err != nil {
		t.Fatal(err)
	}
	wantSigma := math.Sqrt((0.01 + 0.01 + 0.04 + 0.04) / 4)
	if math.Abs(nz.Sigma-wantSigma) > 1e-12 || nz.Estimated {
		t.Fatalf("given noise: %+v, want sigma %v, not estimated", nz, wantSigma)
	}
	if want := wantSigma * float64(InputScale(lr)); math.Abs(nz.Net-want) > 1e-6 || nz.Feature != NoiseFeature(nz.Net) {
		t.Fatalf("network units %v, want %v; feature %v", nz.Net, want, nz.Feature)
	}
	if NoiseFeature(0) != 0 || math.Abs(NoiseFeature(0.005)-1) > 1e-12 || NoiseFeature(-1) != 0 {
		t.Fatal("NoiseFeature: want 0 at 0 (and below), 1 at 0.005")
	}
	for _, bad := range [][]float64{{0.1}, {0.1, math.NaN(), 0, 0}, {0.1, -1, 0, 0}, {math.Inf(1), 0, 0, 0}} {
		if _, err := m.NoiseLevel(lr, bad); err == nil {
			t.Errorf("noise %v: no error", bad)
		}
	}
	est, err := m.NoiseLevel(lr, nil)
	if err != nil || !est.Estimated || !(est.Sigma > 0) {
		t.Fatalf("estimated: %+v, %v", est, err)
	}
}

// A pair routes by the noise feature, for the plain model and the
// self-ensemble alike, and inputs too small to estimate count as clean.
func TestWithNoisyRouting(t *testing.T) {
	m, n := randomPair(t, 6, 7)
	pair, err := m.WithNoisy(n, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c, g := pair.Noisy(); c != n || g != 1 {
		t.Fatal("Noisy does not return the companion and gate")
	}
	lr := testrand.Cube(testrand.New(4, 1), 10, 12, 6) // uniform noise of std 0.29 around 0.5: feature about 5
	for _, tc := range []struct {
		name   string
		sigmas []float64
		routed bool
	}{{"estimated", nil, true}, {"given clean", make([]float64, 6), false}, {"given noisy", fill(6, 0.3), true}} {
		e, err := pair.EncodeImageContext(context.Background(), lr, EncodeOptions{Noise: tc.sigmas})
		if err != nil {
			t.Fatal(err)
		}
		if e.Noise().Routed != tc.routed {
			t.Errorf("%s: routed %v (feature %.2f), want %v", tc.name, e.Noise().Routed, e.Noise().Feature, tc.routed)
		}
		want, err := map[bool]*Model{false: m, true: n}[tc.routed].EncodeImageContext(context.Background(), lr, EncodeOptions{Noise: tc.sigmas})
		if err != nil {
			t.Fatal(err)
		}
		if g := e.Noise().Gain; !(g >= 0 && g <= 1) || !tc.routed && g != 1 {
			t.Errorf("%s: field gain %v", tc.name, g)
		}
		// The pair renders the chosen model's operators scaled by the gain.
		want.noise.Routed, want.noise.Gain = e.Noise().Routed, e.Noise().Gain
		a, _ := e.Render(20, 24)
		b, _ := want.Render(20, 24)
		for i := range a.Data {
			if a.Data[i] != b.Data[i] {
				t.Fatalf("%s: the pair's output differs from the chosen model's at %d", tc.name, i)
			}
		}
		ens, err := pair.EncodeEnsemble(lr.Clone(), 8)
		if err != nil {
			t.Fatal(err)
		}
		if tc.sigmas == nil && ens.Noise().Routed != tc.routed {
			t.Errorf("%s: the self-ensemble routed %v", tc.name, ens.Noise().Routed)
		}
	}
	tiny := testrand.Cube(testrand.New(5, 1), 2, 2, 6)
	if _, err := pair.EncodeEnsemble(tiny, 8); err != nil {
		t.Fatalf("2 x 2 input: %v", err)
	}
	e, err := pair.EncodeImage(tiny)
	if err != nil || e.Noise().Routed {
		t.Fatalf("2 x 2 input: %v, routed %v", err, e != nil && e.Noise().Routed)
	}
	if _, err := m.WithNoisy(m, 1); err == nil {
		t.Error("a companion without a noise input accepted")
	}
	if _, err := m.WithNoisy(n, math.NaN()); err == nil {
		t.Error("a NaN gate accepted")
	}
}

// A fill value such as EMIT's -9999 does not enter the noise level's
// network units: they are those of the filled cube the network sees, for
// the plain model and the self-ensemble alike.
func TestNoiseUnitsIgnoreFill(t *testing.T) {
	m, n := randomPair(t, 6, 7)
	pair, err := m.WithNoisy(n, 1)
	if err != nil {
		t.Fatal(err)
	}
	lr := testrand.Cube(testrand.New(8, 1), 10, 12, 6)
	lr.Meta.DataIgnore, lr.Meta.HasDataIgnore = -9999, true
	for y := range 3 {
		for b := range lr.B {
			lr.Set(y, 5, b, -9999)
		}
	}
	filled, _, err := hsi.FillNoData(lr)
	if err != nil {
		t.Fatal(err)
	}
	sigmas := fill(6, 0.05)
	want := 0.05 * float64(InputScale(filled))
	if float64(InputScale(lr))*0.05 > want/100 {
		t.Fatalf("the fill does not change the scale of this cube: the test cannot tell")
	}
	e, err := pair.EncodeImageContext(context.Background(), lr, EncodeOptions{Noise: sigmas})
	if err != nil {
		t.Fatal(err)
	}
	ens, err := pair.EncodeEnsembleContext(context.Background(), lr, 2, EncodeOptions{Noise: sigmas})
	if err != nil {
		t.Fatal(err)
	}
	for name, nz := range map[string]Noise{"image": e.Noise(), "self-ensemble": ens.Noise()} {
		if math.Abs(nz.Net-want) > 1e-6*want || nz.Feature != NoiseFeature(nz.Net) || !nz.Routed {
			t.Errorf("%s: network units %v (feature %.2f, routed %v), want %v from the filled cube", name, nz.Net, nz.Feature, nz.Routed, want)
		}
	}
}

// NoiseNet inverts NoiseFeature, so that a gate in feature units reads as
// a share of the signal (the shipped gate, 2.20, is 1.80 %).
func TestNoiseNetInvertsFeature(t *testing.T) {
	for _, net := range []float64{0, 0.001, 0.005, 0.0179, 0.1, 2} {
		if got := NoiseNet(NoiseFeature(net)); math.Abs(got-net) > 1e-12*(1+net) {
			t.Errorf("NoiseNet(NoiseFeature(%g)) = %g", net, got)
		}
	}
	if got := 100 * NoiseNet(2.20); math.Abs(got-1.7976) > 1e-3 {
		t.Errorf("gate 2.20 is %.4f %% of the signal, want 1.7976", got)
	}
}
