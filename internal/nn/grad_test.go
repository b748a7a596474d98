package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// fdCheck compares the gradients Backward computes with central finite
// differences. f builds the op under test on a graph from the inputs; the
// scalar L = sum_i r_i out_i (r fixed random weights, summed in float64)
// is differentiated with respect to every element of every input that
// requires a gradient. The test fails if, for any input, the relative
// error ||num - ana|| / ||num|| exceeds 1e-2 or any single element is off
// by more than 2e-2 relative plus 2e-3 of that input's largest gradient.
func fdCheck(t *testing.T, name string, h float64, inputs []*Tensor, f func(g *Graph) *Tensor) {
	t.Helper()
	fdCheck1(t, name, h, inputs, f)
	// Again with every op split over goroutines and im2col in chunks of
	// one pixel, so that the parallel paths are checked on small inputs.
	oldE, oldC := minElems, colFloats
	minElems, colFloats = 1, 1
	defer func() { minElems, colFloats = oldE, oldC }()
	fdCheck1(t, name+" (split)", h, inputs, f)
	// Again with recycled (NaN-poisoned) buffers from an arena.
	minElems, colFloats = oldE, oldC
	arena := NewArena()
	poisonArena = true
	defer func() { poisonArena = false }()
	fdCheck1(t, name+" (arena)", h, inputs, func(g *Graph) *Tensor {
		g.WithArena(arena)
		return f(g)
	})
}

func fdCheck1(t *testing.T, name string, h float64, inputs []*Tensor, f func(g *Graph) *Tensor) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 7))
	eval := func() (float64, *Tensor) {
		g := NewGraph(false)
		out := f(g).Clone()
		g.Release()
		return 0, out
	}
	_, out0 := eval()
	wts := make([]float32, out0.Len())
	for i := range wts {
		wts[i] = float32(r.Float64()*2 - 1)
	}
	loss := func() float64 {
		_, out := eval()
		var s float64
		for i, v := range out.Data {
			s += float64(wts[i]) * float64(v)
		}
		return s
	}
	// The analytic gradient, computed twice: with an arena, the second
	// pass gets recycled (NaN-poisoned in tests) buffers for intermediate
	// gradients too, which catches an op that accumulates into a buffer it
	// should overwrite.
	for rep := 0; rep < 2; rep++ {
		for _, in := range inputs {
			in.Grad = nil
			if in.needsGrad {
				in.Grad = make([]float32, in.Len())
			}
		}
		g := NewGraph(true)
		out := f(g)
		g.BackwardFrom(map[*Tensor][]float32{out: wts})
		g.Release()
	}
	for k, in := range inputs {
		if !in.needsGrad {
			continue
		}
		num := make([]float64, in.Len())
		for i := range in.Data {
			x0 := in.Data[i]
			step := float32(h * math.Max(1, math.Abs(float64(x0))))
			in.Data[i] = x0 + step
			lp := loss()
			in.Data[i] = x0 - step
			lm := loss()
			in.Data[i] = x0
			// Use the step actually represented in float32.
			num[i] = (lp - lm) / (float64(x0+step) - float64(x0-step))
		}
		var dn, nn, maxAbs float64
		for i, v := range num {
			d := v - float64(in.Grad[i])
			dn += d * d
			nn += v * v
			maxAbs = math.Max(maxAbs, math.Abs(v))
		}
		rel := math.Sqrt(dn / math.Max(nn, 1e-30))
		if nn == 0 && dn == 0 {
			rel = 0
		}
		if !(rel <= 1e-2) { // NaN fails too
			t.Errorf("%s: input %d (%v): gradient relative error %.3g", name, k, in, rel)
		}
		for i, v := range num {
			a := float64(in.Grad[i])
			if !(math.Abs(v-a) <= 2e-2*math.Abs(v)+2e-3*maxAbs) {
				t.Errorf("%s: input %d element %d: analytic %.6g, numeric %.6g", name, k, i, a, v)
				break
			}
		}
		t.Logf("%s: input %d %v: relative error %.2e over %d elements", name, k, in, rel, len(num))
	}
}

func randT(r *rand.Rand, n, h, w, c int, std float64) *Tensor {
	return New(n, h, w, c).Randn(r, std).RequireGrad()
}

func TestGradConv2D(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		k   int
		pad Padding
		h   int
		w   int
	}{{3, PadZero, 5, 4}, {3, PadReplicate, 5, 4}, {1, PadZero, 3, 3}, {3, PadReplicate, 1, 3}, {5, PadReplicate, 4, 6}, {3, PadZero, 2, 2}} {
		x := randT(r, 2, tc.h, tc.w, 3, 1)
		w := randT(r, 4, tc.k, tc.k, 3, 0.5)
		b := randT(r, 1, 1, 1, 4, 0.5)
		fdCheck(t, fmt.Sprintf("Conv2D k%d %v %dx%d", tc.k, tc.pad, tc.h, tc.w), 1e-2, []*Tensor{x, w, b}, func(g *Graph) *Tensor {
			return g.Conv2D(x, w, b, tc.pad)
		})
	}
}

