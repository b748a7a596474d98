package view

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/formats/raw"
	"github.com/omnihsr/omnihsr/model"
	"github.com/omnihsr/omnihsr/resample"
)

// Methods a window is rendered with.
const (
	Nearest = "lowres"  // the low-res pixels
	Bicubic = "bicubic" // bicubic interpolation
	OmniHSR = "omnihsr" // the OmniHSR model
)

// Scene is one file of the viewer, read once, with what its renderings
// share (the model's encoding, the outputs of the last zoom levels, the
// stretch samples) computed on first use.
type Scene struct {
	Name string // the file's base name (never its path)
	LR   *hsi.Cube

	newModel func() (*model.Model, error)

	encOnce sync.Once
	enc     *model.Encoded
	encErr  error

	bmu    sync.Mutex
	bicAll *bicubicSource   // all bands (spectra)
	bic    []*bicubicSource // RGB band choices, most recent first, at most maxBicubic

	mu      sync.Mutex
	outputs []sizedOutput // most recent first, at most maxOutputs
	samples map[int][]float32
}

type sizedOutput struct {
	h, w  int
	out   *model.Output
	bands []bandOutput // most recent first, at most maxBicubic
}

// bandOutput is an output restricted to some bands (model.Output.Bands).
type bandOutput struct {
	bands []int
	out   *model.Output
}

// bicubicSource is the bicubic interpolation of some bands of a scene: the
// bands with their no-data filled, the mask that puts it back, and the
// upsampler of the last grid asked for.
type bicubicSource struct {
	bands  []int
	filled *hsi.Cube
	nd     *hsi.NoDataMask
	us     *resample.Upsampler
}

// maxBicubic is the number of RGB band choices a scene keeps ready for
// bicubic tiles (each holds three bands of the scene).
const maxBicubic = 4

// maxOutputs is the number of model outputs (one per zoom level) a scene
// keeps: each holds the head output and primitives of every low-res pixel.
const maxOutputs = 2

// Open reads path as a scene; newModel supplies the model on the first
// OmniHSR rendering.
func Open(path string, newModel func() (*model.Model, error)) (*Scene, error) {
	c, _, err := formats.Read(path, hsi.ReadOptions{})
	if nf := (*raw.NonFiniteError)(nil); errors.As(err, &nf) && c != nil {
		err = nil // NaN is no-data
	}
	if err != nil {
		return nil, err
	}
	return NewScene(filepath.Base(path), c, newModel), nil
}

// NewScene returns a scene over a cube already in memory.
func NewScene(name string, c *hsi.Cube, newModel func() (*model.Model, error)) *Scene {
	return &Scene{Name: name, LR: c, newModel: newModel, samples: map[int][]float32{}}
}

// IsNoData reports whether v is the scene's no-data value (or NaN).
func (s *Scene) IsNoData(v float32) bool {
	return v != v || (s.LR.Meta.HasDataIgnore && float64(v) == s.LR.Meta.DataIgnore)
}

// cell maps target pixel u of an n-pixel axis to the low-res pixel of an
// m-pixel axis holding its centre.
func cell(u, m, n int) int { return min(m-1, int((float64(u)+0.5)*float64(m)/float64(n))) }

// checkWindow validates a window [y0, y0+h) x [x0, x0+w) of a gh x gw grid.
func checkWindow(gh, gw, y0, x0, h, w int) error {
	if gh < 1 || gw < 1 || gh > 1<<20 || gw > 1<<20 {
		return fmt.Errorf("grid %dx%d: want sides from 1 to 2^20", gh, gw)
	}
	if h < 1 || w < 1 || y0 < 0 || x0 < 0 || y0+h > gh || x0+w > gw {
		return fmt.Errorf("window %dx%d at (%d, %d) outside the %dx%d grid", h, w, y0, x0, gh, gw)
	}
	return nil
}

