package model

import (
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/noise"
)

// noiseRef is the noise level (network units) at which the noise feature
// is 1: log2(1 + sigma/noiseRef).
const noiseRef = 0.005

// Noise is the noise level a model with NoiseInput works with.
type Noise struct {
	// Sigma is the root mean square over the bands of the noise standard
	// deviation, in the units of the input.
	Sigma float64
	// Net is Sigma in the network's units (times InputScale).
	Net float64
	// Feature is what FiLM receives: log2(1 + Net/0.005).
	Feature float64
	// Estimated is true when the level was estimated from the input
	// (noise.Bands), false when it was given.
	Estimated bool
	// Routed is true when a model with a noise companion (WithNoisy) handed
	// the input to the companion.
	Routed bool
	// Gain is the share of the companion's operator field that a routed
	// input's output keeps (in [0, 1]; 1 when not routed): the output is
	// U_s X + Gain * field, Gain measured on the input itself by
	// super-resolving it from half its size (see Model.WithNoisy).
	Gain float64

	// Outliers are the bands of the input judged unusable by their noise
	// (noise.Outliers, Band numbered as in the input): left out of Sigma,
	// of the routing and of the field gain, and rendered like every band.
	// Only estimated levels are screened, unless EncodeOptions.KeepNoisyBands.
	Outliers []noise.Outlier

	bands     []float64 // the per-band standard deviations Sigma sums up
	gainBands []int     // the network's bands the field gain is measured on (nil: all)
}

// screen leaves the bands whose estimated noise is far above their
// spectral neighbours' (noise.Outliers) out of n's level: x is the
// network's bands of the input as read, usable their numbers in the input.
func (n Noise) screen(x *hsi.Cube, usable []int) Noise {
	out := noise.Outliers(x, n.bands)
	if len(out) == 0 || len(out) >= x.B {
		return n
	}
	skip := make([]bool, x.B)
	for i, o := range out {
		skip[o.Band] = true
		if usable != nil {
			out[i].Band = usable[o.Band]
		}
	}
	var keep []int
	var sig []float64
	for b, s := range n.bands {
		if !skip[b] {
			keep = append(keep, b)
			sig = append(sig, s)
		}
	}
	n.Outliers, n.bands, n.gainBands = out, sig, keep
	n.Sigma = noise.Level(sig)
	if math.IsNaN(n.Sigma) {
		n.Sigma = 0
	}
	return n
}

// NoiseFeature maps a noise level in the network's units to the FiLM
// input: 0 for a clean input, about 1 at 0.005, growing logarithmically.
func NoiseFeature(net float64) float64 {
	return math.Log2(1 + max(net, 0)/noiseRef)
}

// NoiseNet is the inverse of NoiseFeature: the noise level, in the
// network's units (a share of the input's mean absolute value), whose
// feature is f. A gate in feature units reads as a share of the signal.
func NoiseNet(f float64) float64 {
	return noiseRef * (math.Exp2(f) - 1)
}

// NoiseLevel returns the noise level of lr: from sigmas (one standard
// deviation per band, units of lr) when given, else estimated from lr by
// noise.Bands. An estimate that finds nothing (an image smaller than
// 3 x 3) counts as clean.
func (m *Model) NoiseLevel(lr *hsi.Cube, sigmas []float64) (Noise, error) {
	n, err := noiseSigma(lr, sigmas)
	if err != nil {
		return n, err
	}
	return n.inUnits(InputScale(lr)), nil
}

// noiseSigma is NoiseLevel's Sigma and Estimated, without the network's
// units.
func noiseSigma(lr *hsi.Cube, sigmas []float64) (Noise, error) {
	n := Noise{Estimated: sigmas == nil, Gain: 1}
	if sigmas == nil {
		var err error
		if sigmas, err = noise.Bands(lr, true); err != nil {
			return n, fmt.Errorf("model: %w", err)
		}
	} else if len(sigmas) != lr.B {
		return n, fmt.Errorf("model: %d noise values for %d bands", len(sigmas), lr.B)
	}
	for b, v := range sigmas {
		if !n.Estimated && (!(v >= 0) || math.IsInf(v, 0)) {
			return n, fmt.Errorf("model: noise of band %d is %v: want a finite value >= 0", b+1, v)
		}
	}
	n.bands = sigmas
	n.Sigma = noise.Level(sigmas)
	if math.IsNaN(n.Sigma) {
		n.Sigma = 0
	}
	return n, nil
}

