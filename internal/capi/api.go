package capi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/buildinfo"
	"github.com/omnihsr/omnihsr/internal/memlimit"
	"github.com/omnihsr/omnihsr/internal/opttext"
	"github.com/omnihsr/omnihsr/resample"
)

// Status codes returned by every C function that can fail.
const (
	StatusOK       = 0 // success
	StatusError    = 1 // any other error (bad file, bad data, I/O)
	StatusOption   = 2 // invalid options (omnihsr.ErrOption, bad JSON, bad shape)
	StatusCanceled = 3 // the cancel flag was set
	StatusNotFound = 4 // a file does not exist
)

// StatusOf maps an error to its status code.
func StatusOf(err error) int {
	switch {
	case err == nil:
		return StatusOK
	case errors.Is(err, context.Canceled):
		return StatusCanceled
	case errors.Is(err, omnihsr.ErrOption), errors.Is(err, ErrOption):
		return StatusOption
	case errors.Is(err, fs.ErrNotExist):
		return StatusNotFound
	}
	return StatusError
}

// ErrOption is wrapped by the errors of options this package decodes.
var ErrOption = errors.New("invalid option")

// num is a float64 written to JSON as Python's json module reads it: NaN,
// Infinity and -Infinity as bare words. encoding/json refuses them, so
// MarshalJSON writes them as sentinel strings that marshal replaces.
type num float64

// The sentinels of NaN and the infinities (marshal replaces them).
const (
	nanWord    = "\"\u00a7omnihsr:NaN\u00a7\""
	posInfWord = "\"\u00a7omnihsr:Infinity\u00a7\""
	negInfWord = "\"\u00a7omnihsr:-Infinity\u00a7\""
)

func (v num) MarshalJSON() ([]byte, error) {
	f := float64(v)
	switch {
	case math.IsNaN(f):
		return []byte(nanWord), nil
	case math.IsInf(f, 1):
		return []byte(posInfWord), nil
	case math.IsInf(f, -1):
		return []byte(negInfWord), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// UnmarshalJSON reads a number, or "nan", "inf", "-inf" as a string.
func (v *num) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
		*v = num(f)
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*v = num(f)
	return nil
}

// size is the option "size": exactly two integers, [height, width].
type size [2]int

func (s *size) UnmarshalJSON(b []byte) error {
	var v []int
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("size: want [height, width]: %v", err)
	}
	if len(v) != 2 {
		return fmt.Errorf("size: %d values; want two, [height, width]", len(v))
	}
	*s = size{v[0], v[1]}
	return nil
}

func nums(v []float64) []num {
	if v == nil {
		return nil
	}
	out := make([]num, len(v))
	for i, x := range v {
		out[i] = num(x)
	}
	return out
}

