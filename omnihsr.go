package omnihsr

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/hsi/tiff"
	"github.com/omnihsr/omnihsr/internal/memlimit"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/noise"
	"github.com/omnihsr/omnihsr/resample"
)

// Method names a super-resolution method, as `omnihsr upscale -method`
// does.
type Method string

// The methods (package method's registry).
const (
	// MethodOmniHSR is the OmniHSR model, the default.
	MethodOmniHSR Method = "omnihsr"
	// MethodOmniHSRSE is the model with the self-ensemble over the 8
	// flips and rotations of the input (8 times the time).
	MethodOmniHSRSE Method = "omnihsr-se"
	// MethodOmniHSRBP is the model followed by one back-projection step.
	MethodOmniHSRBP Method = "omnihsr-bp"
	// MethodBicubic is bicubic interpolation.
	MethodBicubic Method = "bicubic"
)

// NoiseMode says where the noise level the model works with comes from.
type NoiseMode int

const (
	// NoiseAuto estimates the input's noise band by band (the default).
	NoiseAuto NoiseMode = iota
	// NoiseClean treats the input as clean (a noise level of 0).
	NoiseClean
	// NoiseGiven takes the noise standard deviations of Noise.Sigma.
	NoiseGiven
)

// Noise is the input's noise, as `omnihsr upscale -noise` gives it.
// The zero value estimates it.
type Noise struct {
	Mode NoiseMode
	// Sigma, with NoiseGiven, is the noise standard deviation in the
	// input's units: one value for every band, or one per band. Each is
	// finite and >= 0.
	Sigma []float64
}

// Options controls UpscaleFile and Upscale. Exactly one of Scale and Size
// is set.
type Options struct {
	// Scale is the factor S > 0: the output side is round(S*side), rounded
	// half away from zero; fractional factors are fine.
	Scale float64
	// Size is the output height and width instead (zero = unset).
	Size [2]int
	// Method is the method; "" is MethodOmniHSR.
	Method Method
	// Noise is the input's noise (zero value: estimated).
	Noise Noise
	// KeepNoisyBands keeps bands whose estimated noise is far above their
	// spectral neighbours' in the noise level, the routing and the field
	// gain (by default they are screened out of these, and rendered like
	// every band).
	KeepNoisyBands bool
	// Weights is an OmniHSR weight file (*.omw); "" is the model embedded
	// in the binary. Only for the model's methods.
	Weights string

	// The options below apply to UpscaleFile only.

	// Type is the output sample type: "" (float32), "float64", "uint8",
	// "uint16", "int16", "int32", or "same" (the input's). Integer types
	// clamp as gdal_translate -ot does (Result.File.Clamped).
	Type string
	// Driver is the kind of TIFF written: "" or hsi.GTiff, or hsi.COG
	// (hsi.ParseDriver reads GDAL's names).
	Driver hsi.Driver
	// Creation holds GDAL-style TIFF creation options, "KEY=VALUE".
	Creation []string
	// Read selects the array of a MATLAB or HDF5 input, or an EMIT, EnMAP
	// or DESIS product's map grid.
	Read hsi.ReadOptions
	// Overwrite allows an output that is the input file (or its ENVI
	// partner, or a link to either); it is replaced only when complete.
	Overwrite bool
	// Progress, if not nil, is called with the output rows done.
	Progress func(done, total int)
}

// ModelReport says which model rendered and with what noise.
type ModelReport struct {
	// Used is false for bicubic; the other fields are then zero.
	Used bool
	// NoiseInput is false when the model takes no noise input (trained on
	// clean inputs): the input's noise was then not estimated.
	NoiseInput bool
	// Pair is true when the model is a pair: the model for clean inputs
	// and a noise-aware one, chosen by the input's noise (the default).
	Pair bool
	// Sigma is the root mean square over the bands of the noise standard
	// deviation, in the input's units; Estimated says whether it was
	// estimated from the input (or given).
	Sigma     float64
	Estimated bool
	// Net is Sigma over the input's mean absolute value; Feature the
	// noise feature the model receives (log2(1 + Net/0.005)).
	Net, Feature float64
	// NoiseAware is true when the input's noise was above the gate
	// (Gate) and the noise-aware model rendered it, keeping the share
	// Gain of its operator field; false when the model for clean inputs
	// rendered it (Gain is then 1).
	NoiseAware bool
	Gate, Gain float64
	// Screened are the bands left out of the noise level, the routing and
	// the field gain because their estimated noise is far above their
	// neighbours' (rendered like every band).
	Screened []noise.Outlier
}