// Window renders the bands listed of the window [y0, y0+h) x [x0, x0+w)
// of the scene resampled to a gh x gw grid with method m, pixel-
// interleaved (h*w*len(bands) values, no-data where the scene has it).
// A grid no larger than the scene on an axis is sampled by nearest pixel
// whatever the method.
func (s *Scene) Window(m string, gh, gw, y0, x0, h, w int, bands []int) ([]float32, error) {
	if err := checkWindow(gh, gw, y0, x0, h, w); err != nil {
		return nil, err
	}
	for _, b := range bands {
		if b < 0 || b >= s.LR.B {
			return nil, fmt.Errorf("band %d outside 0..%d", b, s.LR.B-1)
		}
	}
	lr := s.LR
	up := gh > lr.H && gw > lr.W
	switch {
	case m == Nearest || (!up && (m == Bicubic || m == OmniHSR)):
		out := make([]float32, h*w*len(bands))
		for u := 0; u < h; u++ {
			i := cell(y0+u, lr.H, gh)
			for v := 0; v < w; v++ {
				j := cell(x0+v, lr.W, gw)
				src := lr.Data[(i*lr.W+j)*lr.B:]
				dst := out[(u*w+v)*len(bands):]
				for k, b := range bands {
					dst[k] = src[b]
				}
			}
		}
		return out, nil
	case m == Bicubic:
		us, nd, err := s.bicubic(bands, gh, gw)
		if err != nil {
			return nil, err
		}
		out := make([]float32, h*w*len(bands))
		if err := us.RenderWindow(y0, y0+h, x0, x0+w, out); err != nil {
			return nil, err
		}
		nd.ApplyWindow(y0, y0+h, x0, x0+w, gh, gw, len(bands), out)
		return out, nil
	case m == OmniHSR:
		o, sub, err := s.outputBands(gh, gw, bands)
		if err != nil {
			return nil, err
		}
		s.mu.Lock() // one model rendering at a time: it uses every core
		defer s.mu.Unlock()
		if sub != nil {
			return modelWindow(sub, y0, x0, h, w, len(bands), nil)
		}
		return modelWindow(o, y0, x0, h, w, lr.B, bands)
	}
	return nil, fmt.Errorf("unknown method %q (want %s, %s or %s)", m, Nearest, Bicubic, OmniHSR)
}

// stripFloats bounds the values of the strip of rows of a window the
// model renders at once.
const stripFloats = 8 << 20

// modelWindow renders a window of the model's output (only that window,
// a strip of rows at a time) and keeps the bands listed (all nb when
// bands is nil).
func modelWindow(o *model.Output, y0, x0, h, w, nb int, bands []int) ([]float32, error) {
	nout := nb
	if bands != nil {
		nout = len(bands)
	}
	out := make([]float32, h*w*nout)
	rows := max(1, min(h, stripFloats/(w*nb)))
	buf := make([]float32, rows*w*nb)
	for u0 := y0; u0 < y0+h; u0 += rows {
		u1 := min(y0+h, u0+rows)
		d := buf[:(u1-u0)*w*nb]
		if err := o.RenderWindow(u0, u1, x0, x0+w, d); err != nil {
			return nil, err
		}
		for p := 0; p < (u1-u0)*w; p++ {
			dst := out[((u0-y0)*w+p)*nout:][:nout]
			if bands == nil {
				copy(dst, d[p*nb:(p+1)*nb])
				continue
			}
			for k, b := range bands {
				dst[k] = d[p*nb+b]
			}
		}
	}
	return out, nil
}

// bicubic returns the upsampler of the bands listed to a gh x gw grid and
// the no-data mask of those bands, reusing the filled bands of the last
// calls.
func (s *Scene) bicubic(bands []int, gh, gw int) (*resample.Upsampler, *hsi.NoDataMask, error) {
	src, err := s.bicubicBands(bands)
	if err != nil {
		return nil, nil, err
	}
	s.bmu.Lock()
	defer s.bmu.Unlock()
	if src.us == nil {
		if src.us, err = resample.NewUpsampler(src.filled, gh, gw); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	if h, w := src.us.Size(); h != gh || w != gw {
		us, err := src.us.Resized(gh, gw)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		src.us = us
	}
	return src.us, src.nd, nil
}

// bicubicBands returns the bands listed with their no-data filled, kept
// for the last band choices.
func (s *Scene) bicubicBands(bands []int) (*bicubicSource, error) {
	s.bmu.Lock()
	defer s.bmu.Unlock()
	all := len(bands) == s.LR.B
	for b := range bands {
		all = all && bands[b] == b
	}
	if all && s.bicAll != nil {
		return s.bicAll, nil
	}
	for i, c := range s.bic {
		if !all && slices.Equal(c.bands, bands) {
			s.bic = append([]*bicubicSource{c}, slices.Delete(s.bic, i, i+1)...)
			return c, nil
		}
	}
	sel := s.LR
	if !all {
		var err error
		if sel, err = s.LR.SelectBands(bands); err != nil {
			return nil, err
		}
	}
	filled, nd, err := hsi.FillNoData(sel)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	src := &bicubicSource{bands: slices.Clone(bands), filled: filled, nd: nd}
	if all {
		s.bicAll = src
	} else {
		s.bic = append([]*bicubicSource{src}, s.bic...)
		s.bic = s.bic[:min(len(s.bic), maxBicubic)]
	}
	return src, nil
}

// encode computes the model's encoding of the scene.
func (s *Scene) encode() {
	if s.newModel == nil {
		s.encErr = errors.New("no model")
		return
	}
	m, err := s.newModel()
	if err != nil {
		s.encErr = err
		return
	}
	s.enc, s.encErr = m.EncodeImage(s.LR)
}

// encoded returns the model's encoding of the scene, computed once.
func (s *Scene) encoded() (*model.Encoded, error) {
	s.encOnce.Do(s.encode)
	if s.encErr != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, s.encErr)
	}
	return s.enc, nil
}

