package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/cofr"
	"github.com/omnihsr/omnihsr/internal/nn"
	"github.com/omnihsr/omnihsr/internal/par"
)

// FormatVersion is the version of the model configuration stored in weight
// files; a file of another version is refused.
const FormatVersion = 1

// Raw head channels: 6 geometry values then the 25 operator values (the
// spectral variant has M values in place of the operator; see
// Config.HeadChans).
const (
	rawOffY = iota
	rawOffX
	rawTheta
	rawSigma1
	rawSigma2
	rawAlpha
	rawK     // first of the 25 operator values
	RawChans = rawK + cofr.Taps
)

// Primitive parameterisation bounds (docs/CONVENTIONS.md section 3).
const (
	SigmaMin = 0.05
	SigmaMax = 2.5
)

// Config is the architecture of an OmniHSR model. It is stored in every
// weight file.
type Config struct {
	Version int           `json:"version"`
	M       int           `json:"m"` // reference band positions of C_B
	Encoder EncoderConfig `json:"encoder"`
	// FiLMHidden is the hidden width of the FiLM MLP on log2 s.
	FiLMHidden int `json:"film_hidden"`
	// Neighbourhood is COFR's K x K primitive neighbourhood (truncation rule).
	Neighbourhood int `json:"neighbourhood"`
	// Variant selects an ablation of the output path (paper Table
	// "Ablation"; see variant.go): "" is OmniHSR itself, the only value of
	// weight files written before variants existed.
	Variant string `json:"variant,omitempty"`
	// NoiseInput feeds the input's estimated noise level to FiLM beside
	// log2 s (see NoiseFeature): the model can then smooth a noisy input
	// and sharpen a clean one. Weight files without it take log2 s alone.
	NoiseInput bool `json:"noise_input,omitempty"`
	// NoiseGate is, for a model with NoiseInput that serves as the noise
	// companion of a model for clean inputs (WithNoisy), the noise feature
	// above which it renders; chosen on validation data.
	NoiseGate float64 `json:"noise_gate,omitempty"`
}

// DefaultConfig is the shipped architecture: M = 31, the encoder of
// DefaultEncoderConfig, FiLM hidden width 64, a 7 x 7 neighbourhood.
func DefaultConfig() Config {
	return Config{Version: FormatVersion, M: 31, Encoder: DefaultEncoderConfig(), FiLMHidden: 64, Neighbourhood: 7}
}

func (c Config) validate() error {
	if c.Version != FormatVersion {
		return fmt.Errorf("model: configuration version %d, this program reads version %d", c.Version, FormatVersion)
	}
	if c.M < 1 || c.Encoder.In != c.M {
		return fmt.Errorf("model: %d reference positions but an encoder of %d inputs", c.M, c.Encoder.In)
	}
	if c.FiLMHidden < 1 {
		return fmt.Errorf("model: FiLM hidden width %d", c.FiLMHidden)
	}
	if c.Neighbourhood < 1 || c.Neighbourhood%2 == 0 {
		return fmt.Errorf("model: neighbourhood %d must be odd and positive", c.Neighbourhood)
	}
	if err := CheckVariant(c.Variant); err != nil {
		return err
	}
	return c.Encoder.validate()
}

// Model is CSM: the band map C_B and input scale, the encoder E_theta, FiLM
// on log2 s, and the head that predicts one primitive per low-res pixel.
//
//	z = C_B x * scale                       (no parameter)
//	E = Encoder(z)                          (independent of s)
//	F = (1 + gamma(s)) * E + beta(s)        gamma, beta = MLP(log2 s)
//	h = GELU(Conv3x3(C -> C)(F))
//	geometry = Linear(C -> 6)(h)            offsets, angle, widths, opacity
//	operator = Linear(C -> 25)(h)           zero-initialised weights and bias
//
// The ablation variants (Config.Variant) change only what follows the head:
// see variant.go.
type Model struct {
	Cfg  Config
	Enc  *Encoder
	FiLM *nn.MLP
	Head *nn.Conv2DLayer
	Geo  *nn.LinearLayer
	Op   *nn.LinearLayer

	// noisy, when not nil, renders the inputs whose noise feature is above
	// gate (WithNoisy).
	noisy *Model
	gate  float64
}

