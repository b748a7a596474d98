package omnihsr

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/products"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/hsi/tiff"
	"github.com/omnihsr/omnihsr/internal/adapt"
	"github.com/omnihsr/omnihsr/internal/memlimit"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/opttext"
	"github.com/omnihsr/omnihsr/internal/regfile"
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
	// NoiseFile reads one noise standard deviation per band from
	// Noise.File: numbers separated by white space or commas ('#' starts
	// a comment), or a cube of the input's band count in any format read
	// (e.g. a sensor's per-pixel uncertainty product), reduced to the root
	// mean square of each band's finite, valid samples (an HDF5 or
	// NetCDF-4 cube streamed chunk by chunk).
	NoiseFile
	// NoiseCompanion, for an EMIT L2A reflectance granule
	// (EMIT_L2A_RFL_001_<time>_<orbit>_<scene>.nc), reads the noise as
	// NoiseFile does from the granule's uncertainty companion in the same
	// folder (EMIT_L2A_RFLUNCERT_001_..., as LP DAAC delivers the two),
	// with the input's Read.Ortho; its grid must be the input's.
	// UpscaleFile only.
	NoiseCompanion
)

// Noise is the input's noise, as `omnihsr upscale -noise` gives it.
// The zero value estimates it.
type Noise struct {
	Mode NoiseMode
	// Sigma, with NoiseGiven, is the noise standard deviation in the
	// input's units: one value for every band, or one per band. Each is
	// finite and >= 0.
	Sigma []float64
	// File, with NoiseFile, is the file of the noise values.
	File string
}

// Options controls UpscaleFile and Upscale. Exactly one of Scale, Size
// and Scales is set.
type Options struct {
	// Scale is the factor S > 0: the output side is round(S*side), rounded
	// half away from zero; fractional factors are fine.
	Scale float64
	// Size is the output height and width instead (zero = unset).
	Size [2]int
	// Scales are several factors, each one output rendered from the one
	// encoding of the input (UpscaleFile only). UpscaleFile's out is then
	// a pattern holding "{scale}", replaced by each factor ("sr_x{scale}.hdr":
	// sr_x2.hdr, sr_x3.5.hdr), or a directory (existing, or ending in a
	// separator; made if missing) that receives STEM_xS.EXT, the input's
	// stem and extension (.hdr for an ENVI data file). Each output is
	// written to a pending file beside it and all are renamed into place
	// once every one is complete, so that a failed or cancelled run leaves
	// every path as it found it (files of the same names included).
	Scales []float64
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
	// Clamp keeps the output's values physical: ClampInput clamps every
	// band to its range in the input (Result.InputClamped counts the
	// samples moved); the default, ClampNone, writes them as rendered.
	Clamp Clamp
	// Adapt fine-tunes a copy of the model on pairs made from the input
	// alone before rendering (per-scene adaptation, `-adapt`): 0, the
	// default, does not; N > 0 runs N steps; AdaptAuto the tuned count. A
	// check one scale down (the same fine-tune on the input reduced by the
	// factor, rendered back and scored against the input: Wald's protocol
	// on the input itself) decides whether a fine-tuned copy, the shipped
	// model or the other member of the model pair renders (Result.Adapt).
	// The result is deterministic; the context stops the fine-tune within
	// a step. Only for the model's methods.
	Adapt int

	// The options below apply to UpscaleFile only.

	// Type is the output sample type; the zero value, sample.Invalid, is
	// float32. Integer types clamp as gdal_translate -ot does
	// (Result.Files[i].Clamped).
	Type sample.Type
	// SameType writes the input's sample type instead (Type unset), as
	// `-type same` does.
	SameType bool
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
	// Completion, if not nil, is called with the fraction of the whole
	// call's work done, rising from 0 to 1 (the last call, when the call
	// succeeds): the model's encoding, then every output's rows, each part
	// weighted by its estimated cost (about 9 microseconds per input pixel
	// for the encoder; for the rows 100 nanoseconds per output pixel and 6
	// per sample, as measured on 2 cores), so that a progress bar moves
	// while the model encodes as well as while it writes. It runs on the
	// calling goroutine and must return quickly.
	Completion func(fraction float64)
}

// AdaptAuto is Options.Adapt for `-adapt auto`: the step count chosen on
// the training scenes (internal/model/weights/README.md).
const AdaptAuto = adapt.Auto

