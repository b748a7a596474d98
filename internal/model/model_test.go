package model

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/internal/cofr"
	"github.com/omnihsr/omnihsr/internal/nn"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

func smallConfig() Config {
	cfg := DefaultConfig()
	cfg.Encoder.C = 8
	cfg.Encoder.Blocks = 1
	cfg.Encoder.FFNRatio = 2
	cfg.FiLMHidden = 8
	return cfg
}

func TestParamCount(t *testing.T) {
	m, err := New(DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	n := m.NumParams()
	t.Logf("default model: %d parameters", n)
	// Encoder 487,648 + FiLM (1*64+64 + 64*64+64) + head 9,248 + geometry 198 + operator 825.
	want := 487648 + (64 + 64 + 64*64 + 64) + 9248 + 198 + 825
	if n != want {
		t.Fatalf("parameters = %d, want %d", n, want)
	}
}

// A fresh model has zero operators, so it must reproduce bicubic
// interpolation bit for bit, for any band count and factor.
func TestZeroOperatorsReproduceBicubic(t *testing.T) {
	m, err := New(smallConfig(), 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ h, w, b, oh, ow int }{
		{9, 11, 1, 18, 22}, {8, 8, 2, 20, 20}, {7, 5, 31, 28, 20}, {6, 6, 103, 23, 23}, {5, 7, 3, 240, 336},
	} {
		lr := testrand.Cube(testrand.New(uint64(c.b), 1), c.h, c.w, c.b)
		got, err := m.Upscale(lr, c.oh, c.ow)
		if err != nil {
			t.Fatal(err)
		}
		want, err := resample.Upsample(lr, c.oh, c.ow)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got.Data {
			if got.Data[i] != want.Data[i] {
				t.Fatalf("%+v: value %d: %v != bicubic %v", c, i, got.Data[i], want.Data[i])
			}
		}
	}
}

// randomise gives every parameter a random value so that the operators are
// not zero.
func randomise(m *Model, seed uint64, std float32) {
	r := rand.New(rand.NewPCG(seed, 9))
	for _, p := range m.Params() {
		for i := range p.T.Data {
			p.T.Data[i] += std * float32(r.NormFloat64())
		}
	}
}

// Scaling the input by a positive constant scales the output by the same
// constant (input normalisation inside the model).
func TestScaleEquivariance(t *testing.T) {
	m, _ := New(smallConfig(), 4)
	randomise(m, 5, 0.05)
	lr := testrand.Cube(testrand.New(7, 1), 10, 9, 5)
	y1, err := m.Upscale(lr, 25, 22)
	if err != nil {
		t.Fatal(err)
	}
	bic, _ := resample.Upsample(lr, 25, 22)
	var diff float64
	for i := range y1.Data {
		diff = max(diff, math.Abs(float64(y1.Data[i]-bic.Data[i])))
	}
	if diff < 1e-4 {
		t.Fatalf("randomised model is bicubic (max diff %g): the test would prove nothing", diff)
	}
	for _, a := range []float32{1e-3, 7, 4096} {
		x := lr.Clone()
		for i := range x.Data {
			x.Data[i] *= a
		}
		y2, err := m.Upscale(x, 25, 22)
		if err != nil {
			t.Fatal(err)
		}
		for i := range y2.Data {
			if d := math.Abs(float64(y2.Data[i]/a - y1.Data[i])); d > 1e-5 {
				t.Fatalf("scale %g: value %d: %v vs %v", a, i, y2.Data[i]/a, y1.Data[i])
			}
		}
	}
}

func TestNegativeAndOneBandInputs(t *testing.T) {
	m, _ := New(smallConfig(), 4)
	randomise(m, 6, 0.05)
	for _, b := range []int{1, 2, 3} {
		lr := testrand.Cube(testrand.New(uint64(b), 1), 6, 6, b)
		for i := range lr.Data {
			lr.Data[i] -= 0.5
		}
		y, err := m.Upscale(lr, 15, 15)
		if err != nil {
			t.Fatal(err)
		}
		if err := y.CheckFinite(); err != nil {
			t.Fatal(err)
		}
	}
}

// RawGrad is the exact chain rule through Primitives: compare with central
// differences of a random linear functional of the primitives.
func TestRawGradFiniteDifferences(t *testing.T) {
	const h, w = 2, 3
	r := rand.New(rand.NewPCG(11, 2))
	raw := make([]float32, h*w*RawChans)
	for i := range raw {
		raw[i] = float32(r.NormFloat64())
	}
	raw[rawSigma1] = 5 // clipped at 2.5: zero gradient
	n := h * w
	coef := &cofr.Grads{
		OffY: rnd(r, n), OffX: rnd(r, n), Sigma1: rnd(r, n), Sigma2: rnd(r, n),
		Theta: rnd(r, n), Alpha: rnd(r, n), K: rnd(r, n*cofr.Taps),
	}
	f := func(raw []float32) float64 {
		p, err := Primitives(raw, h, w)
		if err != nil {
			t.Fatal(err)
		}
		var s float64
		dot := func(a, b []float32) {
			for i := range a {
				s += float64(a[i]) * float64(b[i])
			}
		}
		dot(p.OffY, coef.OffY)
		dot(p.OffX, coef.OffX)
		dot(p.Sigma1, coef.Sigma1)
		dot(p.Sigma2, coef.Sigma2)
		dot(p.Theta, coef.Theta)
		dot(p.Alpha, coef.Alpha)
		dot(p.K, coef.K)
		return s
	}
	g := RawGrad(raw, coef)
	const eps = 1e-2
	for i := range raw {
		x := append([]float32(nil), raw...)
		x[i] += eps
		fp := f(x)
		x[i] -= 2 * eps
		fm := f(x)
		fd := (fp - fm) / (2 * eps)
		if math.Abs(fd-float64(g[i])) > 2e-3*max(1, math.Abs(fd)) {
			t.Fatalf("raw %d (channel %d): analytic %v, finite difference %v", i, i%RawChans, g[i], fd)
		}
	}
}

func rnd(r *rand.Rand, n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(r.NormFloat64())
	}
	return out
}

