package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/internal/cofr"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

func variantConfig(v string) Config {
	cfg := smallConfig()
	cfg.Variant = v
	return cfg
}

func TestVariantConfig(t *testing.T) {
	for _, v := range Variants {
		m, err := New(variantConfig(v), 1)
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		want := cofr.Taps
		if v == VariantSpectral {
			want = m.Cfg.M
		}
		if len(m.Op.B.Data) != want || m.Cfg.HeadChans() != 6+want {
			t.Fatalf("%q: operator layer has %d outputs, head %d channels; want %d", v, len(m.Op.B.Data), m.Cfg.HeadChans(), want)
		}
		for _, x := range append(append([]float32(nil), m.Op.W.Data...), m.Op.B.Data...) {
			if x != 0 {
				t.Fatalf("%q: operator layer not zero-initialised", v)
			}
		}
	}
	if _, err := New(variantConfig("no-such-variant"), 1); err == nil {
		t.Fatal("unknown variant accepted")
	}
	// OmniHSR's configuration has no variant field, so weight files written
	// before variants existed are the same bytes.
	b, _ := json.Marshal(DefaultConfig())
	if bytes.Contains(b, []byte("variant")) {
		t.Fatalf("OmniHSR configuration mentions a variant: %s", b)
	}
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if m.Cfg.Variant != VariantOmniHSR {
		t.Fatalf("embedded model loads as variant %q", m.Cfg.Variant)
	}
}

// Weight files keep the variant: a reloaded model renders the same bits.
func TestVariantSaveLoadRoundTrip(t *testing.T) {
	for _, v := range Variants[1:] {
		m, _ := New(variantConfig(v), 4)
		randomise(m, 8, 0.1)
		p := filepath.Join(t.TempDir(), "m.omw")
		if err := m.Save(p, nil); err != nil {
			t.Fatal(err)
		}
		m2, err := Load(p)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if m2.Cfg.Variant != v {
			t.Fatalf("%s: reloaded as %q", v, m2.Cfg.Variant)
		}
		lr := testrand.Cube(testrand.New(3, 1), 6, 7, 4)
		a, err := m.Upscale(lr, 13, 15)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := m2.Upscale(lr, 13, 15)
		for i := range a.Data {
			if a.Data[i] != b.Data[i] {
				t.Fatalf("%s: value %d differs after reload", v, i)
			}
		}
	}
}

// Zero-initialised operator layers: free-kernel and lowres render bicubic
// interpolation bit for bit, spectral renders zero.
func TestVariantZeroInit(t *testing.T) {
	for _, v := range Variants[1:] {
		m, _ := New(variantConfig(v), 3)
		for _, c := range []struct{ h, w, b, oh, ow int }{{9, 11, 1, 18, 22}, {7, 5, 31, 28, 20}, {6, 6, 103, 23, 23}} {
			lr := testrand.Cube(testrand.New(uint64(c.b), 1), c.h, c.w, c.b)
			got, err := m.Upscale(lr, c.oh, c.ow)
			if err != nil {
				t.Fatalf("%s %+v: %v", v, c, err)
			}
			want, _ := resample.Upsample(lr, c.oh, c.ow)
			for i := range got.Data {
				w := want.Data[i]
				if v == VariantSpectral {
					w = 0
				}
				if got.Data[i] != w {
					t.Fatalf("%s %+v: value %d: %v, want %v", v, c, i, got.Data[i], w)
				}
			}
		}
	}
}

// randomRaw draws a raw head output with non-trivial geometry and values.
func randomRaw(r *rand.Rand, n, chans int) []float32 {
	raw := make([]float32, n*chans)
	for i := range raw {
		raw[i] = float32(0.6 * r.NormFloat64())
		if i%chans >= rawK {
			raw[i] = float32(0.2 * r.NormFloat64())
		}
	}
	return raw
}