// ModelReportOf reports the model m that prepared the renderer r
// (method.Method.PrepareContext); Used is false when m is nil (bicubic).
func ModelReportOf(r method.Renderer, m *model.Model) ModelReport {
	if m == nil {
		return ModelReport{}
	}
	rep := ModelReport{Used: true}
	nr, ok := r.(interface{ Noise() model.Noise })
	if !ok {
		return rep
	}
	nz := nr.Noise()
	companion, gate := m.Noisy()
	rep.Pair = companion != nil
	rep.NoiseInput = rep.Pair || m.Cfg.NoiseInput
	if rep.NoiseInput {
		rep.Sigma, rep.Estimated, rep.Net, rep.Feature = nz.Sigma, nz.Estimated, nz.Net, nz.Feature
		rep.NoiseAware, rep.Gain = nz.Routed, nz.Gain
		if rep.Pair {
			rep.Gate = gate
		}
	}
	rep.Screened = nz.Outliers
	return rep
}

// String describes the noise the model worked with and which model
// rendered, in one line ("" for bicubic), as `omnihsr upscale` prints it.
func (r ModelReport) String() string {
	if !r.Used {
		return ""
	}
	if !r.NoiseInput {
		return "noise: this model takes no noise input (trained on clean inputs); the input's noise is not estimated"
	}
	src := "given"
	if r.Estimated {
		src = "estimated from the input"
	}
	what := "the noise-aware model conditions its operators on it"
	if r.Pair {
		if r.NoiseAware {
			what = fmt.Sprintf("above the gate (%.2f): rendered by the noise-aware model, which smooths the noise instead of sharpening it, keeping %.0f %% of its operator field (measured on the input from half its size)", r.Gate, 100*r.Gain)
		} else {
			what = fmt.Sprintf("at or below the gate (%.2f): rendered by the model for clean inputs", r.Gate)
		}
	}
	return fmt.Sprintf("noise %.4g (root mean square over the bands, %s; %.2f %% of the mean absolute value, feature %.2f): %s",
		r.Sigma, src, 100*r.Net, r.Feature, what)
}

// Result is what an upscale did and what the user should know of it.
type Result struct {
	// Height, Width and Bands are the output's shape.
	Height, Width, Bands int
	// InHeight and InWidth are the input's size, InputMeta its metadata
	// (as read by UpscaleFile, as given to Upscale).
	InHeight, InWidth int
	InputMeta         hsi.Meta
	// Method is the method that rendered.
	Method Method
	// NoData counts the input samples that were no-data (the declared
	// value, or NaN): filled from valid neighbours before upscaling and
	// no-data again in the output. BadBands counts the bands left out of
	// the model's input (flagged bad, or no-data everywhere).
	NoData   int
	BadBands int
	// Model is the model chosen and its noise (Used false for bicubic).
	Model ModelReport
	// File is what writing the output reported (UpscaleFile only): the
	// clamped sample count, a no-data value the type cannot hold, and the
	// metadata not kept.
	File method.FileReport
}

// ErrOption is wrapped by the errors of invalid Options.
var ErrOption = errors.New("invalid option")

func optionf(format string, a ...any) error {
	return fmt.Errorf("omnihsr: %w: %s", ErrOption, fmt.Sprintf(format, a...))
}

