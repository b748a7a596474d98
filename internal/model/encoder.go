package model

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/omnihsr/omnihsr/internal/nn"
)

// EncoderConfig sets the shape of the CSM encoder.
type EncoderConfig struct {
	In       int `json:"in"`        // input channels (M reference positions)
	C        int `json:"c"`         // feature width
	Blocks   int `json:"blocks"`    // ESSA + FFN blocks
	FFNRatio int `json:"ffn_ratio"` // hidden width of the FFN, in multiples of C
}

// DefaultEncoderConfig is OmniHSR's encoder: 31 inputs, C = 32, 6 blocks,
// FFN ratio 4 (487,648 parameters).
func DefaultEncoderConfig() EncoderConfig {
	return EncoderConfig{In: 31, C: 32, Blocks: 6, FFNRatio: 4}
}

func (c EncoderConfig) validate() error {
	if c.In < 1 || c.C < 1 || c.Blocks < 0 || c.FFNRatio < 1 {
		return fmt.Errorf("model: bad encoder config %+v", c)
	}
	return nil
}

// Encoder is the ESSAformer-style CSM encoder E_theta, at low resolution,
// on N x h x w x In tensors (NHWC):
//
//	s = Conv3x3(In -> C, replicate)(z)
//	x = s; for each block:
//	    x = x + Linear(C -> C)(ESSA(Linear(C -> 3C)(LN(x))))
//	    x = x + Conv3x3(R*C -> C)(GELU(Conv3x3(C -> R*C)(LN(x))))   (replicate)
//	out = Conv3x3(C -> C, replicate)(x) + s
//
// LN is LayerNorm over channels, ESSA the attention of nn.Graph.ESSA.
type Encoder struct {
	Config EncoderConfig
	Stem   *nn.Conv2DLayer
	Blocks []*EncoderBlock
	Tail   *nn.Conv2DLayer
}

// EncoderBlock is one attention + feed-forward block.
type EncoderBlock struct {
	LN1  *nn.LayerNormLayer
	Attn *nn.ESSALayer
	LN2  *nn.LayerNormLayer
	FFN1 *nn.Conv2DLayer // C -> R*C, 3x3
	FFN2 *nn.Conv2DLayer // R*C -> C, 3x3
}

// NewEncoder builds an encoder with PyTorch's default initialisation drawn
// from r (in a fixed order: stem, blocks, tail).
func NewEncoder(cfg EncoderConfig, r *rand.Rand) (*Encoder, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	c, h := cfg.C, cfg.C*cfg.FFNRatio
	e := &Encoder{Config: cfg, Stem: nn.NewConv2D(r, cfg.In, c, 3, nn.PadReplicate)}
	for i := 0; i < cfg.Blocks; i++ {
		e.Blocks = append(e.Blocks, &EncoderBlock{
			LN1:  nn.NewLayerNorm(c),
			Attn: nn.NewESSA(r, c),
			LN2:  nn.NewLayerNorm(c),
			FFN1: nn.NewConv2D(r, c, h, 3, nn.PadReplicate),
			FFN2: nn.NewConv2D(r, h, c, 3, nn.PadReplicate),
		})
	}
	e.Tail = nn.NewConv2D(r, c, c, 3, nn.PadReplicate)
	return e, nil
}

// Forward encodes z (N x h x w x In) into features (N x h x w x C).
func (e *Encoder) Forward(g *nn.Graph, z *nn.Tensor) *nn.Tensor {
	if z.C != e.Config.In {
		panic(fmt.Sprintf("model: encoder input %v, want %d channels", z, e.Config.In))
	}
	s := e.Stem.Forward(g, z)
	x := s
	for _, b := range e.Blocks {
		x = g.Add(x, b.Attn.Forward(g, b.LN1.Forward(g, x)))
		x = g.Add(x, b.FFN2.Forward(g, g.GELU(b.FFN1.Forward(g, b.LN2.Forward(g, x)))))
	}
	return g.Add(e.Tail.Forward(g, x), s)
}

// Params lists the encoder's parameters with names relative to the
// encoder ("stem.weight", "blocks.0.attn.qkv.weight", ..., "tail.bias"),
// in a fixed order.
func (e *Encoder) Params() []nn.Param {
	ps := nn.Prefix("stem", e.Stem.Params())
	for i, b := range e.Blocks {
		pre := "blocks." + strconv.Itoa(i)
		ps = append(ps, nn.Prefix(pre+".ln1", b.LN1.Params())...)
		ps = append(ps, nn.Prefix(pre+".attn", b.Attn.Params())...)
		ps = append(ps, nn.Prefix(pre+".ln2", b.LN2.Params())...)
		ps = append(ps, nn.Prefix(pre+".ffn1", b.FFN1.Params())...)
		ps = append(ps, nn.Prefix(pre+".ffn2", b.FFN2.Params())...)
	}
	return append(ps, nn.Prefix("tail", e.Tail.Params())...)
}

// Flops is the number of floating-point operations (2 per multiply-add) of
// one forward pass on n x h x w inputs, counting the convolutions, linear
// maps and ESSA's two C x C products; elementwise work is not counted.
func (e *Encoder) Flops(n, h, w int) float64 {
	cfg := e.Config
	px := float64(n * h * w)
	c, hid := float64(cfg.C), float64(cfg.C*cfg.FFNRatio)
	f := 9 * float64(cfg.In) * c // stem
	blk := 3*c*c + c*c + 2*c*c + 9*c*hid + 9*hid*c
	f += float64(cfg.Blocks)*blk + 9*c*c
	return 2 * f * px
}