// New builds a model with initialisation drawn from a PCG seeded by seed.
// The operator layer starts at zero, so the new model renders bicubic
// interpolation exactly; the last FiLM layer starts at zero too, so the
// modulation starts as the identity.
func New(cfg Config, seed uint64) (*Model, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0x0e1f2026))
	enc, err := NewEncoder(cfg.Encoder, r)
	if err != nil {
		return nil, err
	}
	c := cfg.Encoder.C
	m := &Model{
		Cfg:  cfg,
		Enc:  enc,
		FiLM: nn.NewMLP(r, cfg.filmInputs(), cfg.FiLMHidden, 2*c),
		Head: nn.NewConv2D(r, c, c, 3, nn.PadReplicate),
		Geo:  nn.NewLinear(r, c, rawK),
		Op:   nn.NewLinear(r, c, cfg.OpChans()),
	}
	clear(m.FiLM.L2.W.Data)
	clear(m.FiLM.L2.B.Data)
	clear(m.Op.W.Data)
	clear(m.Op.B.Data)
	return m, nil
}

// Params lists every parameter with its name, in a fixed order.
func (m *Model) Params() []nn.Param {
	ps := nn.Prefix("encoder", m.Enc.Params())
	ps = append(ps, nn.Prefix("film", m.FiLM.Params())...)
	ps = append(ps, nn.Prefix("head", m.Head.Params())...)
	ps = append(ps, nn.Prefix("geometry", m.Geo.Params())...)
	return append(ps, nn.Prefix("operator", m.Op.Params())...)
}

// NumParams is the number of learnable values.
func (m *Model) NumParams() int { return nn.CountParams(m.Params()) }

// Input maps a low-res cube to the network input: C_B onto M positions,
// times the input scale (InputScale). It returns a 1 x h x w x M tensor.
func (m *Model) Input(lr *hsi.Cube) (*nn.Tensor, error) {
	if err := lr.Validate(); err != nil {
		return nil, fmt.Errorf("model: input: %w", err)
	}
	bm, err := NewBandMap(lr.B, m.Cfg.M)
	if err != nil {
		return nil, err
	}
	z := nn.New(1, lr.H, lr.W, m.Cfg.M)
	bm.Apply(z.Data, lr.Data, InputScale(lr))
	return z, nil
}

// Encode runs the encoder on the network input; the features do not
// depend on the factor, so several factors can share them.
func (m *Model) Encode(g *nn.Graph, z *nn.Tensor) *nn.Tensor { return m.Enc.Forward(g, z) }

// filmInputs is the input width of the FiLM MLP: log2 s, and the noise
// feature when the model takes one.
func (c Config) filmInputs() int {
	if c.NoiseInput {
		return 2
	}
	return 1
}

// HeadRaw applies FiLM for factor s (and, for a model with NoiseInput, the
// noise feature nf of NoiseFeature; ignored otherwise) and the head to
// encoder features, returning the raw head output (1 x h x w x
// Cfg.HeadChans()): 6 geometry values then 25 operator values (M spectral
// values for the spectral variant) per low-res pixel, before
// parameterisation.
func (m *Model) HeadRaw(g *nn.Graph, feat *nn.Tensor, s, nf float64) *nn.Tensor {
	k := m.Cfg.filmInputs()
	ls := nn.New(feat.N, 1, 1, k)
	for i := 0; i < len(ls.Data); i += k {
		ls.Data[i] = float32(math.Log2(s))
		if k == 2 {
			ls.Data[i+1] = float32(nf)
		}
	}
	gb := m.FiLM.Forward(g, ls)
	c := m.Cfg.Encoder.C
	f := g.FiLM(feat, g.Slice(gb, 0, c), g.Slice(gb, c, 2*c))
	h := g.GELU(m.Head.Forward(g, f))
	return g.Concat(m.Geo.Forward(g, h), m.Op.Forward(g, h))
}