// check validates opt and returns its method.
func (opt *Options) check() (method.Method, error) {
	if s := opt.Scale; s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return method.Method{}, optionf("Scale %v: want a finite number > 0", s)
	}
	set := opt.Size != [2]int{}
	if (opt.Scale != 0) == set {
		return method.Method{}, optionf("set exactly one of Scale and Size")
	}
	if set && (opt.Size[0] < 1 || opt.Size[1] < 1) {
		return method.Method{}, optionf("Size %dx%d: want positive height and width", opt.Size[0], opt.Size[1])
	}
	name := string(opt.Method)
	if name == "" {
		name = method.Default
	}
	m, err := method.Lookup(name)
	if err != nil {
		return m, fmt.Errorf("omnihsr: %w: %w", ErrOption, err)
	}
	if opt.Weights != "" && !m.Model {
		return m, optionf("Weights applies to the model's methods, not %s", m.Name)
	}
	switch opt.Noise.Mode {
	case NoiseAuto, NoiseClean:
		if len(opt.Noise.Sigma) > 0 {
			return m, optionf("Noise.Sigma is given only with NoiseGiven")
		}
	case NoiseGiven:
		if len(opt.Noise.Sigma) == 0 {
			return m, optionf("NoiseGiven without Noise.Sigma")
		}
		for _, v := range opt.Noise.Sigma {
			if !(v >= 0) || math.IsInf(v, 0) {
				return m, optionf("Noise.Sigma %v: want finite numbers >= 0", v)
			}
		}
	default:
		return m, optionf("Noise.Mode %d unknown", opt.Noise.Mode)
	}
	if opt.Type != "" && !strings.EqualFold(opt.Type, "same") {
		if _, err := sample.ParseType(opt.Type); err != nil {
			return m, optionf("Type %q: %v", opt.Type, err)
		}
	}
	return m, nil
}

// size returns the output size of an H x W input.
func (opt *Options) size(H, W int) (h, w int, err error) {
	if opt.Scale == 0 {
		return opt.Size[0], opt.Size[1], nil
	}
	h, w = resample.UpSize(H, opt.Scale), resample.UpSize(W, opt.Scale)
	if h < 1 || w < 1 {
		eh, ew := math.Round(float64(H)*opt.Scale), math.Round(float64(W)*opt.Scale)
		return 0, 0, fmt.Errorf("%dx%d pixels times %g gives %.4gx%.4g: the output side round(S*side) must be between 1 and 2^31", H, W, opt.Scale, eh, ew)
	}
	return h, w, nil
}

// noiseOf returns the noise of a B-band input to set in its metadata (nil:
// estimate).
func (n Noise) bands(B int) ([]float64, error) {
	switch n.Mode {
	case NoiseClean:
		return make([]float64, B), nil
	case NoiseGiven:
		out := make([]float64, B)
		switch len(n.Sigma) {
		case 1:
			for b := range out {
				out[b] = n.Sigma[0]
			}
		case B:
			copy(out, n.Sigma)
		default:
			return nil, optionf("Noise.Sigma has %d values, the input has %d bands", len(n.Sigma), B)
		}
		return out, nil
	}
	return nil, nil
}

// ReadFile reads a hyperspectral file in the format its extension (or
// content) names, as `omnihsr upscale` reads its input: NaN samples are
// no-data (as GDAL takes them) and an infinite value is an error naming
// its position.
func ReadFile(path string, ro hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	c, info, err := formats.Read(path, ro)
	var nf *hsi.NonFiniteError
	if !errors.As(err, &nf) || c == nil {
		return c, info, err
	}
	for i, v := range c.Data {
		if math.IsInf(float64(v), 0) {
			p := i / c.B
			return nil, info, fmt.Errorf("%s: infinite value %v at row %d, column %d, band %d (0-based): not accepted (NaN is read as no-data)", path, v, p/c.W, p%c.W, i%c.B)
		}
	}
	return c, info, nil
}

// prepared is an input ready to render.
type prepared struct {
	r   method.Renderer
	lr  *hsi.Cube
	res Result
}