// AdaptScore is a held-out score of per-scene adaptation: PSNR (dB) and
// SAM (degrees).
type AdaptScore struct{ PSNR, SAM float64 }

// AdaptReport says what per-scene adaptation (Options.Adapt) did.
type AdaptReport struct {
	// Steps is the number of fine-tuning steps run on the input: 0 when
	// adaptation was off, the input too small for the check, or the check
	// said no (Reason says which). CheckSteps are those run on the
	// check's reduced input.
	Steps, CheckSteps int
	// Check names the check's input, the input reduced by Factor ("" when
	// there was none): every candidate renders it back to the input's size
	// and is scored against the input (Wald's protocol on the input).
	Check  string
	Factor float64
	// Shipped is the check's score of the shipped model as it routes the
	// input (ShippedRoute: "clean" or "noise-aware"), Other that of the
	// other member of the model pair (OtherRoute; nil without a pair) and
	// Adapted that of a copy fine-tuned on the reduced input alone (nil
	// when none was trained).
	Shipped                  AdaptScore
	Other, Adapted           *AdaptScore
	ShippedRoute, OtherRoute string
	// Choice is what rendered: "shipped", "other" or "adapted"; Reason
	// says why.
	Choice, Reason string
	// TooSmall is set when the input was too small to check (Check is
	// empty), or the check's input too small or with too few bands to
	// judge a fine-tune (then none was trained): the shipped model, or
	// the member of the pair the check chose, rendered.
	TooSmall bool
}

// String describes the report in one line ("" when adaptation was off).
func (r AdaptReport) String() string {
	if r.Choice == "" {
		return ""
	}
	return adaptReport(r).String()
}