func floats(v []num) []float64 {
	if v == nil {
		return nil
	}
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// readOptions are hsi.ReadOptions as JSON.
type readOptions struct {
	Var       string `json:"var"`
	Layout    string `json:"layout"`
	Height    int    `json:"height"`
	Width     int    `json:"width"`
	Ortho     bool   `json:"ortho"`
	RefuseNaN bool   `json:"refuse_nan"`
}

func (r readOptions) hsi() hsi.ReadOptions {
	return hsi.ReadOptions{Var: r.Var, Layout: r.Layout, Height: r.Height, Width: r.Width, Ortho: r.Ortho, RefuseNaN: r.RefuseNaN}
}

// options are the JSON options of omnihsr_upscale and
// omnihsr_upscale_file: omnihsr.Options, with the noise as "auto",
// "clean", a number or one number per band, or noise_file (a file of them,
// or "auto": an EMIT granule's uncertainty companion, as -noise-file
// does), and, for arrays, the input's no-data value and band metadata.
type options struct {
	Scale          num             `json:"scale"`
	Size           size            `json:"size"`
	Method         string          `json:"method"`
	Noise          json.RawMessage `json:"noise"`
	NoiseFile      string          `json:"noise_file"`
	KeepNoisyBands bool            `json:"keep_noisy_bands"`
	Weights        string          `json:"weights"`
	// Clamp is omnihsr.Options.Clamp by name: "none" (or ""), "input"
	// or "type".
	Clamp string `json:"clamp"`
	// Adapt is per-scene adaptation: "auto", or a step count (0 = off).
	Adapt json.RawMessage `json:"adapt"`
	// Progress is what the progress callback counts: "rows" (or "") the
	// output rows, "work" the whole call's work in WorkUnits.
	Progress string `json:"progress"`

	// Arrays only.
	NoData      *num   `json:"nodata"`
	Wavelengths []num  `json:"wavelengths"`
	BadBands    []bool `json:"bad_bands"`

	// Files only.
	Scales    []num       `json:"scales"`
	Type      string      `json:"type"`
	Driver    string      `json:"driver"`
	Creation  []string    `json:"creation"`
	Read      readOptions `json:"read"`
	Overwrite bool        `json:"overwrite"`
}

// maxOptionsBytes bounds the options JSON (one wavelength and one noise
// value per band of thousands of bands take a few hundred KiB).
const maxOptionsBytes = 4 << 20

// decodeStrict decodes one JSON object into v, refusing unknown fields;
// "" and "null" leave v as it is.
func decodeStrict(s string, v any) error {
	if t := strings.TrimSpace(s); t == "" || t == "null" {
		return nil
	}
	if len(s) > maxOptionsBytes {
		return fmt.Errorf("libomnihsr: %w: options JSON of %d bytes, more than the %d MiB options may take", ErrOption, len(s), maxOptionsBytes>>20)
	}
	d := json.NewDecoder(strings.NewReader(s))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("libomnihsr: %w: options JSON: %v", ErrOption, err)
	}
	if d.More() {
		return fmt.Errorf("libomnihsr: %w: options JSON: text after the object", ErrOption)
	}
	return nil
}

// parseOptions decodes the JSON options s.
func parseOptions(s string) (options, omnihsr.Options, error) {
	var o options
	if err := decodeStrict(s, &o); err != nil {
		return o, omnihsr.Options{}, err
	}
	opt := omnihsr.Options{Scale: float64(o.Scale), Size: o.Size, Method: omnihsr.Method(o.Method),
		KeepNoisyBands: o.KeepNoisyBands, Weights: o.Weights}
	clamp, err := omnihsr.ParseClamp(o.Clamp)
	if err != nil {
		return o, opt, fmt.Errorf("libomnihsr: %w: clamp %q: want none, input or type", ErrOption, o.Clamp)
	}
	opt.Clamp = clamp
	nz, err := parseNoise(o.Noise)
	if err != nil {
		return o, opt, err
	}
	if o.NoiseFile != "" {
		if nz.Mode != omnihsr.NoiseAuto {
			return o, opt, fmt.Errorf("libomnihsr: %w: give noise or noise_file, not both", ErrOption)
		}
		nz = omnihsr.Noise{Mode: omnihsr.NoiseFile, File: o.NoiseFile}
		if o.NoiseFile == "auto" { // as -noise-file auto: an EMIT granule's companion
			nz = omnihsr.Noise{Mode: omnihsr.NoiseCompanion}
		}
	}
	opt.Noise = nz
	if opt.Adapt, err = parseAdapt(o.Adapt); err != nil {
		return o, opt, err
	}
	return o, opt, nil
}

// parseAdapt reads "auto", a step count, or a string of one (0, null or
// absent: off).
func parseAdapt(raw json.RawMessage) (int, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	n, auto, ok := opttext.Adapt(s)
	if auto {
		return omnihsr.AdaptAuto, nil
	}
	if !ok {
		return 0, fmt.Errorf("libomnihsr: %w: adapt %s: want \"auto\", 0 (off) or a step count", ErrOption, raw)
	}
	return n, nil
}