func TestPrimitivesRanges(t *testing.T) {
	raw := make([]float32, RawChans)
	for i := range raw {
		raw[i] = 100
	}
	p, err := Primitives(raw, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if p.Sigma1[0] != SigmaMax || p.Alpha[0] > 1 || p.OffY[0] > 0.5 || p.Theta[0] > float32(math.Pi) {
		t.Fatalf("out of range: %+v", p)
	}
	var s float64
	for _, v := range p.K {
		s += float64(v)
	}
	if math.Abs(s) > 1e-4 {
		t.Fatalf("operator sums to %g", s)
	}
	if _, err := Primitives(raw, 2, 1); err == nil {
		t.Fatal("wrong length accepted")
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	m, _ := New(smallConfig(), 4)
	randomise(m, 8, 0.1)
	p := filepath.Join(t.TempDir(), "m.omw")
	if err := m.Save(p, []byte(`{"note":"test"}`)); err != nil {
		t.Fatal(err)
	}
	m2, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	lr := testrand.Cube(testrand.New(3, 1), 6, 7, 4)
	a, _ := m.Upscale(lr, 13, 15)
	b, _ := m2.Upscale(lr, 13, 15)
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			t.Fatalf("value %d differs after reload", i)
		}
	}
	os.WriteFile(p, []byte("not a model"), 0o644)
	if _, err := Load(p); err == nil {
		t.Fatal("garbage accepted")
	}
}

func TestDefaultModelLoads(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	lr := testrand.Cube(testrand.New(5, 1), 8, 8, 31)
	y, err := m.Upscale(lr, 32, 32)
	if err != nil {
		t.Fatal(err)
	}
	if err := y.CheckFinite(); err != nil {
		t.Fatal(err)
	}
}

// The band-by-band inference equals the whole-image graph (ESSA included)
// even when the bands are a few rows high.
func TestBandedInferenceMatchesWholeImage(t *testing.T) {
	m, _ := New(smallConfig(), 4)
	randomise(m, 12, 0.1)
	lr := testrand.Cube(testrand.New(13, 1), 23, 17, 6)
	z, _ := m.Input(lr)
	g := nn.NewGraph(false)
	whole := m.HeadRaw(g, m.Encode(g, z), 3.3, 0)
	old := chunkFloats
	defer func() { chunkFloats = old }()
	for _, cf := range []int{17 * 8 * 3, 17 * 8 * 16, 1 << 20} {
		chunkFloats = cf
		e, err := m.EncodeImage(lr)
		if err != nil {
			t.Fatal(err)
		}
		raw := m.headBands(e.feat, 3.3, 0)
		var worst float64
		for i, v := range raw.Data {
			d := math.Abs(float64(v-whole.Data[i])) / max(1, math.Abs(float64(whole.Data[i])))
			worst = max(worst, d)
		}
		t.Logf("chunk %d floats (%d rows): largest relative difference %.2g", cf, chunkRows(17, 16), worst)
		if worst > 1e-4 {
			t.Fatalf("chunk %d floats: banded head output differs from whole image by %g", cf, worst)
		}
	}
}