// The lowres variant is U_s(X + r) with r the zero-sum operators applied on
// the low-res grid (checked against a direct sum), and it ignores the
// geometry.
func TestLowResForward(t *testing.T) {
	m, _ := New(variantConfig(VariantLowRes), 1)
	r := rand.New(rand.NewPCG(2, 3))
	const h, w, B, H, W = 5, 6, 4, 13, 14
	lr := testrand.Cube(testrand.New(9, 1), h, w, B)
	raw := randomRaw(r, h*w, m.Cfg.HeadChans())
	out, err := m.NewOutput(lr, raw, H, W)
	if err != nil {
		t.Fatal(err)
	}
	y, err := out.Render()
	if err != nil {
		t.Fatal(err)
	}
	xr := lr.Clone()
	chans := m.Cfg.HeadChans()
	for i := 0; i < h; i++ {
		for j := 0; j < w; j++ {
			n := i*w + j
			k := raw[n*chans+rawK : n*chans+rawK+cofr.Taps]
			var mean float64
			for _, v := range k {
				mean += float64(v) / cofr.Taps
			}
			for b := 0; b < B; b++ {
				var s float64
				for t := 0; t < cofr.Taps; t++ {
					yy, xx := min(max(i+t/5-2, 0), h-1), min(max(j+t%5-2, 0), w-1)
					s += (float64(k[t]) - mean) * float64(lr.At(yy, xx, b))
				}
				xr.Data[n*B+b] += float32(s)
			}
		}
	}
	want, _ := resample.Upsample(xr, H, W)
	var diff, bic float64
	b0, _ := resample.Upsample(lr, H, W)
	for i := range want.Data {
		diff = max(diff, math.Abs(float64(y.Data[i]-want.Data[i])))
		bic = max(bic, math.Abs(float64(y.Data[i]-b0.Data[i])))
	}
	if diff > 1e-5 || bic < 1e-3 {
		t.Fatalf("largest difference from U_s(X + r) %g, from bicubic %g", diff, bic)
	}
	raw2 := append([]float32(nil), raw...)
	for n := 0; n < h*w; n++ {
		for c := 0; c < rawK; c++ {
			raw2[n*chans+c] += 1
		}
	}
	out2, _ := m.NewOutput(lr, raw2, H, W)
	y2, _ := out2.Render()
	for i := range y.Data {
		if y.Data[i] != y2.Data[i] {
			t.Fatal("lowres output depends on the geometry")
		}
	}
}

// Every variant's Output.Backward against central differences of
// L = <dY, Y(raw)>.
func TestOutputBackwardFiniteDifferences(t *testing.T) {
	for vi, v := range Variants {
		for _, B := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/B=%d", VariantLabel(v), B), func(t *testing.T) {
				cfg := variantConfig(v)
				cfg.M, cfg.Encoder.In = 7, 7 // a short spectrum keeps the test small
				m, err := New(cfg, 1)
				if err != nil {
					t.Fatal(err)
				}
				r := rand.New(rand.NewPCG(uint64(vi), uint64(B)))
				const h, w, H, W = 4, 5, 10, 13
				lr := testrand.Cube(testrand.New(uint64(10+vi), 1), h, w, B)
				for i := range lr.Data {
					lr.Data[i] = 3 * (lr.Data[i] + 0.2) // input units other than 1
				}
				chans := m.Cfg.HeadChans()
				raw := randomRaw(r, h*w, chans)
				dY := make([]float32, H*W*B)
				for i := range dY {
					dY[i] = float32(r.NormFloat64())
				}
				loss := func(raw []float32) float64 {
					out, err := m.NewOutput(lr, raw, H, W)
					if err != nil {
						t.Fatal(err)
					}
					y, err := out.Render()
					if err != nil {
						t.Fatal(err)
					}
					var l float64
					for i, v := range y.Data {
						l += float64(v) * float64(dY[i])
					}
					return l
				}
				out, _ := m.NewOutput(lr, raw, H, W)
				g, err := out.Backward(dY)
				if err != nil {
					t.Fatal(err)
				}
				const eps = 1e-2
				worst := make([]float64, chans)
				scale := make([]float64, chans)
				for i := range raw {
					x := append([]float32(nil), raw...)
					x[i] += eps
					lp := loss(x)
					x[i] -= 2 * eps
					lm := loss(x)
					fd := (lp - lm) / (2 * eps)
					c := i % chans
					worst[c] = max(worst[c], math.Abs(fd-float64(g[i])))
					scale[c] = max(scale[c], math.Abs(fd))
				}
				var worstRel float64
				for c := range worst {
					if scale[c] > 0 {
						worstRel = max(worstRel, worst[c]/scale[c])
					}
				}
				t.Logf("largest relative error over the channels: %.2g", worstRel)
				for c := range worst {
					unused := v == VariantLowRes && c < rawK
					if unused {
						if scale[c] != 0 || worst[c] != 0 {
							t.Errorf("channel %d: lowres geometry has gradient %g (finite difference %g)", c, worst[c], scale[c])
						}
						continue
					}
					if scale[c] == 0 {
						if v == VariantSpectral && c >= rawK && worst[c] == 0 {
							continue // a reference position between no two bands (B = 1, 4 of M = 7)
						}
						t.Errorf("channel %d: zero gradient, nothing checked", c)
						continue
					}
					if rel := worst[c] / scale[c]; rel > 1e-2 {
						t.Errorf("channel %d: largest error %.3g of %.3g (relative %.3g)", c, worst[c], scale[c], rel)
					}
				}
			})
		}
	}
}

