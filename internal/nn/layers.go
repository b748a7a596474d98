package nn

import (
	"math"
	"math/rand/v2"
)

// Layers bundle parameters with the op that uses them. Each has
// Forward(g, x) and Params() (names relative to the layer: "weight",
// "bias"; use Prefix to place them in a model). Initialisation follows
// PyTorch's defaults from an explicit *rand.Rand.

// KaimingUniform fills w with PyTorch's default initialisation of Conv2d
// and Linear weights, kaiming_uniform_(a = sqrt(5)): uniform in
// [-1/sqrt(fanIn), 1/sqrt(fanIn)].
func KaimingUniform(r *rand.Rand, w *Tensor, fanIn int) {
	bound := 1 / math.Sqrt(float64(max(fanIn, 1)))
	w.Uniform(r, -bound, bound)
}

// Conv2DLayer is a K x K convolution with bias.
type Conv2DLayer struct {
	W, B *Tensor // Cout x K x K x Cin, 1 x 1 x 1 x Cout
	Pad  Padding
}

// NewConv2D returns a K x K convolution from cin to cout channels with
// PyTorch's default initialisation (weights and bias uniform in
// +-1/sqrt(cin*K*K)).
func NewConv2D(r *rand.Rand, cin, cout, k int, pad Padding) *Conv2DLayer {
	l := &Conv2DLayer{W: NewParam(cout, k, k, cin), B: NewParam(1, 1, 1, cout), Pad: pad}
	KaimingUniform(r, l.W, cin*k*k)
	KaimingUniform(r, l.B, cin*k*k)
	return l
}

// Forward applies the convolution.
func (l *Conv2DLayer) Forward(g *Graph, x *Tensor) *Tensor { return g.Conv2D(x, l.W, l.B, l.Pad) }

// ForwardGELU is GELU(Forward(g, x)), fused on an inference graph (see
// Graph.Conv2DGELU).
func (l *Conv2DLayer) ForwardGELU(g *Graph, x *Tensor) *Tensor {
	return g.Conv2DGELU(x, l.W, l.B, l.Pad)
}

// ForwardWinograd is Forward computed by Winograd's F(4x4, 3x3) where it
// applies (see Graph.Conv2DWinograd).
func (l *Conv2DLayer) ForwardWinograd(g *Graph, x *Tensor) *Tensor {
	return g.Conv2DWinograd(x, l.W, l.B, l.Pad)
}

// ForwardWinogradGELU is GELU(ForwardWinograd(g, x)) (see
// Graph.Conv2DWinogradGELU).
func (l *Conv2DLayer) ForwardWinogradGELU(g *Graph, x *Tensor) *Tensor {
	return g.Conv2DWinogradGELU(x, l.W, l.B, l.Pad)
}

// Params are "weight" and "bias".
func (l *Conv2DLayer) Params() []Param { return []Param{{"weight", l.W}, {"bias", l.B}} }

// LinearLayer is a per-pixel linear map on the channel axis with bias.
type LinearLayer struct {
	W, B *Tensor // Cout x 1 x 1 x Cin, 1 x 1 x 1 x Cout (B may be nil)
}

// NewLinear returns Linear(cin -> cout) with PyTorch's default
// initialisation.
func NewLinear(r *rand.Rand, cin, cout int) *LinearLayer {
	l := &LinearLayer{W: NewParam(cout, 1, 1, cin), B: NewParam(1, 1, 1, cout)}
	KaimingUniform(r, l.W, cin)
	KaimingUniform(r, l.B, cin)
	return l
}

// Forward applies the map.
func (l *LinearLayer) Forward(g *Graph, x *Tensor) *Tensor { return g.Linear(x, l.W, l.B) }

// Params are "weight" and "bias" (if any).
func (l *LinearLayer) Params() []Param {
	if l.B == nil {
		return []Param{{"weight", l.W}}
	}
	return []Param{{"weight", l.W}, {"bias", l.B}}
}

// LayerNormLayer is LayerNorm over channels with affine parameters.
type LayerNormLayer struct {
	Gamma, Beta *Tensor // 1 x 1 x 1 x C
	Eps         float32
}

// NewLayerNorm returns LayerNorm(C) with gamma = 1, beta = 0, eps = 1e-5
// (PyTorch's defaults).
func NewLayerNorm(c int) *LayerNormLayer {
	l := &LayerNormLayer{Gamma: NewParam(1, 1, 1, c), Beta: NewParam(1, 1, 1, c), Eps: 1e-5}
	for i := range l.Gamma.Data {
		l.Gamma.Data[i] = 1
	}
	return l
}

// Forward normalises x.
func (l *LayerNormLayer) Forward(g *Graph, x *Tensor) *Tensor {
	return g.LayerNorm(x, l.Gamma, l.Beta, l.Eps)
}

// Params are "weight" (gamma) and "bias" (beta), PyTorch's names.
func (l *LayerNormLayer) Params() []Param { return []Param{{"weight", l.Gamma}, {"bias", l.Beta}} }

// ESSALayer is ESSAformer's attention: Linear(C -> 3C), the ESSA op,
// Linear(C -> C).
type ESSALayer struct {
	QKV, Out *LinearLayer
}

// NewESSA returns the attention for C channels.
func NewESSA(r *rand.Rand, c int) *ESSALayer {
	return &ESSALayer{QKV: NewLinear(r, c, 3*c), Out: NewLinear(r, c, c)}
}

// Forward applies the attention to x (N x H x W x C).
func (l *ESSALayer) Forward(g *Graph, x *Tensor) *Tensor {
	return l.Out.Forward(g, g.ESSA(l.QKV.Forward(g, x)))
}

// Params are "qkv.*" and "out.*".
func (l *ESSALayer) Params() []Param {
	return append(Prefix("qkv", l.QKV.Params()), Prefix("out", l.Out.Params())...)
}

// MLP is Linear -> GELU -> Linear, on the channel axis. OmniHSR's FiLM
// generator is NewMLP(r, 1, 64, 2*C) applied to log2(s) as an N x 1 x 1 x 1
// tensor; split its output with Slice into gamma and beta.
type MLP struct {
	L1, L2 *LinearLayer
}

// NewMLP returns Linear(in -> hidden) -> GELU -> Linear(hidden -> out).
func NewMLP(r *rand.Rand, in, hidden, out int) *MLP {
	return &MLP{L1: NewLinear(r, in, hidden), L2: NewLinear(r, hidden, out)}
}

// Forward applies the MLP.
func (m *MLP) Forward(g *Graph, x *Tensor) *Tensor {
	return m.L2.Forward(g, g.GELU(m.L1.Forward(g, x)))
}

// Params are "0.*" and "2.*" (PyTorch's nn.Sequential indices).
func (m *MLP) Params() []Param {
	return append(Prefix("0", m.L1.Params()), Prefix("2", m.L2.Params())...)
}