// parseNoise reads "auto", "clean", a number or a list of numbers.
func parseNoise(raw json.RawMessage) (omnihsr.Noise, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return omnihsr.Noise{}, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		kind, f, ok := opttext.Noise(s)
		switch {
		case ok && kind == opttext.NoiseAuto:
			return omnihsr.Noise{}, nil
		case ok && kind == opttext.NoiseClean:
			return omnihsr.Noise{Mode: omnihsr.NoiseClean}, nil
		case !ok:
			return omnihsr.Noise{}, fmt.Errorf("libomnihsr: %w: noise %q: want \"auto\", \"clean\", a number or one number per band", ErrOption, s)
		}
		return omnihsr.Noise{Mode: omnihsr.NoiseGiven, Sigma: []float64{f}}, nil
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return omnihsr.Noise{Mode: omnihsr.NoiseGiven, Sigma: []float64{f}}, nil
	}
	var v []float64
	if err := json.Unmarshal(raw, &v); err != nil {
		return omnihsr.Noise{}, fmt.Errorf("libomnihsr: %w: noise %s: want \"auto\", \"clean\", a number or one number per band", ErrOption, raw)
	}
	return omnihsr.Noise{Mode: omnihsr.NoiseGiven, Sigma: v}, nil
}

// arrayCube wraps the caller's samples (H x W x B, C order) as a cube
// without copying them, with the metadata of o.
func arrayCube(data []float32, h, w, b int, o options) (*hsi.Cube, error) {
	if h < 1 || w < 1 || b < 1 {
		return nil, fmt.Errorf("libomnihsr: %w: shape %d x %d x %d: want positive sizes", ErrOption, h, w, b)
	}
	n, err := hsi.Elems(h, w, b)
	if err != nil || n != len(data) {
		return nil, fmt.Errorf("libomnihsr: %w: shape %d x %d x %d does not match %d samples", ErrOption, h, w, b, len(data))
	}
	mj := metaJSON{NoData: o.NoData}
	if len(o.Wavelengths) > 0 {
		mj.Wavelengths = o.Wavelengths
	}
	if len(o.BadBands) > 0 {
		mj.BadBands = o.BadBands
	}
	meta, err := mj.cubeMeta(b)
	if err != nil {
		return nil, err
	}
	c := &hsi.Cube{H: h, W: w, B: b, Data: data, Meta: meta}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("libomnihsr: %w: %w", ErrOption, err)
	}
	return c, nil
}

