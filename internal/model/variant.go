package model

import (
	"fmt"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/cofr"
)

// Ablation variants of the output path (paper Table "Ablation" and
// Appendix "Output Path and Operator Constraint"). Every variant shares the
// network (C_B, input scale, encoder, FiLM, head) and the training; only
// what turns the head's output into the high-resolution cube differs.
//
//	""             OmniHSR: Y = U_s X + sum_n w_n(p) r_n, r_n = sum_q k_nq x(q),
//	               k_n the 25 operator values minus their mean (zero-sum).
//	"free-kernel"  the same with the 25 operator values used as they are
//	               (without the zero-sum constraint).
//	"lowres"       without COFR: the zero-sum operators are applied on the
//	               low-res grid and the result is upsampled bicubically,
//	               Y = U_s(X + r); the geometry outputs are unused (their
//	               gradient is zero).
//	"spectral"     the head predicts M = Cfg.M spectral values per low-res
//	               pixel in place of the 25 operator values (a layer of M
//	               outputs, zero-initialised like the operator layer). They
//	               are mapped from the M reference positions to the B band
//	               positions by linear interpolation (band b at b/(B-1),
//	               reference m at m/(M-1): the inverse direction of C_B; a
//	               single band takes position 0.5, like C_B's single
//	               reference position), divided by the input scale (so they
//	               are in the input's units), and splatted with the same
//	               Gaussian primitives and normalised weights:
//	               Y(p) = sum_n w_n(p) V_n, with no U_s X and no observed
//	               pixel combined.
//
// With a zero-initialised operator layer, OmniHSR, free-kernel and lowres
// render bicubic interpolation exactly; spectral renders zero.
const (
	VariantOmniHSR    = ""
	VariantFreeKernel = "free-kernel"
	VariantLowRes     = "lowres"
	VariantSpectral   = "spectral"
)

// Variants lists the variant names, OmniHSR ("") first.
var Variants = []string{VariantOmniHSR, VariantFreeKernel, VariantLowRes, VariantSpectral}

// CheckVariant returns an error for an unknown variant name.
func CheckVariant(v string) error {
	for _, k := range Variants {
		if v == k {
			return nil
		}
	}
	return fmt.Errorf("model: unknown variant %q (known: \"\" (OmniHSR), %s)", v, strings.Join(Variants[1:], ", "))
}

// VariantLabel is a readable name of a variant ("omnihsr" for "").
func VariantLabel(v string) string {
	if v == VariantOmniHSR {
		return "omnihsr"
	}
	return v
}

// VariantDescription says in a few words what a variant's output path is.
func VariantDescription(v string) string {
	switch v {
	case VariantOmniHSR:
		return "U_s X + COFR field of zero-sum 5x5 operators (OmniHSR)"
	case VariantFreeKernel:
		return "U_s X + COFR field of unconstrained 5x5 operators (free kernel)"
	case VariantLowRes:
		return "U_s(X + r): zero-sum 5x5 operators on the low-res grid, then bicubic (without COFR)"
	case VariantSpectral:
		return "COFR splat of M predicted spectral values, no U_s X (spectral values)"
	}
	return "unknown variant " + v
}

// OpChans is the number of outputs of the operator layer: 25 operator
// values, or M spectral values for the spectral variant.
func (c Config) OpChans() int {
	if c.Variant == VariantSpectral {
		return c.M
	}
	return cofr.Taps
}

// HeadChans is the number of raw head channels per low-res pixel: 6
// geometry values then OpChans values.
func (c Config) HeadChans() int { return rawK + c.OpChans() }

func (c Config) opMode() opMode {
	switch c.Variant {
	case VariantFreeKernel:
		return opFree
	case VariantSpectral:
		return opNone
	}
	return opZeroSum
}

// Primitives turns a raw head output of h x w pixels into COFR primitives
// with the parameterisation of the model's variant. For the spectral
// variant K is nil (its values are rendered by Output).
func (m *Model) Primitives(raw []float32, h, w int) (*cofr.Primitives, error) {
	return primitivesOf(raw, h, w, m.Cfg.HeadChans(), m.Cfg.opMode())
}

// Output is the model's output path for one low-res cube, one raw head
// output and one target grid: the forward rendering (RenderRows, Render)
// and its backward pass to the raw head output (Backward), for every
// variant. It is what inference (Encoded.RenderTo) and training
// (train.Trainer) share.
type Output struct {
	cfg        Config
	lr         *hsi.Cube
	raw        []float32
	prims      *cofr.Primitives
	outH, outW int

	nd *hsi.NoDataMask // no-data mask of the input (nil: none), applied by RenderRows
	// owned reports whether lr was selected for this output (Bands),
	// which shares raw and prims with the output it came from.
	owned bool

	cr *cofr.Renderer      // OmniHSR, free-kernel: COFR on X; lowres: U_s of X + r (zero operators)
	vr *cofr.ValueRenderer // spectral
	bm *BandMap            // spectral: the M reference positions to the B bands
	// unit is 1/InputScale(lr): spectral values are in the network's units.
	unit float32
}