// Prepare computes the model's encoding of the scene (once) and its output
// for a gh x gw grid (kept for the next windows), and returns how long the
// encoding took in this call in milliseconds (0 when it was already done).
func (s *Scene) Prepare(gh, gw int) (float64, error) {
	t0 := time.Now()
	var encMs float64
	s.encOnce.Do(func() {
		s.encode()
		encMs = float64(time.Since(t0).Microseconds()) / 1000
	})
	_, err := s.output(gh, gw)
	return encMs, err
}

// output returns the model's output for a gh x gw grid, keeping the last
// maxOutputs.
func (s *Scene) output(gh, gw int) (*model.Output, error) {
	enc, err := s.encoded()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, so := range s.outputs {
		if so.h == gh && so.w == gw {
			s.outputs = append([]sizedOutput{so}, slices.Delete(s.outputs, i, i+1)...)
			return so.out, nil
		}
	}
	o, err := enc.Output(gh, gw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	s.outputs = append([]sizedOutput{{h: gh, w: gw, out: o}}, s.outputs...)
	if len(s.outputs) > maxOutputs {
		s.outputs = s.outputs[:maxOutputs]
	}
	return o, nil
}

// outputBands returns the model's output for a gh x gw grid and that
// output restricted to the bands listed (nil when the model cannot
// restrict it: the caller renders all bands), kept for the last band
// choices of the grid.
func (s *Scene) outputBands(gh, gw int, bands []int) (*model.Output, *model.Output, error) {
	o, err := s.output(gh, gw)
	if err != nil || len(bands) >= s.LR.B {
		return o, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var so *sizedOutput
	for i := range s.outputs {
		if s.outputs[i].out == o {
			so = &s.outputs[i]
		}
	}
	if so == nil { // evicted meanwhile: render from o alone
		return o, nil, nil
	}
	for i, bo := range so.bands {
		if slices.Equal(bo.bands, bands) {
			so.bands = append([]bandOutput{bo}, slices.Delete(so.bands, i, i+1)...)
			return o, bo.out, nil
		}
	}
	sub, err := o.Bands(bands)
	if err != nil {
		return o, nil, nil
	}
	so.bands = append([]bandOutput{{slices.Clone(bands), sub}}, so.bands...)
	so.bands = so.bands[:min(len(so.bands), maxBicubic)]
	return o, sub, nil
}

// Spectra holds the spectra of one target pixel; nil values are no-data or
// bad bands.
type Spectra struct {
	LowRes  []*float64 `json:"lowres"`
	Bicubic []*float64 `json:"bicubic"`
	OmniHSR []*float64 `json:"omnihsr"`
}

// Spectrum returns the low-res, bicubic and OmniHSR spectra of target
// pixel (y, x) of a gh x gw grid (bicubic and OmniHSR only when the grid
// is at least the scene's size).
func (s *Scene) Spectrum(gh, gw, y, x int) (*Spectra, error) {
	if err := checkWindow(gh, gw, y, x, 1, 1); err != nil {
		return nil, err
	}
	all := make([]int, s.LR.B)
	for b := range all {
		all[b] = b
	}
	sp := &Spectra{}
	lr, err := s.Window(Nearest, gh, gw, y, x, 1, 1, all)
	if err != nil {
		return nil, err
	}
	sp.LowRes = s.values(lr)
	if gh < s.LR.H || gw < s.LR.W {
		return sp, nil
	}
	bic, err := s.Window(Bicubic, gh, gw, y, x, 1, 1, all)
	if err != nil {
		return nil, err
	}
	sp.Bicubic = s.values(bic)
	o, err := s.output(gh, gw)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	om, err := modelWindow(o, y, x, 1, 1, s.LR.B, nil)
	if err != nil {
		return nil, err
	}
	sp.OmniHSR = s.values(om)
	return sp, nil
}

// values converts a spectrum, with nil for no-data and bad bands.
func (s *Scene) values(v []float32) []*float64 {
	out := make([]*float64, len(v))
	for b, x := range v {
		if s.IsNoData(x) || (b < len(s.LR.Meta.BadBands) && s.LR.Meta.BadBands[b]) {
			continue
		}
		f := float64(x)
		out[b] = &f
	}
	return out
}

// maxSamples bounds the values of a band the stretch percentiles are
// taken from (an even subsample of the band).
const maxSamples = 1 << 18

// Stretch returns the lo and hi percentiles (0-100) of band b's valid
// low-res values.
func (s *Scene) Stretch(b int, lo, hi float64) (float32, float32) {
	s.mu.Lock()
	vals, ok := s.samples[b]
	if !ok {
		lr := s.LR
		n := lr.H * lr.W
		step := max(1, n/maxSamples)
		for p := 0; p < n; p += step {
			if v := lr.Data[p*lr.B+b]; !s.IsNoData(v) {
				vals = append(vals, v)
			}
		}
		slices.Sort(vals)
		s.samples[b] = vals
	}
	s.mu.Unlock()
	if len(vals) == 0 {
		return 0, 1
	}
	at := func(q float64) float32 {
		i := int(math.Round(q / 100 * float64(len(vals)-1)))
		return vals[min(len(vals)-1, max(0, i))]
	}
	return at(lo), at(hi)
}

// Wavelengths returns the band centres in nanometres (nil when unknown).
func (s *Scene) Wavelengths() []float64 {
	wl := s.LR.Meta.Wavelengths
	if len(wl) != s.LR.B {
		return nil
	}
	u := strings.ToLower(s.LR.Meta.WavelengthUnits)
	f := 1.0
	switch {
	case strings.HasPrefix(u, "micro") || u == "um" || u == "µm":
		f = 1000
	case u == "" && slices.Max(wl) < 30:
		f = 1000 // micrometres without units
	}
	out := make([]float64, len(wl))
	for i, w := range wl {
		out[i] = w * f
	}
	return out
}

// Preset is a named RGB band choice by wavelength (nanometres).
type Preset struct {
	Name    string     `json:"name"`
	Label   string     `json:"label"`
	Targets [3]float64 `json:"targets"`
}

// Presets are the RGB presets.
var Presets = []Preset{
	{"truecolor", "true colour", [3]float64{640, 550, 470}},
	{"cir", "colour infrared", [3]float64{860, 650, 550}},
	{"swir", "SWIR", [3]float64{2200, 1600, 860}},
}

// PresetBands returns the bands nearest the preset's wavelengths, or
// false when the scene has no wavelengths or does not cover them (within
// 50 nm).
func (s *Scene) PresetBands(name string) ([]int, bool) {
	wl := s.Wavelengths()
	if wl == nil {
		return nil, false
	}
	for _, p := range Presets {
		if p.Name != name {
			continue
		}
		out := make([]int, 3)
		for k, t := range p.Targets {
			best := -1
			for b, w := range wl {
				if b < len(s.LR.Meta.BadBands) && s.LR.Meta.BadBands[b] {
					continue
				}
				if best < 0 || math.Abs(w-t) < math.Abs(wl[best]-t) {
					best = b
				}
			}
			if best < 0 || math.Abs(wl[best]-t) > 50 {
				return nil, false
			}
			out[k] = best
		}
		return out, true
	}
	return nil, false
}

// DefaultBands returns the first preset the scene covers, else three
// bands spread over the spectrum.
func (s *Scene) DefaultBands() []int {
	for _, p := range Presets {
		if b, ok := s.PresetBands(p.Name); ok {
			return b
		}
	}
	B := s.LR.B
	return []int{B * 3 / 4, B / 2, B / 4}
}