// TestGradConv2DChunks forces tiny im2col chunks so that the chunked paths
// (several chunks per goroutine, partial sums of dW) are exercised.
func TestGradConv2DChunks(t *testing.T) {
	old := colFloats
	colFloats = 1
	defer func() { colFloats = old }()
	r := rand.New(rand.NewPCG(1, 2))
	for _, pad := range []Padding{PadZero, PadReplicate} {
		x := randT(r, 2, 6, 5, 2, 1)
		w := randT(r, 3, 3, 3, 2, 0.5)
		b := randT(r, 1, 1, 1, 3, 0.5)
		fdCheck(t, "Conv2D chunked "+pad.String(), 1e-2, []*Tensor{x, w, b}, func(g *Graph) *Tensor {
			return g.Conv2D(x, w, b, pad)
		})
	}
}

func TestGradLinear(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 3))
	x := randT(r, 2, 3, 4, 5, 1)
	w := randT(r, 6, 1, 1, 5, 0.5)
	b := randT(r, 1, 1, 1, 6, 0.5)
	fdCheck(t, "Linear", 1e-2, []*Tensor{x, w, b}, func(g *Graph) *Tensor { return g.Linear(x, w, b) })
	fdCheck(t, "Linear no bias", 1e-2, []*Tensor{x, w}, func(g *Graph) *Tensor { return g.Linear(x, w, nil) })
}

func TestGradLayerNorm(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 4))
	x := randT(r, 2, 3, 2, 6, 1)
	gm := randT(r, 1, 1, 1, 6, 1)
	bt := randT(r, 1, 1, 1, 6, 1)
	fdCheck(t, "LayerNorm", 1e-2, []*Tensor{x, gm, bt}, func(g *Graph) *Tensor { return g.LayerNorm(x, gm, bt, 1e-5) })
}

// awayFrom returns a tensor whose values are at least gap away from each
// of the kinks.
func awayFrom(r *rand.Rand, n, h, w, c int, std, gap float64, kinks ...float64) *Tensor {
	t := New(n, h, w, c)
	for i := range t.Data {
		for {
			v := r.NormFloat64() * std
			ok := true
			for _, k := range kinks {
				if math.Abs(v-k) < gap {
					ok = false
				}
			}
			if ok {
				t.Data[i] = float32(v)
				break
			}
		}
	}
	return t.RequireGrad()
}

func TestGradActivations(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 5))
	for _, tc := range []struct {
		name string
		f    func(g *Graph, x *Tensor) *Tensor
		std  float64
		kink []float64
	}{
		{"GELU", func(g *Graph, x *Tensor) *Tensor { return g.GELU(x) }, 2, nil},
		{"LeakyReLU", func(g *Graph, x *Tensor) *Tensor { return g.LeakyReLU(x, 0.1) }, 1, []float64{0}},
		{"Softplus", func(g *Graph, x *Tensor) *Tensor { return g.Softplus(x) }, 3, nil},
		{"Softplus large", func(g *Graph, x *Tensor) *Tensor { return g.Softplus(g.Scale(x, 10)) }, 3, []float64{2}},
		{"Tanh", func(g *Graph, x *Tensor) *Tensor { return g.Tanh(x) }, 1.5, nil},
		{"Sigmoid", func(g *Graph, x *Tensor) *Tensor { return g.Sigmoid(x) }, 2, nil},
		{"Clamp", func(g *Graph, x *Tensor) *Tensor { return g.Clamp(x, -0.5, 0.7) }, 1, []float64{-0.5, 0.7}},
		{"Scale", func(g *Graph, x *Tensor) *Tensor { return g.Scale(x, -2.5) }, 1, nil},
		{"SubMean", func(g *Graph, x *Tensor) *Tensor { return g.SubMean(x, 1, 4) }, 1, nil},
		{"Slice", func(g *Graph, x *Tensor) *Tensor { return g.Slice(x, 1, 3) }, 1, nil},
		{"Mean", func(g *Graph, x *Tensor) *Tensor { return g.Mean(x) }, 1, nil},
	} {
		x := awayFrom(r, 2, 3, 2, 5, tc.std, 0.05, tc.kink...)
		fdCheck(t, tc.name, 1e-3, []*Tensor{x}, func(g *Graph) *Tensor { return tc.f(g, x) })
	}
}