// CancelContext returns a context that is canceled once *p (an int32 in C
// memory the caller owns and may set from any thread; nil: never) becomes
// nonzero, polled every 10 ms, and the function that ends the polling.
func CancelContext(p *int32) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	if p == nil {
		return ctx, cancel
	}
	if atomic.LoadInt32(p) != 0 {
		// Set before the call: cancelled before any work, not whenever
		// the polling goroutine first runs.
		cancel()
		return ctx, cancel
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			if atomic.LoadInt32(p) != 0 {
				cancel()
				return
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	var once atomic.Bool
	return ctx, func() {
		if once.CompareAndSwap(false, true) {
			close(done)
			cancel()
		}
	}
}

// OutputSize returns the output size of an h x w input under the JSON
// options s, as omnihsr.Upscale computes it.
func OutputSize(h, w int, s string) (oh, ow int, err error) {
	_, opt, err := parseOptions(s)
	if err != nil {
		return 0, 0, err
	}
	if opt.Size != [2]int{} {
		if opt.Scale != 0 {
			return 0, 0, fmt.Errorf("libomnihsr: %w: set exactly one of scale and size", ErrOption)
		}
		if opt.Size[0] < 1 || opt.Size[1] < 1 || opt.Size[0] > math.MaxInt32 || opt.Size[1] > math.MaxInt32 {
			return 0, 0, fmt.Errorf("libomnihsr: %w: size %dx%d: want a height and width between 1 and 2^31-1", ErrOption, opt.Size[0], opt.Size[1])
		}
		return opt.Size[0], opt.Size[1], nil
	}
	s64 := opt.Scale
	if !(s64 > 0) || math.IsInf(s64, 0) {
		return 0, 0, fmt.Errorf("libomnihsr: %w: scale %v: want a finite number > 0 (or a size)", ErrOption, s64)
	}
	oh, ow = resample.UpSize(h, s64), resample.UpSize(w, s64)
	if oh < 1 || ow < 1 {
		return 0, 0, fmt.Errorf("libomnihsr: %w: %dx%d pixels times %g: the output side round(S*side) must be between 1 and 2^31", ErrOption, h, w, s64)
	}
	return oh, ow, nil
}

// WorkUnits is the total of the progress callback with "progress":
// "work": done/WorkUnits is the fraction of the call (omnihsr.Options.Completion).
const WorkUnits = 1_000_000

// setProgress makes progress (nil for none) the callback of opt, counting
// what mode names: "rows" or "" the output rows (omnihsr.Options.Progress),
// "work" the whole call, the model's encoding included, in WorkUnits
// (omnihsr.Options.Completion).
func setProgress(opt *omnihsr.Options, mode string, progress func(done, total int)) error {
	switch mode {
	case "", "rows":
		opt.Progress = progress
	case "work":
		if progress != nil {
			opt.Completion = func(f float64) { progress(int(math.Round(f*WorkUnits)), WorkUnits) }
		}
	default:
		return fmt.Errorf("libomnihsr: %w: progress %q: want \"rows\" or \"work\"", ErrOption, mode)
	}
	return nil
}

// UpscaleArray super-resolves the caller's h x w x b samples with the JSON
// options s and returns the output samples.
func UpscaleArray(ctx context.Context, data []float32, h, w, b int, s string, progress func(done, total int)) ([]float32, omnihsr.Result, error) {
	o, opt, err := parseOptions(s)
	if err != nil {
		return nil, omnihsr.Result{}, err
	}
	if o.Type != "" || o.Driver != "" || len(o.Creation) > 0 || o.Read != (readOptions{}) || o.Overwrite || len(o.Scales) > 0 {
		return nil, omnihsr.Result{}, fmt.Errorf("libomnihsr: %w: scales, type, driver, creation, read and overwrite apply to files only", ErrOption)
	}
	if err := setProgress(&opt, o.Progress, progress); err != nil {
		return nil, omnihsr.Result{}, err
	}
	lr, err := arrayCube(data, h, w, b, o)
	if err != nil {
		return nil, omnihsr.Result{}, err
	}
	sr, res, err := omnihsr.Upscale(ctx, lr, opt)
	if err != nil {
		return nil, res, err
	}
	return sr.Data, res, nil
}

// UpscaleFile runs omnihsr.UpscaleFile with the JSON options s.
func UpscaleFile(ctx context.Context, in, out, s string, progress func(done, total int)) (omnihsr.Result, error) {
	o, opt, err := parseOptions(s)
	if err != nil {
		return omnihsr.Result{}, err
	}
	if o.NoData != nil || len(o.Wavelengths) > 0 || len(o.BadBands) > 0 {
		return omnihsr.Result{}, fmt.Errorf("libomnihsr: %w: nodata, wavelengths and bad_bands apply to arrays only (a file states its own)", ErrOption)
	}
	drv, err := hsi.ParseDriver(o.Driver)
	if err != nil {
		return omnihsr.Result{}, fmt.Errorf("libomnihsr: %w: driver: %w", ErrOption, err)
	}
	if opt.Type, opt.SameType, err = hsi.ParseDataType(o.Type); err != nil {
		return omnihsr.Result{}, fmt.Errorf("libomnihsr: %w: type: %w", ErrOption, err)
	}
	opt.Scales, opt.Driver, opt.Creation, opt.Read, opt.Overwrite = floats(o.Scales), drv, o.Creation, o.Read.hsi(), o.Overwrite
	if err := setProgress(&opt, o.Progress, progress); err != nil {
		return omnihsr.Result{}, err
	}
	return omnihsr.UpscaleFile(ctx, in, out, opt)
}

// ReadFile reads path with the JSON reader options s, as `omnihsr
// upscale` reads its input.
func ReadFile(path, s string) (*hsi.Cube, hsi.SourceInfo, error) {
	var ro readOptions
	if err := decodeStrict(s, &ro); err != nil {
		return nil, hsi.SourceInfo{}, err
	}
	return omnihsr.ReadFile(path, ro.hsi())
}

// CheckArrayOutput checks, before any work, that the output of an
// h x w x b array under the JSON options s fits in memory twice: the
// library renders it, then copies it into the caller's buffer (which the
// caller holds too) or into one it allocates for the caller
// (memlimit.Limit: physical memory, the cgroup's limit, the address space
// RLIMIT_AS leaves), so that a call too large is an error, not an abort of
// the host process by Go's allocator.
func CheckArrayOutput(h, w, b int, s string) error {
	oh, ow, err := OutputSize(h, w, s)
	if err != nil {
		return err
	}
	n, err := hsi.Elems(oh, ow, b)
	if err != nil {
		return fmt.Errorf("libomnihsr: %w: %w", ErrOption, err)
	}
	return memlimit.Check(2*4*uint64(n), fmt.Sprintf("the %d x %d x %d float32 output (rendered, then copied into the caller's buffer)", oh, ow, b))
}

// maxErrorBytes bounds the message kept as the last error: an option
// string of any size may be echoed in it.
const maxErrorBytes = 4 << 10

// BoundError returns msg cut to maxErrorBytes (at a character boundary),
// saying how much was cut.
func BoundError(msg string) string {
	if len(msg) <= maxErrorBytes {
		return msg
	}
	cut := maxErrorBytes
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d more bytes cut)", msg[:cut], len(msg)-cut)
}