// inUnits returns n with Net and Feature for an input of that scale
// (InputScale).
func (n Noise) inUnits(scale float32) Noise {
	n.Net = n.Sigma * float64(scale)
	n.Feature = NoiseFeature(n.Net)
	return n
}

// Noise returns the noise level the encoding was made with (zero for a
// model without NoiseInput).
func (e *Encoded) Noise() Noise { return e.noise }

// WithNoiseInput returns a copy of m that also takes the noise feature:
// the same weights, and a FiLM first layer widened by one input column of
// zeros, so the copy renders exactly what m renders until it is trained.
// A model that already takes it is returned as it is.
func (m *Model) WithNoiseInput() (*Model, error) {
	if m.Cfg.NoiseInput {
		return m, nil
	}
	cfg := m.Cfg
	cfg.NoiseInput = true
	n, err := New(cfg, 0)
	if err != nil {
		return nil, err
	}
	src, dst := m.Params(), n.Params()
	for i, p := range src {
		d := dst[i].T
		if p.T == m.FiLM.L1.W {
			// Cout x 1 x 1 x 1 into Cout x 1 x 1 x 2: column 0 kept, column 1 zero.
			for o := range p.T.Data {
				d.Data[2*o] = p.T.Data[o]
				d.Data[2*o+1] = 0
			}
			continue
		}
		if len(d.Data) != len(p.T.Data) {
			return nil, fmt.Errorf("model: widen FiLM: parameter %s has %d values, want %d", p.Name, len(p.T.Data), len(d.Data))
		}
		copy(d.Data, p.T.Data)
	}
	return n, nil
}

// WithNoisy returns a copy of m that hands every input whose noise feature
// (NoiseFeature of its noise level) is above gate to the noise-aware model
// noisy, and renders the others itself. m's weights are shared, not copied.
//
// A handed-over input's output is U_s X plus the companion's operator field
// scaled by a gain in [0, 1] measured on the input itself (Noise.Gain): the
// centre of the input (at most GainWindow pixels on a side), downsampled
// by 2 and brought back to its noise level, is super-resolved by the
// companion to its own size, and the gain is the least-squares factor of
// the field against the input there. Where the companion would sharpen
// noise rather than detail, the gain turns its output towards bicubic.
func (m *Model) WithNoisy(noisy *Model, gate float64) (*Model, error) {
	if noisy == nil || !noisy.Cfg.NoiseInput {
		return nil, fmt.Errorf("model: a noise companion must be a model with a noise input")
	}
	if noisy.noisy != nil {
		return nil, fmt.Errorf("model: a noise companion cannot have a companion of its own")
	}
	if !(gate >= 0) || math.IsInf(gate, 0) {
		return nil, fmt.Errorf("model: noise gate %v: want a finite feature value >= 0", gate)
	}
	c := *m
	c.noisy, c.gate = noisy, gate
	return &c, nil
}

// Noisy returns m's noise companion and its gate (nil when it has none).
func (m *Model) Noisy() (*Model, float64) { return m.noisy, m.gate }

// Alone returns a copy of m without its noise companion (sharing its
// weights): it renders every input itself.
func (m *Model) Alone() *Model {
	c := *m
	c.noisy, c.gate = nil, 0
	return &c
}

// AlwaysNoisy returns a copy of a model with a noise companion (sharing the
// weights of both) that hands every input to the companion, whatever its
// noise, with the companion's field gain measured as usual; a model without
// a companion is returned as it is.
func (m *Model) AlwaysNoisy() *Model {
	if m.noisy == nil {
		return m
	}
	c := *m
	c.gate = math.Inf(-1)
	return &c
}

// NoiseOf returns the noise level an encoding of lr with the settings opt
// works with, as EncodeImageContext finds it (opt.Noise when set, else
// estimated on the usable bands, no-data left out, noisy bands screened
// unless opt.KeepNoisyBands), with Routed set
// when a model with a noise companion would hand lr to it. The field gain
// is not measured (Gain 1).
func (m *Model) NoiseOf(lr *hsi.Cube, opt EncodeOptions) (Noise, error) {
	if err := lr.Validate(); err != nil {
		return Noise{}, fmt.Errorf("model: %w", err)
	}
	filled, nd, err := hsi.FillNoData(lr)
	if err != nil {
		return Noise{}, fmt.Errorf("model: %w", err)
	}
	nz, err := m.noiseOf(lr, filled, nd.Usable(filled.B), opt)
	if err != nil {
		return nz, err
	}
	nz.Routed = m.noisy != nil && nz.Feature > m.gate
	return nz, nil
}