// prepare loads the model, sets the input's noise and encodes lr (which
// it does not modify).
func prepare(ctx context.Context, mt method.Method, lr *hsi.Cube, opt *Options) (*prepared, error) {
	res := Result{Method: Method(mt.Name), Bands: lr.B, InHeight: lr.H, InWidth: lr.W, InputMeta: lr.Meta}
	var mod *model.Model
	if mt.Model {
		var err error
		if opt.Weights == "" {
			mod, err = model.Default()
		} else {
			mod, err = model.Load(opt.Weights)
		}
		if err != nil {
			return nil, err
		}
		if opt.KeepNoisyBands {
			mod = mod.KeepNoisyBands(true)
		}
		sig, err := opt.Noise.bands(lr.B)
		if err != nil {
			return nil, err
		}
		if sig != nil {
			c := *lr // the caller's cube keeps its metadata
			c.Meta.Noise = sig
			lr = &c
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r, err := mt.PrepareContext(ctx, mod, lr)
	if err != nil {
		return nil, err
	}
	res.NoData, res.BadBands = countNoData(lr)
	res.Model = ModelReportOf(r, mod)
	return &prepared{r: r, lr: lr, res: res}, nil
}

// countNoData counts the no-data samples of c (its declared value, or
// NaN) and its bad bands: flagged bad, or no-data in every pixel.
func countNoData(c *hsi.Cube) (samples, bad int) {
	ign, hasIgn := c.Meta.IgnoreValue()
	valid := make([]bool, c.B)
	for i, v := range c.Data {
		if v != v || (hasIgn && v == ign) {
			samples++
		} else {
			valid[i%c.B] = true
		}
	}
	for b, ok := range valid {
		if !ok || (b < len(c.Meta.BadBands) && c.Meta.BadBands[b]) {
			bad++
		}
	}
	return samples, bad
}

// UpscaleFile super-resolves the file in into the file out, in the format
// out's extension names, exactly as `omnihsr upscale -in in -out out`
// does with the same options (the same bytes): the input is read with
// ReadFile, checked against the output (format, disk space, memory)
// first, and the output streams to disk for ENVI, NumPy and TIFF. No
// output file is left on any error.
//
// ctx is checked before anything is read, by the encoder between bands
// of rows and before each band of output rows is written; when it is
// done, the output's temporary is removed and the error matches ctx's
// (context.Canceled or context.DeadlineExceeded).
func UpscaleFile(ctx context.Context, in, out string, opt Options) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	mt, err := opt.check()
	if err != nil {
		return Result{}, err
	}
	if _, err := formats.ForWrite(out); err != nil {
		return Result{}, err
	}
	if !opt.Overwrite {
		if err := formats.CheckOutput(out, in); err != nil {
			return Result{}, fmt.Errorf("%w; choose another output, or set Options.Overwrite to replace the input", err)
		}
	}
	var wo hsi.WriteOptions
	same := strings.EqualFold(opt.Type, "same") // the type is known once the input is read
	if !same && opt.Type != "" {
		t, err := sample.ParseType(opt.Type)
		if err != nil {
			return Result{}, optionf("Type %q: %v", opt.Type, err)
		}
		wo.DataType = t
	}
	if opt.Driver != "" || len(opt.Creation) > 0 {
		if f, err := formats.ForWrite(out); err == nil && f.Name != "TIFF" {
			return Result{}, optionf("Driver and Creation apply to TIFF output (.tif, .tiff), not %s", out)
		}
		wo.Driver, wo.Creation = opt.Driver, opt.Creation
		if _, err := tiff.ParseOptions(wo); err != nil {
			return Result{}, fmt.Errorf("omnihsr: %w: %w", ErrOption, err)
		}
	}
	check := func(H, W, B int) (h, w int, err error) {
		if h, w, err = opt.size(H, W); err != nil {
			return 0, 0, fmt.Errorf("%s: %w", in, err)
		}
		return h, w, formats.CheckOutputs([]formats.Output{{Path: out, H: h, W: w, B: B, Opt: wo}})
	}
	if H, W, B, ok := formats.Shape(in); ok {
		if _, _, err := check(H, W, B); err != nil {
			return Result{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	lr, info, err := ReadFile(in, opt.Read)
	if err != nil {
		return Result{}, err
	}
	if same {
		t, err := sample.ParseType(info.DataType)
		if err != nil || info.DataType == "" {
			return Result{}, fmt.Errorf("%s: -type same: the input's sample type %q cannot be written", in, info.DataType)
		}
		wo.DataType = t
	}
	h, w, err := check(lr.H, lr.W, lr.B)
	if err != nil {
		return Result{}, err
	}
	p, err := prepare(ctx, mt, lr, &opt)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", in, err)
	}
	res := p.res
	res.Height, res.Width = h, w
	if res.File, err = method.RenderFileContext(ctx, p.r, p.lr, info, h, w, out, wo, opt.Progress); err != nil {
		return Result{}, fmt.Errorf("%s: %w", in, err)
	}
	return res, nil
}

// Upscale super-resolves the cube lr in memory, with the values that
// UpscaleFile writes as float32; lr is not modified. The options that
// name files (Type, Driver, Creation, Read, Overwrite) must be unset.
// ctx is checked as by UpscaleFile.
func Upscale(ctx context.Context, lr *hsi.Cube, opt Options) (*hsi.Cube, Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, Result{}, err
	}
	mt, err := opt.check()
	if err != nil {
		return nil, Result{}, err
	}
	if opt.Type != "" || opt.Driver != "" || len(opt.Creation) > 0 || opt.Read != (hsi.ReadOptions{}) || opt.Overwrite {
		return nil, Result{}, optionf("Type, Driver, Creation, Read and Overwrite apply to UpscaleFile only")
	}
	if lr == nil {
		return nil, Result{}, optionf("no input cube")
	}
	if err := lr.Validate(); err != nil {
		return nil, Result{}, fmt.Errorf("omnihsr: %w", err)
	}
	h, w, err := opt.size(lr.H, lr.W)
	if err != nil {
		return nil, Result{}, fmt.Errorf("omnihsr: %w", err)
	}
	nd, hasND := hsi.NoDataValue(lr)
	meta, _, _, err := method.OutputMeta(lr.Meta, lr.H, lr.W, h, w, nd, hasND, sample.Invalid, "")
	if err != nil {
		return nil, Result{}, fmt.Errorf("omnihsr: %w", err)
	}
	n, err := hsi.Elems(h, w, lr.B)
	if err != nil {
		return nil, Result{}, fmt.Errorf("omnihsr: %w", err)
	}
	if err := memlimit.Check(uint64(n)*4, fmt.Sprintf("the %d x %d x %d output", h, w, lr.B)); err != nil {
		return nil, Result{}, fmt.Errorf("omnihsr: %w", err)
	}
	p, err := prepare(ctx, mt, lr, &opt)
	if err != nil {
		return nil, Result{}, fmt.Errorf("omnihsr: %w", err)
	}
	sink := &cubeSink{data: make([]float32, 0, n)}
	if err := p.r.RenderTo(h, w, ctxSink{ctx, sink}, opt.Progress); err != nil {
		return nil, Result{}, fmt.Errorf("omnihsr: %w", err)
	}
	res := p.res
	res.Height, res.Width = h, w
	return &hsi.Cube{H: h, W: w, B: lr.B, Data: sink.data, Meta: meta}, res, nil
}

// cubeSink collects rendered rows in memory.
type cubeSink struct{ data []float32 }

func (s *cubeSink) WriteRows(d []float32) error {
	s.data = append(s.data, d...)
	return nil
}

// ctxSink refuses rows once ctx is done, so that a render stops between
// bands of rows.
type ctxSink struct {
	ctx  context.Context
	sink model.RowSink
}

func (s ctxSink) WriteRows(d []float32) error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	return s.sink.WriteRows(d)
}