// PanicError is the error of a panic recovered at an entry point.
func PanicError(r any) error {
	return fmt.Errorf("libomnihsr: internal error, please report it: %v", r)
}

// CheckAlloc checks an allocation of n float32 samples for the caller.
func CheckAlloc(n int, what string) error {
	return memlimit.Check(uint64(n)*4, what)
}

// Version is the build's one-line description, as `omnihsr version
// -short` prints it.
func Version() string { return buildinfo.Read().Short() }

// cubes holds the cubes omnihsr_read returned, by handle, until
// omnihsr_cube_free: C never holds a Go pointer.
var cubes struct {
	sync.Mutex
	next uint64
	m    map[uint64]*hsi.Cube
}

// KeepCube registers c and returns its handle (never 0).
func KeepCube(c *hsi.Cube) uint64 {
	cubes.Lock()
	defer cubes.Unlock()
	if cubes.m == nil {
		cubes.m = map[uint64]*hsi.Cube{}
	}
	cubes.next++
	cubes.m[cubes.next] = c
	return cubes.next
}

// CubeOf returns the cube of handle h.
func CubeOf[T ~uint64 | ~uintptr | ~uint](h T) (*hsi.Cube, error) {
	cubes.Lock()
	defer cubes.Unlock()
	c, ok := cubes.m[uint64(h)]
	if !ok {
		return nil, fmt.Errorf("libomnihsr: %w: cube handle %d unknown (freed, or never returned by omnihsr_read)", ErrOption, uint64(h))
	}
	return c, nil
}

// DropCube forgets the cube of handle h; unknown handles are ignored.
func DropCube(h uint64) {
	cubes.Lock()
	defer cubes.Unlock()
	delete(cubes.m, h)
}