// NewOutput prepares the output path of lr (h x w x B) for the raw head
// output raw (h*w*Cfg.HeadChans() values) on an outH x outW grid.
func (m *Model) NewOutput(lr *hsi.Cube, raw []float32, outH, outW int) (*Output, error) {
	return m.newOutput(lr, raw, outH, outW, Noise{})
}

// NewOutputWorkers is NewOutput with COFR on that many goroutines (0:
// GOMAXPROCS): the backward pass's sums follow the workers, so a fixed
// count gives the same gradients on any thread count.
func (m *Model) NewOutputWorkers(lr *hsi.Cube, raw []float32, outH, outW, workers int) (*Output, error) {
	return m.newOutputWorkers(lr, raw, outH, outW, Noise{}, workers)
}

// newOutput is NewOutput with the operators scaled by the field gain of
// the input's noise nz (scaleOperators).
func (m *Model) newOutput(lr *hsi.Cube, raw []float32, outH, outW int, nz Noise) (*Output, error) {
	return m.newOutputWorkers(lr, raw, outH, outW, nz, 0)
}

func (m *Model) newOutputWorkers(lr *hsi.Cube, raw []float32, outH, outW int, nz Noise, workers int) (*Output, error) {
	if lr == nil {
		return nil, fmt.Errorf("model: nil input cube")
	}
	prims, err := m.Primitives(raw, lr.H, lr.W)
	if err != nil {
		return nil, err
	}
	scaleOperators(prims, nz)
	o := &Output{cfg: m.Cfg, lr: lr, raw: raw, prims: prims, outH: outH, outW: outW}
	opt := m.COFROptions()
	opt.Workers = workers
	switch m.Cfg.Variant {
	case VariantLowRes:
		r, err := cofr.ApplyOperators(lr, prims.K)
		if err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
		for i, v := range lr.Data {
			r.Data[i] += v // X + r, in place
		}
		zero, err := cofr.NewPrimitives(lr.H, lr.W)
		if err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
		// Zero operators: the renderer computes U_s of its input alone.
		if o.cr, err = cofr.NewRenderer(r, zero, outH, outW, opt); err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
	case VariantSpectral:
		if o.bm, err = NewBandMap(m.Cfg.M, lr.B); err != nil {
			return nil, err
		}
		o.unit = float32(1 / float64(InputScale(lr)))
		v, err := hsi.New(lr.H, lr.W, lr.B)
		if err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
		chans, M := m.Cfg.HeadChans(), m.Cfg.M
		for p := 0; p < lr.H*lr.W; p++ {
			o.bm.Apply(v.Data[p*lr.B:(p+1)*lr.B], raw[p*chans+rawK:p*chans+rawK+M], o.unit)
		}
		if o.vr, err = cofr.NewValueRenderer(v, prims, outH, outW, opt); err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
	default:
		if o.cr, err = cofr.NewRenderer(lr, prims, outH, outW, opt); err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
	}
	return o, nil
}

// Bands returns the output restricted to the bands listed (band k of it
// is band bands[k] of this one, within float32 rounding): a window of
// three bands costs about 3/B of one of all B. The spectral variant,
// whose values mix bands, has none.
func (o *Output) Bands(bands []int) (*Output, error) {
	if o.vr != nil {
		return nil, fmt.Errorf("model: the %s variant renders all bands at once", o.cfg.Variant)
	}
	sel, err := o.lr.SelectBands(bands)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	in := sel
	if o.cr.Input() != o.lr {
		if in, err = o.cr.Input().SelectBands(bands); err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
	}
	cr, err := o.cr.WithInput(in)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	return &Output{cfg: o.cfg, lr: sel, raw: o.raw, prims: o.prims, outH: o.outH, outW: o.outW, nd: o.nd.Select(bands), cr: cr, owned: true}, nil
}

// Bytes returns the memory the output holds besides the input cube it
// was made for: the raw head output and the primitives (about 63 floats a
// low-res pixel for OmniHSR) and the input it renders when it made that
// itself (the lowres variant's X + r, the spectral variant's values). An
// output of some bands (Bands) shares the raw output and primitives with
// the output it came from and counts only the bands it selected.
func (o *Output) Bytes() int64 {
	var n int64
	if o.owned {
		n = int64(len(o.lr.Data))
	} else {
		n = int64(len(o.raw))
		if p := o.prims; p != nil {
			n += int64(len(p.OffY) + len(p.OffX) + len(p.Sigma1) + len(p.Sigma2) + len(p.Theta) + len(p.Alpha) + len(p.K))
		}
		if o.vr != nil {
			n += int64(o.lr.H) * int64(o.lr.W) * int64(o.lr.B)
		}
	}
	if o.cr != nil && o.cr.Input() != o.lr {
		n += int64(len(o.cr.Input().Data))
	}
	return 4 * n
}