func TestGradBinary(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 6))
	a := randT(r, 2, 3, 2, 4, 1)
	b := randT(r, 2, 3, 2, 4, 1)
	c := randT(r, 2, 3, 2, 3, 1)
	fdCheck(t, "Add", 1e-2, []*Tensor{a, b}, func(g *Graph) *Tensor { return g.Add(a, b) })
	fdCheck(t, "Mul", 1e-2, []*Tensor{a, b}, func(g *Graph) *Tensor { return g.Mul(a, b) })
	fdCheck(t, "Add same input", 1e-2, []*Tensor{a}, func(g *Graph) *Tensor { return g.Mul(g.Add(a, a), a) })
	fdCheck(t, "Concat", 1e-2, []*Tensor{a, c, b}, func(g *Graph) *Tensor { return g.Concat(a, c, b) })
	gm := randT(r, 2, 1, 1, 4, 0.5)
	bt := randT(r, 2, 1, 1, 4, 0.5)
	fdCheck(t, "FiLM", 1e-2, []*Tensor{a, gm, bt}, func(g *Graph) *Tensor { return g.FiLM(a, gm, bt) })
	s1 := randT(r, 1, 1, 1, 1, 1)
	s2 := randT(r, 1, 1, 1, 1, 1)
	fdCheck(t, "WeightedSum", 1e-2, []*Tensor{s1, s2}, func(g *Graph) *Tensor {
		return g.WeightedSum([]*Tensor{s1, s2}, []float32{0.1, 2})
	})
}

func TestGradESSA(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 7))
	for _, sh := range [][3]int{{3, 4, 4}, {1, 5, 6}, {2, 1, 2}} {
		qkv := randT(r, 2, sh[0], sh[1], 3*sh[2], 1)
		fdCheck(t, fmt.Sprintf("ESSA %v", sh), 1e-3, []*Tensor{qkv}, func(g *Graph) *Tensor { return g.ESSA(qkv) })
	}
}

func TestGradESSALayer(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 8))
	l := NewESSA(r, 4)
	x := randT(r, 2, 3, 3, 4, 1)
	in := []*Tensor{x}
	for _, p := range l.Params() {
		in = append(in, p.T)
	}
	fdCheck(t, "ESSALayer", 1e-3, in, func(g *Graph) *Tensor { return l.Forward(g, x) })
}

func TestGradMLP(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 9))
	m := NewMLP(r, 1, 8, 6)
	x := randT(r, 3, 1, 1, 1, 1)
	in := []*Tensor{x}
	for _, p := range m.Params() {
		in = append(in, p.T)
	}
	fdCheck(t, "MLP", 1e-3, in, func(g *Graph) *Tensor { return m.Forward(g, x) })
}

func TestGradLosses(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 10))
	p := randT(r, 2, 3, 2, 6, 1)
	q := randT(r, 2, 3, 2, 6, 1)
	fdCheck(t, "Charbonnier", 1e-3, []*Tensor{p, q}, func(g *Graph) *Tensor { return g.Charbonnier(p, q, 1e-6) })
	fdCheck(t, "SpectralAngle", 1e-3, []*Tensor{p, q}, func(g *Graph) *Tensor { return g.SpectralAngle(p, q) })
	// Curvature: keep every second difference of p - q away from zero so
	// that |.| is differentiable within the step.
	var pc, qc *Tensor
	for {
		pc, qc = randT(r, 2, 2, 2, 5, 1), randT(r, 2, 2, 2, 5, 1)
		ok := true
		for i := 0; i < pc.Pixels(); i++ {
			for j := 0; j+2 < 5; j++ {
				k := i*5 + j
				d := (pc.Data[k+2] - qc.Data[k+2]) - 2*(pc.Data[k+1]-qc.Data[k+1]) + (pc.Data[k] - qc.Data[k])
				if math.Abs(float64(d)) < 0.05 {
					ok = false
				}
			}
		}
		if ok {
			break
		}
	}
	fdCheck(t, "SpectralCurvature", 1e-3, []*Tensor{pc, qc}, func(g *Graph) *Tensor { return g.SpectralCurvature(pc, qc) })
}

// TestGradChain runs a small network mixing ops, with shared inputs and a
// branch whose output is unused, through the tape.
func TestGradChain(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 11))
	x := randT(r, 2, 4, 3, 3, 1)
	c1 := NewConv2D(r, 3, 6, 3, PadReplicate)
	ln := NewLayerNorm(6)
	ln.Gamma.Randn(r, 1)
	c2 := NewConv2D(r, 6, 6, 3, PadZero)
	c3 := NewConv2D(r, 6, 6, 3, PadReplicate)
	l2 := NewLinear(r, 6, 3)
	in := []*Tensor{x}
	for _, ps := range [][]Param{c1.Params(), ln.Params(), c2.Params(), c3.Params(), l2.Params()} {
		for _, p := range ps {
			in = append(in, p.T)
		}
	}
	fdCheck(t, "chain", 1e-3, in, func(g *Graph) *Tensor {
		h := c1.Forward(g, x)
		_ = g.Tanh(h) // unused branch
		h = g.GELU(ln.Forward(g, h))
		// Convolutions of intermediate tensors (their input gradients are
		// fresh buffers).
		h = c3.Forward(g, g.LeakyReLU(c2.Forward(g, g.Scale(h, 1.5)), 0.2))
		// The output is the tensor itself, not a loss of it: a float32
		// scalar limits the finite differences to about ulp(loss)/(2h), too
		// coarse for this chain's smallest gradients on a GEMM without
		// fused multiply-adds (the Charbonnier loss has its own check).
		return g.Add(l2.Forward(g, g.Sigmoid(h)), g.Scale(x, 0.5))
	})
}