func adaptReport(r AdaptReport) adapt.Report {
	return adapt.Report{Steps: r.Steps, CheckSteps: r.CheckSteps, Check: r.Check, Factor: r.Factor, Shipped: adapt.Score(r.Shipped),
		Other: (*adapt.Score)(r.Other), Adapted: (*adapt.Score)(r.Adapted), ShippedRoute: r.ShippedRoute,
		OtherRoute: r.OtherRoute, Choice: r.Choice, Reason: r.Reason, TooSmall: r.TooSmall}
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

// modelReportOf reports the model m that prepared the renderer r
// (method.Method.PrepareContext); Used is false when m is nil (bicubic).
func modelReportOf(r method.Renderer, m *model.Model) ModelReport {
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

// String says in one line, in plain words, which model rendered and why:
// the input's noise as a share of its signal next to the level up to which
// the model for clean inputs renders ("" for bicubic), as `omnihsr
// upscale` prints it. Detail gives the technical figures.
func (r ModelReport) String() string {
	if !r.Used {
		return ""
	}
	if !r.NoiseInput {
		return "this model takes no noise input (trained on clean inputs): the input's noise is not estimated"
	}
	level := fmt.Sprintf("estimated noise %.2f %% of the signal", 100*r.Net)
	if !r.Estimated {
		level = fmt.Sprintf("given noise %.4g, %.2f %% of the signal", r.Sigma, 100*r.Net)
	}
	if !r.Pair {
		return level + "; the noise-aware model adapts its sharpening to it"
	}
	limit := 100 * model.NoiseNet(r.Gate)
	looks := "looks"
	if !r.Estimated {
		looks = "counts as"
	}
	if !r.NoiseAware {
		return fmt.Sprintf("input %s clean: %s, within the %.2f %% limit; using the sharpening model", looks, level, limit)
	}
	s := fmt.Sprintf("input %s noisy: %s, above the %.2f %% limit; using the noise-aware model, which sharpens less", looks, level, limit)
	switch {
	case r.Gain <= 0:
		s += " (here not at all: on this input, tested from half its size, sharpening did not pay, so the output is bicubic)"
	case r.Gain < 0.995:
		s += fmt.Sprintf(" (here at %.0f %% of its strength, as tested on this input from half its size)", 100*r.Gain)
	}
	return s
}

// Detail describes the same in the model's terms, for `omnihsr upscale
// -v`: the noise's root mean square in the input's units, the noise
// feature the network receives next to the gate that chose the model, and
// the share of its operator field the noise-aware model kept (its field
// gain).
func (r ModelReport) Detail() string {
	if !r.Used || !r.NoiseInput {
		return r.String()
	}
	src := "given"
	if r.Estimated {
		src = "estimated from the input"
	}
	what := "the noise-aware model conditions its operators on it"
	if r.Pair {
		if r.NoiseAware {
			what = fmt.Sprintf("feature above the gate (%.2f): rendered by the noise-aware model, which smooths the noise instead of sharpening it, keeping %.0f %% of its operator field (measured on the input from half its size)", r.Gate, 100*r.Gain)
		} else {
			what = fmt.Sprintf("feature at or below the gate (%.2f): rendered by the model for clean inputs", r.Gate)
		}
	}
	return fmt.Sprintf("noise %.4g (root mean square over the bands, %s; %.2f %% of the mean absolute value, feature %.2f): %s",
		r.Sigma, src, 100*r.Net, r.Feature, what)
}

// Result is what an upscale did and what the user should know of it.
type Result struct {
	// Height, Width and Bands are the output's shape (the first output's
	// with Scales; Files has each one's).
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
	// Adapt is what per-scene adaptation did (zero when Options.Adapt is 0).
	Adapt AdaptReport
	// NoiseFile is the file the noise was read from (NoiseFile,
	// NoiseCompanion; "" otherwise).
	NoiseFile string
	// InputClamped counts the output samples that ClampInput moved into
	// their band's input range (every output of Scales together).
	InputClamped int64
	// Files are what writing each output reported (UpscaleFile only), in
	// the order of Scales: its path and size, the metadata written, the
	// clamped sample count, a no-data value the type cannot hold, and the
	// metadata not kept.
	Files []FileReport
}

// FileReport is what writing one output file reported.
type FileReport struct {
	// Path is the output file; Type its sample type ("" = float32).
	Path, Type string
	// Height and Width are the output's size, Meta the metadata written
	// (the input's, on the output's grid).
	Height, Width int
	Meta          hsi.Meta
	// NoDataChanged is true when the no-data value NoDataFrom does not fit
	// Type and was written as NoDataTo (the clamp's value).
	NoDataChanged        bool
	NoDataFrom, NoDataTo float64
	// Dropped lists the metadata the format cannot hold.
	Dropped []string
	// GridFields lists the ENVI fields of the input that describe pixel
	// positions of the input grid, not written.
	GridFields []string
	// Clamped counts the samples outside Type's range, clamped to it
	// (ClampRange, "lo..hi") as gdal_translate -ot does.
	Clamped    int64
	ClampRange string
}

// ErrOption is wrapped by the errors of invalid Options.
var ErrOption = errors.New("invalid option")

func optionf(format string, a ...any) error {
	return fmt.Errorf("omnihsr: %w: %s", ErrOption, fmt.Sprintf(format, a...))
}

// check validates opt and returns its method.
func (opt *Options) check() (method.Method, error) {
	if opt.Clamp < ClampNone || opt.Clamp > ClampType {
		return method.Method{}, optionf("Clamp %d: want ClampNone, ClampInput or ClampType", int(opt.Clamp))
	}
	if s := opt.Scale; s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return method.Method{}, optionf("Scale %v: want a finite number > 0", s)
	}
	set := opt.Size != [2]int{}
	given := 0
	for _, g := range []bool{opt.Scale != 0, set, opt.Scales != nil} {
		if g {
			given++
		}
	}
	if given != 1 {
		return method.Method{}, optionf("set exactly one of Scale, Size and Scales")
	}
	if set && (opt.Size[0] < 1 || opt.Size[1] < 1) {
		return method.Method{}, optionf("Size %dx%d: want positive height and width", opt.Size[0], opt.Size[1])
	}
	if opt.Scales != nil && len(opt.Scales) == 0 {
		return method.Method{}, optionf("Scales is empty")
	}
	for i, s := range opt.Scales {
		if !(s > 0) || math.IsInf(s, 0) {
			return method.Method{}, optionf("Scales: factor %v: want a finite number > 0", s)
		}
		if slices.Contains(opt.Scales[:i], s) {
			return method.Method{}, optionf("Scales: factor %v given twice (each factor is one output)", s)
		}
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
	if opt.Adapt != 0 && !m.Model {
		return m, optionf("Adapt applies to the model's methods, not %s", m.Name)
	}
	if opt.Adapt < adapt.Auto || opt.Adapt > adapt.MaxSteps {
		return m, optionf("Adapt %d: want 0 (off), AdaptAuto or 1 to %d steps", opt.Adapt, adapt.MaxSteps)
	}
	if len(opt.Noise.Sigma) > 0 && opt.Noise.Mode != NoiseGiven {
		return m, optionf("Noise.Sigma is given only with NoiseGiven")
	}
	if opt.Noise.File != "" && opt.Noise.Mode != NoiseFile {
		return m, optionf("Noise.File is given only with NoiseFile")
	}
	switch opt.Noise.Mode {
	case NoiseAuto, NoiseClean, NoiseCompanion:
	case NoiseGiven:
		if len(opt.Noise.Sigma) == 0 {
			return m, optionf("NoiseGiven without Noise.Sigma")
		}
		for _, v := range opt.Noise.Sigma {
			if !(v >= 0) || math.IsInf(v, 0) {
				return m, optionf("Noise.Sigma %v: want finite numbers >= 0", v)
			}
		}
	case NoiseFile:
		if opt.Noise.File == "" {
			return m, optionf("NoiseFile without Noise.File")
		}
	default:
		return m, optionf("Noise.Mode %d unknown", opt.Noise.Mode)
	}
	if opt.Type != sample.Invalid && opt.Type.Size() == 0 {
		return m, optionf("Type %d unknown", opt.Type)
	}
	if opt.SameType && opt.Type != sample.Invalid {
		return m, optionf("Type %s and SameType", opt.Type)
	}
	return m, nil
}

// checkFiles refuses, before anything is read, a weight or noise file
// that exists and is not a regular file (regfile.Check): a FIFO would
// block the read for ever, a device such as /dev/zero be read without end.
// The readers bound what they read of a regular one.
func (opt *Options) checkFiles() error {
	for _, f := range []struct{ path, what string }{{opt.Weights, "weight file"}, {opt.Noise.File, "noise file"}} {
		if f.path == "" {
			continue
		}
		if err := regfile.Check(f.path); err != nil {
			return fmt.Errorf("omnihsr: %s: %w", f.what, err)
		}
	}
	return nil
}

// checkOutputKinds refuses, before anything is read, an output whose file
// (or ENVI partner file) exists and is not a regular file: a directory, a
// FIFO or a device would fail only when the finished output is renamed
// over it.
func checkOutputKinds(paths []string) error {
	for _, p := range paths {
		for _, f := range formats.WriteFiles(p) {
			if st, err := os.Stat(f); err == nil && !st.Mode().IsRegular() {
				return fmt.Errorf("omnihsr: output %s exists and is %s; give the path of a file", f, regfile.Kind(st.Mode()))
			}
		}
	}
	return nil
}

// sizes returns the output sizes of an H x W input: Size, or one per
// factor of Scale or Scales.
func (opt *Options) sizes(H, W int) ([][2]int, error) {
	if opt.Size != [2]int{} {
		return [][2]int{opt.Size}, nil
	}
	factors := opt.Scales
	if opt.Scale != 0 {
		factors = []float64{opt.Scale}
	}
	out := make([][2]int, len(factors))
	for i, s := range factors {
		h, w := resample.UpSize(H, s), resample.UpSize(W, s)
		if h < 1 || w < 1 {
			eh, ew := math.Round(float64(H)*s), math.Round(float64(W)*s)
			return nil, fmt.Errorf("%dx%d pixels times %g gives %.4gx%.4g: the output side round(S*side) must be between 1 and 2^31", H, W, s, eh, ew)
		}
		out[i] = [2]int{h, w}
	}
	return out, nil
}

// outputPaths returns the files of UpscaleFile's outputs: out, or with
// Scales one per factor (Options.Scales), making out's directory.
func (opt *Options) outputPaths(in, out string) ([]string, error) {
	if opt.Scales == nil {
		return []string{out}, nil
	}
	paths := make([]string, len(opt.Scales))
	if strings.Contains(out, "{scale}") {
		for i, s := range opt.Scales {
			paths[i] = opttext.ExpandScale(out, s)
		}
		return paths, nil
	}
	st, err := os.Stat(out)
	isDir := err == nil && st.IsDir()
	if !isDir && !strings.HasSuffix(out, string(os.PathSeparator)) {
		if len(opt.Scales) == 1 {
			return []string{out}, nil
		}
		return nil, optionf("output %q: with several Scales give a directory or a pattern containing {scale}", out)
	}
	if !isDir {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, err
		}
	}
	base := filepath.Base(in)
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	if ext == "" || strings.EqualFold(ext, ".img") || strings.EqualFold(ext, ".dat") || strings.EqualFold(ext, ".raw") {
		ext = ".hdr"
	}
	for i, s := range opt.Scales {
		paths[i] = filepath.Join(out, stem+"_x"+opttext.Label(s)+ext)
	}
	return paths, nil
}

// bands returns the noise of a B-band input to set in its metadata (nil:
// estimate); NoiseFile and NoiseCompanion are read by readNoise.
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
// content) names, as `omnihsr upscale` reads its input, with ro's
// non-finite policy (hsi.ReadOptions.RefuseNaN): by default NaN samples
// are no-data (as GDAL takes them) and an infinite value is a
// *hsi.NonFiniteError naming its position; on an error no cube is
// returned.
func ReadFile(path string, ro hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	if err := checkReadApplies(path, ro); err != nil {
		return nil, hsi.SourceInfo{}, err
	}
	c, info, err := formats.Read(path, ro)
	if err != nil {
		return nil, info, err
	}
	return c, info, nil
}

// checkReadApplies refuses read options that the format of path would
// ignore (formats.IgnoredReadOptions), as GDAL refuses an open option its
// driver does not know: the caller would otherwise get another image than
// the one asked for, silently.
func checkReadApplies(path string, ro hsi.ReadOptions) error {
	ignored := formats.IgnoredReadOptions(path, ro)
	if len(ignored) == 0 {
		return nil
	}
	f, _ := formats.ForRead(path)
	for i, n := range ignored {
		ignored[i] = "Read." + n
	}
	return optionf("%s: %s does not apply to a %s file (Var, Layout, Height and Width select an array of a MATLAB or HDF5 file, Ortho the map grid of an EMIT, EnMAP or DESIS product)",
		path, strings.Join(ignored, ", "), f.Name)
}

// prepared is an input ready to render.
type prepared struct {
	r       method.Renderer
	lr      *hsi.Cube
	res     Result
	clamped atomic.Int64 // samples moved by ClampInput
}

// prepare loads the model, gathers the encoder's settings (the noise read from noiseFile
// for NoiseFile and NoiseCompanion, the companion of the input companionOf)
// and encodes lr (which it does not modify).
func prepare(ctx context.Context, mt method.Method, lr *hsi.Cube, opt *Options, noiseFile, companionOf string, sizes [][2]int, comp *completion) (*prepared, error) {
	res := Result{Method: Method(mt.Name), Bands: lr.B, InHeight: lr.H, InWidth: lr.W, InputMeta: lr.Meta}
	var mod *model.Model
	var enc model.EncodeOptions
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
		enc.KeepNoisyBands = opt.KeepNoisyBands
		sig, err := opt.Noise.bands(lr.B)
		if err != nil {
			return nil, err
		}
		if noiseFile != "" {
			if sig, err = readNoise(noiseFile, lr, companionOf); err != nil {
				return nil, err
			}
			res.NoiseFile = noiseFile
		}
		enc.Noise = sig
		if opt.Adapt != 0 {
			if mod, res.Adapt, err = adaptModel(ctx, mod, lr, enc, opt.Adapt, sizes, comp); err != nil {
				return nil, err
			}
		}
		if comp != nil {
			enc.Progress = comp.encode()
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r, err := mt.PrepareContext(ctx, mod, lr, enc)
	if err != nil {
		return nil, err
	}
	res.NoData, res.BadBands = countNoData(lr)
	res.Model = modelReportOf(r, mod)
	p := &prepared{r: r, lr: lr, res: res}
	if opt.Clamp == ClampInput {
		lo, hi := bandRanges(lr)
		nd, hasND := hsi.NoDataValue(lr)
		p.r = newInputClamp(r, lo, hi, nd, hasND, &p.clamped)
	}
	return p, nil
}

// adaptModel runs per-scene adaptation (Options.Adapt) of m on lr for the
// largest factor of sizes.
func adaptModel(ctx context.Context, m *model.Model, lr *hsi.Cube, enc model.EncodeOptions, steps int, sizes [][2]int, comp *completion) (*model.Model, AdaptReport, error) {
	var s float64
	for _, z := range sizes {
		s = max(s, model.EffectiveFactor(lr.H, lr.W, z[0], z[1]))
	}
	am, rep, err := adapt.Run(ctx, m, lr, adapt.Options{Steps: steps, Factor: s, Encode: enc, Progress: comp.adapt()})
	if err != nil {
		return nil, AdaptReport{}, fmt.Errorf("adapt: %w", err)
	}
	return am, AdaptReport{Steps: rep.Steps, CheckSteps: rep.CheckSteps, Check: rep.Check, Factor: rep.Factor, Shipped: AdaptScore(rep.Shipped),
		Other: (*AdaptScore)(rep.Other), Adapted: (*AdaptScore)(rep.Adapted), ShippedRoute: rep.ShippedRoute,
		OtherRoute: rep.OtherRoute, Choice: rep.Choice, Reason: rep.Reason, TooSmall: rep.TooSmall}, nil
}

// countNoData counts the no-data samples of c (its declared value, or
// NaN) and its bad bands: flagged bad, or no-data in every pixel.
func countNoData(c *hsi.Cube) (samples, bad int) {
	nd := c.Meta.NoData()
	valid := make([]bool, c.B)
	for i, v := range c.Data {
		if nd.Is(v) {
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
// ReadFile, checked against the outputs (format, disk space of all the
// streamed outputs together, memory) first, and the outputs stream to
// disk for ENVI, NumPy and TIFF. With Scales, every output is rendered
// from one encoding of the input and out names them all (Options.Scales).
// The input is opened once (formats.Open). The bicubic method first scans
// its rows and, unless a band not flagged bad holds a no-data sample
// (which needs the whole image to fill), renders them a band of rows at a
// time, so that neither a streamed input nor the output is held whole;
// otherwise, and for the model, the input is read whole (formats.ReadAll). No output file is left
// on any error, and no existing file is changed: with Scales, the outputs
// are published together once all are complete (Options.Scales). An
// output that exists and is not a regular file (a directory), and a
// weight or noise file that is not one (a FIFO, /dev/zero), are refused
// before the input is read.
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
	if err := opt.checkFiles(); err != nil {
		return Result{}, err
	}
	if err := checkReadApplies(in, opt.Read); err != nil {
		return Result{}, err
	}
	paths, err := opt.outputPaths(in, out)
	if err != nil {
		return Result{}, err
	}
	if err := checkOutputKinds(paths); err != nil {
		return Result{}, err
	}
	for _, p := range paths {
		if _, err := formats.ForWrite(p); err != nil {
			return Result{}, err
		}
	}
	if !opt.Overwrite {
		for _, p := range paths {
			if err := formats.CheckOutput(p, in); err != nil {
				return Result{}, fmt.Errorf("%w; choose another output, or set Options.Overwrite to replace the input", err)
			}
		}
	}
	wo := hsi.WriteOptions{DataType: opt.Type}
	same := opt.SameType // the type is known once the input is read
	if opt.Driver != "" || len(opt.Creation) > 0 {
		for _, p := range paths {
			if f, err := formats.ForWrite(p); err == nil && f.Name != "TIFF" {
				return Result{}, optionf("Driver and Creation apply to TIFF output (.tif, .tiff), not %s", p)
			}
		}
		wo.Driver, wo.Creation = opt.Driver, opt.Creation
		if _, err := tiff.ParseOptions(wo); err != nil {
			return Result{}, fmt.Errorf("omnihsr: %w: %w", ErrOption, err)
		}
	}
	noiseFile := opt.Noise.File
	if opt.Noise.Mode == NoiseCompanion {
		if noiseFile, err = products.EMITUncertaintyPath(in); err != nil {
			return Result{}, fmt.Errorf("noise companion: %w", err)
		}
		if err := regfile.Check(noiseFile); err != nil {
			return Result{}, fmt.Errorf("noise companion: %w", err)
		}
	}
	u := &fileJob{in: in, paths: paths, opt: &opt, mt: mt, wo: wo}
	// The input is opened once (formats.Open: a streamed format reads its
	// header only) and the outputs are checked from its header before its
	// samples are read.
	src, err := formats.Open(in, opt.Read)
	if err != nil {
		return Result{}, err
	}
	defer src.Close()
	hd := src.Header()
	if _, err := u.check(hd.H, hd.W, hd.B); err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if !mt.Model {
		if res, done, err := u.bicubicRows(ctx, src, same); done || err != nil {
			return res, err
		}
	}
	lr, err := formats.ReadAll(in, src)
	if err != nil {
		return Result{}, err
	}
	info := hd.Info
	if same {
		if u.wo.DataType, err = sameType(in, info); err != nil {
			return Result{}, err
		}
	}
	sizes, err := u.check(lr.H, lr.W, lr.B)
	if err != nil {
		return Result{}, err
	}
	comp := newCompletion(opt.Completion, mt, lr.H, lr.W, lr.B, sizes, opt.Adapt)
	companionOf := ""
	if opt.Noise.Mode == NoiseCompanion {
		companionOf = in
	}
	p, err := prepare(ctx, mt, lr, &opt, noiseFile, companionOf, sizes, comp)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", in, err)
	}
	res := p.res
	err = u.render(sizes, &res, func(i int, path string) (FileReport, error) {
		return renderFileContext(ctx, p.r, p.lr, info, sizes[i][0], sizes[i][1], path, u.wo, comp.rows(i, opt.Progress))
	})
	if err == nil {
		comp.finish()
		res.InputClamped = p.clamped.Load()
	}
	return res, err
}

// fileJob is UpscaleFile's work once the options are checked.
type fileJob struct {
	in    string
	paths []string
	opt   *Options
	mt    method.Method
	wo    hsi.WriteOptions
}

// check checks every output of an H x W x B input before anything is
// written (formats.CheckOutputs: format, disk space of all streamed
// outputs together, memory) and returns their sizes.
func (u *fileJob) check(H, W, B int) ([][2]int, error) {
	sizes, err := u.opt.sizes(H, W)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u.in, err)
	}
	outs := make([]formats.Output, len(u.paths))
	for i, p := range u.paths {
		outs[i] = formats.Output{Path: p, H: sizes[i][0], W: sizes[i][1], B: B, Opt: u.wo}
	}
	return sizes, formats.CheckOutputs(outs)
}

// render writes the outputs in order with write, recording each file's
// report in res. A single output is published by its writer when complete.
// Several outputs (Scales) are each written to a pending file beside their
// destination (pendingPath) and published together once every one is
// complete (publish); on an error the pending files are removed and no
// destination is touched, so that a failed or cancelled run leaves every
// path as it found it.
func (u *fileJob) render(sizes [][2]int, res *Result, write func(i int, path string) (FileReport, error)) error {
	res.Height, res.Width = sizes[0][0], sizes[0][1]
	if len(u.paths) == 1 {
		rep, err := write(0, u.paths[0])
		if err != nil {
			*res = Result{}
			return fmt.Errorf("%s: %w", u.in, err)
		}
		res.Files = append(res.Files, rep)
		return nil
	}
	pending := make([]string, len(u.paths))
	for i, p := range u.paths {
		pending[i] = pendingPath(p)
	}
	fail := func(err error, written int) error {
		*res = Result{}
		for _, p := range pending[:written] {
			for _, f := range formats.WriteFiles(p) {
				os.Remove(f)
			}
		}
		return fmt.Errorf("%s: %w (no output written: the outputs are published together once all are complete)", u.in, err)
	}
	for i, p := range pending {
		rep, err := write(i, p)
		if err != nil {
			return fail(err, i)
		}
		rep.Path = u.paths[i]
		res.Files = append(res.Files, rep)
	}
	if err := publish(pending, u.paths); err != nil {
		return fail(err, len(pending))
	}
	return nil
}

// pendingSeq numbers the pending files of this process.
var pendingSeq atomic.Int64

// pendingPath returns the name of the file that an output of a multi-output
// run is written to until publish renames it to path: .NAME.omnihsr-tmp-PID-pN.EXT
// beside it (a temporary of path to atomicfile, so that one left by a
// killed process is removed by the next run writing path), or the shorter
// .omnihsr-tmp-PID-pN.EXT when NAME is so long that the writer's own
// temporary of the pending file would not fit a file name.
func pendingPath(path string) string {
	n := pendingSeq.Add(1)
	base, ext := filepath.Base(path), filepath.Ext(path)
	name := fmt.Sprintf(".%s.omnihsr-tmp-%d-p%d%s", base, os.Getpid(), n, ext)
	if len(name)+48 > 255 {
		name = fmt.Sprintf(".omnihsr-tmp-%d-p%d%s", os.Getpid(), n, ext)
	}
	return filepath.Join(filepath.Dir(path), name)
}

// publish renames the files written to pending (every file of each,
// formats.WriteFiles) to those of the destinations dests. The existing
// destinations are first renamed aside (.NAME.omnihsr-old-PID-N) and
// removed only once every rename succeeded; on an error the renames are
// undone and the destinations are as they were.
func publish(pending, dests []string) error {
	type move struct{ from, to, old string }
	var moves []move
	for i, p := range pending {
		from, to := formats.WriteFiles(p), formats.WriteFiles(dests[i])
		for j := range from {
			moves = append(moves, move{from: from[j], to: to[j]})
		}
	}
	var aside, placed []move
	undo := func() {
		for _, m := range slices.Backward(placed) {
			os.Remove(m.to)
		}
		for _, m := range slices.Backward(aside) {
			os.Rename(m.old, m.to)
		}
	}
	for _, m := range moves {
		if _, err := os.Lstat(m.to); err != nil {
			continue
		}
		m.old = filepath.Join(filepath.Dir(m.to), fmt.Sprintf(".%s.omnihsr-old-%d-%d", filepath.Base(m.to), os.Getpid(), pendingSeq.Add(1)))
		if err := os.Rename(m.to, m.old); err != nil {
			undo()
			return fmt.Errorf("publish %s: %w", m.to, err)
		}
		aside = append(aside, m)
	}
	for _, m := range moves {
		if err := os.Rename(m.from, m.to); err != nil {
			undo()
			return fmt.Errorf("publish %s: %w", m.to, err)
		}
		placed = append(placed, m)
	}
	for _, m := range aside {
		os.Remove(m.old)
	}
	return nil
}

func sameType(in string, info hsi.SourceInfo) (sample.Type, error) {
	t, err := info.SampleType()
	if err != nil {
		return sample.Invalid, fmt.Errorf("%s: -type same: %w", in, err)
	}
	return t, nil
}

// Upscale super-resolves the cube lr in memory, with the values that
// UpscaleFile writes as float32; lr is not modified. The options that
// apply to files only (Scales, Type, Driver, Creation, Read, Overwrite,
// NoiseCompanion) must be unset; NoiseFile reads Noise.File. ctx is
// checked as by UpscaleFile.
func Upscale(ctx context.Context, lr *hsi.Cube, opt Options) (*hsi.Cube, Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, Result{}, err
	}
	mt, err := opt.check()
	if err != nil {
		return nil, Result{}, err
	}
	if opt.Scales != nil || opt.Type != sample.Invalid || opt.SameType || opt.Driver != "" || len(opt.Creation) > 0 || opt.Read != (hsi.ReadOptions{}) || opt.Overwrite || opt.Noise.Mode == NoiseCompanion {
		return nil, Result{}, optionf("Scales, Type, SameType, Driver, Creation, Read, Overwrite and NoiseCompanion apply to UpscaleFile only")
	}
	if lr == nil {
		return nil, Result{}, optionf("no input cube")
	}
	if err := opt.checkFiles(); err != nil {
		return nil, Result{}, err
	}
	if err := lr.Validate(); err != nil {
		return nil, Result{}, fmt.Errorf("omnihsr: %w", err)
	}
	sizes, err := opt.sizes(lr.H, lr.W)
	if err != nil {
		return nil, Result{}, fmt.Errorf("omnihsr: %w", err)
	}
	h, w := sizes[0][0], sizes[0][1]
	nd, hasND := hsi.NoDataValue(lr)
	meta, _, _, err := outputMeta(lr.Meta, lr.H, lr.W, h, w, nd, hasND, sample.Invalid, "")
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
	comp := newCompletion(opt.Completion, mt, lr.H, lr.W, lr.B, sizes, opt.Adapt)
	p, err := prepare(ctx, mt, lr, &opt, opt.Noise.File, "", sizes, comp)
	if err != nil {
		return nil, Result{}, fmt.Errorf("omnihsr: %w", err)
	}
	sink := &cubeSink{data: make([]float32, 0, n)}
	if err := p.r.RenderTo(h, w, ctxSink{ctx, sink}, comp.rows(0, opt.Progress)); err != nil {
		return nil, Result{}, fmt.Errorf("omnihsr: %w", err)
	}
	comp.finish()
	res := p.res
	res.Height, res.Width = h, w
	res.InputClamped = p.clamped.Load()
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