// Primitives returns the primitives of the output (K is nil for the
// spectral variant; the geometry is unused by lowres).
func (o *Output) Primitives() *cofr.Primitives { return o.prims }

// RenderRows renders target rows [u0, u1) into dst ((u1-u0)*outW*B values).
func (o *Output) RenderRows(u0, u1 int, dst []float32) error {
	var err error
	if o.vr != nil {
		err = o.vr.RenderRows(u0, u1, dst)
	} else {
		err = o.cr.RenderRows(u0, u1, dst)
	}
	if err != nil {
		return err
	}
	o.nd.Apply(u0, u1, o.outH, o.outW, o.lr.B, dst)
	return nil
}

// RowCut returns the first output row of the row of COFR's groups of
// cells that holds output row u (cofr.Renderer.RowCut): bands of rows
// that begin there render fastest.
func (o *Output) RowCut(u int) int {
	if o.vr != nil {
		return o.vr.RowCut(u)
	}
	return o.cr.RowCut(u)
}

// RenderWindow renders target rows [u0, u1), columns [v0, v1) into dst
// ((u1-u0)*(v1-v0)*B values): the values of RenderRows there, computing
// only what the window needs (the spectral variant renders whole rows).
func (o *Output) RenderWindow(u0, u1, v0, v1 int, dst []float32) error {
	if o.vr != nil || v0 < 0 || v1 > o.outW || v0 >= v1 {
		if v0 < 0 || v1 > o.outW || v0 >= v1 || u0 < 0 || u1 > o.outH || u0 >= u1 {
			return fmt.Errorf("model: window rows [%d, %d), columns [%d, %d) outside a %dx%d output", u0, u1, v0, v1, o.outH, o.outW)
		}
		B, w := o.lr.B, v1-v0
		if len(dst) != (u1-u0)*w*B {
			return fmt.Errorf("model: window %dx%d: destination holds %d values, want %d", u1-u0, w, len(dst), (u1-u0)*w*B)
		}
		rows := make([]float32, o.outW*B)
		for u := u0; u < u1; u++ {
			if err := o.RenderRows(u, u+1, rows); err != nil {
				return err
			}
			copy(dst[(u-u0)*w*B:(u-u0+1)*w*B], rows[v0*B:v1*B])
		}
		return nil
	}
	if err := o.cr.RenderWindow(u0, u1, v0, v1, dst); err != nil {
		return err
	}
	o.nd.ApplyWindow(u0, u1, v0, v1, o.outH, o.outW, o.lr.B, dst)
	return nil
}

// Render renders the whole output with the input's metadata and its
// georeferencing scaled to the target grid.
func (o *Output) Render() (*hsi.Cube, error) {
	out, err := hsi.New(o.outH, o.outW, o.lr.B)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if err := o.RenderRows(0, o.outH, out.Data); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if out.Meta, err = o.lr.Meta.Resized(o.lr.H, o.lr.W, o.outH, o.outW); err != nil {
		return nil, err
	}
	return out, nil
}

// Backward returns dL/d(raw head output) given dY = dL/dY for the whole
// target cube (outH*outW*B values). The input cube gets no gradient.
func (o *Output) Backward(dY []float32) ([]float32, error) {
	chans := o.cfg.HeadChans()
	lr := o.lr
	switch o.cfg.Variant {
	case VariantLowRes:
		dxr := make([]float32, len(lr.Data))
		if err := UpsampleAdjoint(dxr, dY, lr.H, lr.W, o.outH, o.outW, lr.B, 1); err != nil {
			return nil, err
		}
		dk, err := cofr.OperatorGrads(lr, dxr)
		if err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
		return rawGradOf(o.raw, chans, &cofr.Grads{K: dk}, opZeroSum), nil
	case VariantSpectral:
		dv, gr, err := o.vr.Backward(dY)
		if err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
		out := rawGradOf(o.raw, chans, gr, opNone)
		M := o.cfg.M
		for p := 0; p < lr.H*lr.W; p++ {
			o.bm.ApplyT(out[p*chans+rawK:p*chans+rawK+M], dv[p*lr.B:(p+1)*lr.B], o.unit)
		}
		return out, nil
	}
	gr, err := o.cr.Backward(dY)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	return rawGradOf(o.raw, chans, gr, o.cfg.opMode()), nil
}

// scaleOperators multiplies the operators of p by the field gain of a
// routed input (Noise.Gain): the operator field, a sum of the operators'
// responses, scales with them.
func scaleOperators(p *cofr.Primitives, nz Noise) {
	if !nz.Routed || nz.Gain == 1 {
		return
	}
	g := float32(nz.Gain)
	for i := range p.K {
		p.K[i] *= g
	}
}