// Primitives turns a raw head output of h x w pixels into COFR primitives
// (docs/CONVENTIONS.md section 3): offsets 0.5 tanh, angle pi tanh, widths
// softplus + 0.05 clipped to [0.05, 2.5], opacity sigmoid, and the 25
// operator values minus their mean. It is the parameterisation of OmniHSR
// itself; Model.Primitives follows the model's variant.
func Primitives(raw []float32, h, w int) (*cofr.Primitives, error) {
	return primitivesOf(raw, h, w, RawChans, opZeroSum)
}

// opMode is what the head's last channels mean.
type opMode int

const (
	opZeroSum opMode = iota // 25 operator values, mean removed (OmniHSR)
	opFree                  // 25 operator values as they are
	opNone                  // no operator (spectral values, handled by Output)
)

// primitivesOf maps a raw head output with chans channels per pixel.
func primitivesOf(raw []float32, h, w, chans int, ops opMode) (*cofr.Primitives, error) {
	n := h * w
	if len(raw) != n*chans {
		return nil, fmt.Errorf("model: raw head output has %d values for %dx%d pixels of %d channels", len(raw), h, w, chans)
	}
	p := &cofr.Primitives{
		H: h, W: w,
		OffY: make([]float32, n), OffX: make([]float32, n),
		Sigma1: make([]float32, n), Sigma2: make([]float32, n),
		Theta: make([]float32, n), Alpha: make([]float32, n),
	}
	if ops != opNone {
		p.K = make([]float32, n*cofr.Taps)
	}
	// Every pixel on its own: the pixels are split over the cores.
	par.Ranges(n, par.Parts(n, 4096, runtime.GOMAXPROCS(0)), func(_, lo, hi int) { primitivesRange(p, raw, chans, ops, lo, hi) })
	return p, nil
}

// primitivesRange converts pixels [lo, hi) of primitivesOf.
func primitivesRange(p *cofr.Primitives, raw []float32, chans int, ops opMode, lo, hi int) {
	for i := lo; i < hi; i++ {
		r := raw[i*chans : (i+1)*chans]
		p.OffY[i] = float32(0.5 * math.Tanh(float64(r[rawOffY])))
		p.OffX[i] = float32(0.5 * math.Tanh(float64(r[rawOffX])))
		p.Theta[i] = float32(math.Pi * math.Tanh(float64(r[rawTheta])))
		p.Sigma1[i] = float32(sigmaOf(float64(r[rawSigma1])))
		p.Sigma2[i] = float32(sigmaOf(float64(r[rawSigma2])))
		p.Alpha[i] = float32(sigmoid(float64(r[rawAlpha])))
		if ops == opNone {
			continue
		}
		k := r[rawK : rawK+cofr.Taps]
		dst := p.K[i*cofr.Taps : (i+1)*cofr.Taps]
		if ops == opFree {
			copy(dst, k)
			continue
		}
		var mean float64
		for _, v := range k {
			mean += float64(v)
		}
		mean /= cofr.Taps
		for j, v := range k {
			dst[j] = float32(float64(v) - mean)
		}
	}
}

// RawGrad maps COFR's gradients with respect to the primitives back to the
// raw head output (the chain rule through Primitives).
func RawGrad(raw []float32, gr *cofr.Grads) []float32 {
	return rawGradOf(raw, RawChans, gr, opZeroSum)
}

