package nn

import (
	"fmt"
	"math/rand/v2"
)

// Tensor is a float32 array in NHWC layout: N samples of H x W pixels of C
// channels, element (n, y, x, c) at Data[((n*H+y)*W+x)*C+c]. Weights use
// the same four axes (a conv weight is Cout x KH x KW x Cin, a bias
// 1 x 1 x 1 x C), so every tensor has exactly four dimensions.
//
// Grad holds dL/dTensor after Graph.Backward, for parameters and for
// leaves marked with RequireGrad. Intermediate tensors' gradients are
// released as soon as the backward pass is done with them.
type Tensor struct {
	N, H, W, C int
	Data       []float32
	Grad       []float32

	needsGrad bool // a gradient must flow to (or through) this tensor
	leaf      bool // not produced by a recorded op: its Grad is kept
}

// New returns a zero tensor of the given shape.
func New(n, h, w, c int) *Tensor {
	checkShape(n, h, w, c)
	return &Tensor{N: n, H: h, W: w, C: c, Data: make([]float32, n*h*w*c), leaf: true}
}

// FromData wraps data (not copied) as a tensor; len(data) must be n*h*w*c.
func FromData(n, h, w, c int, data []float32) *Tensor {
	checkShape(n, h, w, c)
	if len(data) != n*h*w*c {
		panic(fmt.Sprintf("nn: FromData: %d values for shape %dx%dx%dx%d", len(data), n, h, w, c))
	}
	return &Tensor{N: n, H: h, W: w, C: c, Data: data, leaf: true}
}

// NewParam returns a zero trainable tensor: it requires a gradient and its
// Grad buffer is allocated (and kept) from the start.
func NewParam(n, h, w, c int) *Tensor {
	t := New(n, h, w, c)
	t.needsGrad = true
	t.Grad = make([]float32, len(t.Data))
	return t
}

func checkShape(n, h, w, c int) {
	if n < 0 || h < 0 || w < 0 || c < 0 {
		panic(fmt.Sprintf("nn: negative shape %dx%dx%dx%d", n, h, w, c))
	}
}

// RequireGrad marks a leaf tensor (an input) so that Backward computes its
// gradient into Grad. It returns t.
func (t *Tensor) RequireGrad() *Tensor {
	t.needsGrad = true
	return t
}

// RequiresGrad reports whether a gradient flows to t.
func (t *Tensor) RequiresGrad() bool { return t.needsGrad }

// Shape returns (N, H, W, C).
func (t *Tensor) Shape() [4]int { return [4]int{t.N, t.H, t.W, t.C} }

// Len is the number of elements.
func (t *Tensor) Len() int { return len(t.Data) }

// Pixels is N*H*W, the number of channel vectors (tokens).
func (t *Tensor) Pixels() int { return t.N * t.H * t.W }

// At returns element (n, y, x, c).
func (t *Tensor) At(n, y, x, c int) float32 { return t.Data[((n*t.H+y)*t.W+x)*t.C+c] }

// Set sets element (n, y, x, c).
func (t *Tensor) Set(n, y, x, c int, v float32) { t.Data[((n*t.H+y)*t.W+x)*t.C+c] = v }

// ZeroGrad clears Grad (keeping the buffer).
func (t *Tensor) ZeroGrad() { clear(t.Grad) }

// Clone returns a copy of the data as a new leaf tensor (no gradient).
func (t *Tensor) Clone() *Tensor {
	return FromData(t.N, t.H, t.W, t.C, append([]float32(nil), t.Data...))
}

func (t *Tensor) String() string { return fmt.Sprintf("Tensor(%dx%dx%dx%d)", t.N, t.H, t.W, t.C) }

func sameShape(a, b *Tensor) bool { return a.N == b.N && a.H == b.H && a.W == b.W && a.C == b.C }

func mustSameShape(op string, a, b *Tensor) {
	if !sameShape(a, b) {
		panic(fmt.Sprintf("nn: %s: shapes differ: %v vs %v", op, a, b))
	}
}

// Param is a named trainable tensor. Names are dotted paths
// ("blocks.0.attn.qkv.weight") and key checkpoints.
type Param struct {
	Name string
	T    *Tensor
}

// CountParams is the total number of scalars in ps.
func CountParams(ps []Param) int {
	n := 0
	for _, p := range ps {
		n += p.T.Len()
	}
	return n
}

// ZeroGrads clears the gradients of ps.
func ZeroGrads(ps []Param) {
	for _, p := range ps {
		p.T.ZeroGrad()
	}
}

// Prefix returns ps with prefix+"." prepended to every name.
func Prefix(prefix string, ps []Param) []Param {
	out := make([]Param, len(ps))
	for i, p := range ps {
		out[i] = Param{Name: prefix + "." + p.Name, T: p.T}
	}
	return out
}

// Randn fills t with N(0, std^2) values from r.
func (t *Tensor) Randn(r *rand.Rand, std float64) *Tensor {
	for i := range t.Data {
		t.Data[i] = float32(r.NormFloat64() * std)
	}
	return t
}

// Uniform fills t with values uniform in [lo, hi) from r.
func (t *Tensor) Uniform(r *rand.Rand, lo, hi float64) *Tensor {
	for i := range t.Data {
		t.Data[i] = float32(lo + (hi-lo)*r.Float64())
	}
	return t
}