// The spectral variant: values in the input's units (scaling the input
// scales the output), any band count, and B = 1 takes reference position
// 0.5.
func TestSpectralVariant(t *testing.T) {
	m, _ := New(variantConfig(VariantSpectral), 4)
	randomise(m, 5, 0.05)
	for _, b := range []int{1, 2, 31, 103} {
		lr := testrand.Cube(testrand.New(uint64(b), 1), 7, 6, b)
		y1, err := m.Upscale(lr, 17, 15)
		if err != nil {
			t.Fatal(err)
		}
		var mx float64
		for _, v := range y1.Data {
			mx = max(mx, math.Abs(float64(v)))
		}
		if mx == 0 {
			t.Fatalf("B=%d: randomised spectral model renders zero", b)
		}
		x := lr.Clone()
		for i := range x.Data {
			x.Data[i] *= 250
		}
		y2, _ := m.Upscale(x, 17, 15)
		for i := range y2.Data {
			if d := math.Abs(float64(y2.Data[i]/250 - y1.Data[i])); d > 1e-5*max(1, mx) {
				t.Fatalf("B=%d: value %d: %v vs %v", b, i, y2.Data[i]/250, y1.Data[i])
			}
		}
	}
	bm, _ := NewBandMap(31, 1)
	if bm.Lo[0] != 15 || bm.Wlo[0] != 1 {
		t.Fatalf("one band takes reference %d (weight %v), want position 0.5 = reference 15", bm.Lo[0], bm.Wlo[0])
	}
}

// ApplyT is the transpose of Apply.
func TestBandMapTranspose(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range [][2]int{{1, 31}, {31, 1}, {2, 31}, {31, 103}, {103, 31}, {7, 7}} {
		bm, _ := NewBandMap(c[0], c[1])
		x, g := rnd(r, 3*c[0]), rnd(r, 3*c[1])
		y := make([]float32, 3*c[1])
		bm.Apply(y, x, 1.5)
		xt := make([]float32, 3*c[0])
		bm.ApplyT(xt, g, 1.5)
		var lhs, rhs float64
		for i := range y {
			lhs += float64(y[i]) * float64(g[i])
		}
		for i := range x {
			rhs += float64(x[i]) * float64(xt[i])
		}
		if math.Abs(lhs-rhs) > 1e-4*max(1, math.Abs(lhs)) {
			t.Fatalf("%v: <C x, g> = %v, <x, C^T g> = %v", c, lhs, rhs)
		}
	}
}

// The free kernel keeps the operator values as they are.
func TestFreeKernelPrimitives(t *testing.T) {
	m, _ := New(variantConfig(VariantFreeKernel), 1)
	raw := randomRaw(rand.New(rand.NewPCG(1, 1)), 2, m.Cfg.HeadChans())
	p, err := m.Primitives(raw, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 2; n++ {
		for k := 0; k < cofr.Taps; k++ {
			if p.K[n*cofr.Taps+k] != raw[n*m.Cfg.HeadChans()+rawK+k] {
				t.Fatal("free kernel changed the operator values")
			}
		}
	}
	z, _ := Primitives(raw, 1, 2)
	var s float64
	for _, v := range z.K[:cofr.Taps] {
		s += float64(v)
	}
	if math.Abs(s) > 1e-5 {
		t.Fatalf("OmniHSR operator sums to %g", s)
	}
}