// rawGradOf is the chain rule through primitivesOf. Nil gradient slices
// count as zero; with opNone the last channels are left at zero (the caller
// fills them).
func rawGradOf(raw []float32, chans int, gr *cofr.Grads, ops opMode) []float32 {
	n := len(raw) / chans
	out := make([]float32, len(raw))
	at := func(v []float32, i int) float64 {
		if v == nil {
			return 0
		}
		return float64(v[i])
	}
	for i := 0; i < n; i++ {
		r := raw[i*chans : (i+1)*chans]
		o := out[i*chans : (i+1)*chans]
		ty := math.Tanh(float64(r[rawOffY]))
		tx := math.Tanh(float64(r[rawOffX]))
		tt := math.Tanh(float64(r[rawTheta]))
		o[rawOffY] = float32(at(gr.OffY, i) * 0.5 * (1 - ty*ty))
		o[rawOffX] = float32(at(gr.OffX, i) * 0.5 * (1 - tx*tx))
		o[rawTheta] = float32(at(gr.Theta, i) * math.Pi * (1 - tt*tt))
		o[rawSigma1] = float32(at(gr.Sigma1, i) * sigmaGrad(float64(r[rawSigma1])))
		o[rawSigma2] = float32(at(gr.Sigma2, i) * sigmaGrad(float64(r[rawSigma2])))
		a := sigmoid(float64(r[rawAlpha]))
		o[rawAlpha] = float32(at(gr.Alpha, i) * a * (1 - a))
		if ops == opNone || gr.K == nil {
			continue
		}
		gk := gr.K[i*cofr.Taps : (i+1)*cofr.Taps]
		if ops == opFree {
			copy(o[rawK:rawK+cofr.Taps], gk)
			continue
		}
		var mean float64
		for _, v := range gk {
			mean += float64(v)
		}
		mean /= cofr.Taps
		for j, v := range gk {
			o[rawK+j] = float32(float64(v) - mean)
		}
	}
	return out
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func softplus(x float64) float64 {
	if x > 20 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

func sigmaOf(x float64) float64 { return min(max(softplus(x)+SigmaMin, SigmaMin), SigmaMax) }

// sigmaGrad is d sigma / dx: the logistic function inside the clip range,
// zero where the clip holds.
func sigmaGrad(x float64) float64 {
	v := softplus(x) + SigmaMin
	if v >= SigmaMax {
		return 0
	}
	return sigmoid(x)
}

// COFROptions are the renderer options matching the model's configuration.
func (m *Model) COFROptions() cofr.Options {
	return cofr.Options{Neighbourhood: m.Cfg.Neighbourhood}
}

// EffectiveFactor is the factor the network receives for an output of
// outH x outW from h x w: the mean of the two axis factors (docs/CONVENTIONS.md section 4).
func EffectiveFactor(h, w, outH, outW int) float64 {
	return (float64(outH)/float64(h) + float64(outW)/float64(w)) / 2
}

// Upscale super-resolves lr to outH x outW in memory (any image size; the
// encoder runs band by band, see EncodeImage).
func (m *Model) Upscale(lr *hsi.Cube, outH, outW int) (*hsi.Cube, error) {
	if outH < 1 || outW < 1 {
		return nil, fmt.Errorf("model: output size %dx%d", outH, outW)
	}
	e, err := m.EncodeImage(lr)
	if err != nil {
		return nil, err
	}
	return e.Render(outH, outW)
}

// Save writes the model's weights (no optimizer state) with its
// configuration and the given metadata (may be nil) to path (*.omw).
func (m *Model) Save(path string, meta json.RawMessage) error {
	cfg, err := json.Marshal(m.Cfg)
	if err != nil {
		return err
	}
	ck := nn.Checkpoint{Config: cfg, Meta: meta, Params: m.Params()}
	if err := ck.Save(path); err != nil {
		return fmt.Errorf("model: save %s: %w", path, err)
	}
	return nil
}

// FromCheckpoint builds a model from a decoded weight or checkpoint file.
func FromCheckpoint(f *nn.CheckpointFile) (*Model, error) {
	if len(f.Config) == 0 {
		return nil, fmt.Errorf("model: %s holds no model configuration", f.Name)
	}
	var cfg Config
	if err := json.Unmarshal(f.Config, &cfg); err != nil {
		return nil, fmt.Errorf("model: %s: configuration: %w", f.Name, err)
	}
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("model: %s: %w", f.Name, err)
	}
	m, err := New(cfg, 0)
	if err != nil {
		return nil, err
	}
	if err := f.LoadParams(m.Params()); err != nil {
		return nil, fmt.Errorf("model: %s: %w", f.Name, err)
	}
	return m, nil
}

// Load reads a weight file (*.omw) or a training checkpoint.
func Load(path string) (*Model, error) {
	f, err := nn.ReadCheckpoint(path)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	return FromCheckpoint(f)
}

// ErrNoDefault is returned when the binary carries no default model.
var ErrNoDefault = errors.New("model: no default weights embedded")
