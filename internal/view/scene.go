package view

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/resample"
)

// Methods a window is rendered with.
const (
	Nearest = "lowres"  // the low-res pixels
	Bicubic = "bicubic" // bicubic interpolation
	OmniHSR = "omnihsr" // the OmniHSR model
)

// Scene is one file of the viewer, read once, with what its renderings
// share (the model's encoding, the outputs of the zoom levels prepared,
// the stretch samples) computed on first use. The encoding and the
// prepared levels count in a Memory budget: the server's (NewServer), or
// the scene's own of DefaultMemory bytes.
type Scene struct {
	Name string // the file's base name (never its path)
	LR   *hsi.Cube

	nodata hsi.NoData // LR's no-data test (hsi.Meta.NoData)

	newModel func() (*model.Model, error)
	mem      *Memory

	emu     sync.Mutex  // one encoding at a time
	encDone atomic.Bool // the encoding was made or failed (enc or encErr set)
	enc     *model.Encoded
	encErr  error

	bmu    sync.Mutex
	bicAll *bicubicSource   // all bands (spectra)
	bic    []*bicubicSource // RGB band choices, most recent first, at most maxBicubic

	mu      sync.Mutex // one model rendering at a time (it uses every core)
	prep    sync.Mutex // one level preparation at a time
	smu     sync.Mutex // samples
	samples map[int][]float32
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

// DefaultMemory is the memory budget of a scene outside a server (and
// of `omnihsr view` by default): 3 GiB.
const DefaultMemory = 3 << 30

// Open reads path as a scene; newModel supplies the model on the first
// OmniHSR rendering.
func Open(path string, newModel func() (*model.Model, error)) (*Scene, error) {
	c, _, err := formats.Read(path, hsi.ReadOptions{}) // NaN is no-data
	if err != nil {
		return nil, err
	}
	return NewScene(filepath.Base(path), c, newModel), nil
}

// NewScene returns a scene over a cube already in memory.
func NewScene(name string, c *hsi.Cube, newModel func() (*model.Model, error)) *Scene {
	return &Scene{Name: name, LR: c, nodata: c.Meta.NoData(), newModel: newModel, samples: map[int][]float32{},
		mem: NewMemory(DefaultMemory, NewCache(0))}
}

// IsNoData reports whether v is no-data in the scene (hsi.Meta.NoData:
// NaN, or the data ignore value compared as a float32 sample holds it, as
// the command line compares it).
func (s *Scene) IsNoData(v float32) bool { return s.nodata.Is(v) }

// cell maps target pixel u of an n-pixel axis to the low-res pixel of an
// m-pixel axis holding its centre.
func cell(u, m, n int) int { return min(m-1, int((float64(u)+0.5)*float64(m)/float64(n))) }

// checkWindow validates a window [y0, y0+h) x [x0, x0+w) of a gh x gw grid.
// Each value is compared with the grid's side before any sum, so that no
// value, however large, overflows.
func checkWindow(gh, gw, y0, x0, h, w int) error {
	if gh < 1 || gw < 1 || gh > 1<<20 || gw > 1<<20 {
		return fmt.Errorf("grid %dx%d: want sides from 1 to 2^20", gh, gw)
	}
	if h < 1 || w < 1 || y0 < 0 || x0 < 0 || h > gh || w > gw || y0 > gh-h || x0 > gw-w {
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
	return s.WindowContext(context.Background(), m, gh, gw, y0, x0, h, w, bands)
}

// WindowContext is Window giving up when ctx is done (the model's
// encoding of the scene, or the preparation of the grid's level, is
// stopped and not kept) with ctx's error.
func (s *Scene) WindowContext(ctx context.Context, m string, gh, gw, y0, x0, h, w int, bands []int) ([]float32, error) {
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
		o, sub, err := s.outputBands(ctx, gh, gw, bands)
		if err != nil {
			return nil, err
		}
		s.mu.Lock() // one model rendering at a time: it uses every core
		defer s.mu.Unlock()
		if err := ctx.Err(); err != nil {
			return nil, err // the client went away while this waited
		}
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
		if filled != sel {
			s.mem.addKept(s, true, int64(len(filled.Data))*4)
		}
	} else {
		s.bic = append([]*bicubicSource{src}, s.bic...)
		s.bic = s.bic[:min(len(s.bic), maxBicubic)]
	}
	return src, nil
}

// encode computes the model's encoding of the scene, stopping when ctx
// is done.
func (s *Scene) encode(ctx context.Context) (*model.Encoded, error) {
	if s.newModel == nil {
		return nil, errors.New("no model")
	}
	m, err := s.newModel()
	if err != nil {
		return nil, err
	}
	return m.EncodeImageContext(ctx, s.LR, model.EncodeOptions{})
}

// encoded returns the model's encoding of the scene, computed once (its
// error too). An encoding stopped because ctx is done (the client went
// away) is not kept: the next caller starts it again.
func (s *Scene) encoded(ctx context.Context) (*model.Encoded, error) {
	enc, _, err := s.encodedTimed(ctx)
	return enc, err
}

// encodedTimed is encoded that also returns how long the encoding took in
// this call in milliseconds (0 when it was already done).
func (s *Scene) encodedTimed(ctx context.Context) (*model.Encoded, float64, error) {
	if !s.encDone.Load() {
		t0 := time.Now()
		s.emu.Lock()
		defer s.emu.Unlock()
		if !s.encDone.Load() {
			if err := ctx.Err(); err != nil {
				return nil, 0, fmt.Errorf("%s: %w", s.Name, err)
			}
			enc, err := s.encode(ctx)
			if err != nil && ctx.Err() != nil {
				return nil, 0, fmt.Errorf("%s: %w", s.Name, err) // stopped: not kept
			}
			s.enc, s.encErr = enc, err
			if err == nil {
				s.mem.addKept(s, false, enc.Bytes())
			}
			s.encDone.Store(true)
			if err == nil {
				return enc, float64(time.Since(t0).Microseconds()) / 1000, nil
			}
		}
	}
	if s.encErr != nil {
		return nil, 0, fmt.Errorf("%s: %w", s.Name, s.encErr)
	}
	return s.enc, 0, nil
}

// Prepare computes the model's encoding of the scene (once) and its output
// for a gh x gw grid (kept for the next windows), and returns how long the
// encoding took in this call in milliseconds (0 when it was already done).
func (s *Scene) Prepare(gh, gw int) (float64, error) {
	return s.PrepareContext(context.Background(), gh, gw)
}

// PrepareContext is Prepare giving up when ctx is done: an encoding or a
// level stopped part way is not kept.
func (s *Scene) PrepareContext(ctx context.Context, gh, gw int) (float64, error) {
	_, encMs, err := s.encodedTimed(ctx)
	if err != nil {
		return encMs, err
	}
	_, err = s.output(ctx, gh, gw)
	return encMs, err
}

// output returns the model's output for a gh x gw grid, kept in the
// memory budget as a prepared level.
func (s *Scene) output(ctx context.Context, gh, gw int) (*model.Output, error) {
	l, err := s.level(ctx, gh, gw)
	if err != nil {
		return nil, err
	}
	return l.out, nil
}

// level returns the prepared gh x gw level, preparing it when the budget
// does not hold it.
func (s *Scene) level(ctx context.Context, gh, gw int) (*level, error) {
	enc, err := s.encoded(ctx)
	if err != nil {
		return nil, err
	}
	if l := s.mem.find(s, gh, gw); l != nil {
		return l, nil // without waiting for another level's preparation
	}
	s.prep.Lock()
	defer s.prep.Unlock()
	if l := s.mem.find(s, gh, gw); l != nil {
		return l, nil
	}
	o, err := enc.OutputContext(ctx, gh, gw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	l := &level{s: s, h: gh, w: gw, out: o}
	s.mem.add(l)
	return l, nil
}

// outputBands returns the model's output for a gh x gw grid and that
// output restricted to the bands listed (nil when the model cannot
// restrict it: the caller renders all bands), kept with the level for its
// last band choices.
func (s *Scene) outputBands(ctx context.Context, gh, gw int, bands []int) (*model.Output, *model.Output, error) {
	l, err := s.level(ctx, gh, gw)
	if err != nil || len(bands) >= s.LR.B {
		if err != nil {
			return nil, nil, err
		}
		return l.out, nil, nil
	}
	if sub := s.mem.bandsOf(l, bands); sub != nil {
		return l.out, sub, nil
	}
	s.prep.Lock()
	defer s.prep.Unlock()
	if sub := s.mem.bandsOf(l, bands); sub != nil {
		return l.out, sub, nil
	}
	sub, err := l.out.Bands(bands)
	if err != nil {
		return l.out, nil, nil
	}
	s.mem.addBands(l, bandOutput{slices.Clone(bands), sub})
	return l.out, sub, nil
}

// Spectra holds the spectra of one target pixel; nil values are no-data or
// bad bands. Pending says that the model's spectrum is left out because
// its rendering of the grid is not prepared yet (Scene.SpectrumNow).
type Spectra struct {
	LowRes  []*float64 `json:"lowres"`
	Bicubic []*float64 `json:"bicubic"`
	OmniHSR []*float64 `json:"omnihsr"`
	Pending bool       `json:"omnihsrPending,omitempty"`
}

// Spectrum returns the low-res, bicubic and OmniHSR spectra of target
// pixel (y, x) of a gh x gw grid (bicubic and OmniHSR only when the grid
// is at least the scene's size), preparing the model's
// rendering of the grid if needed.
func (s *Scene) Spectrum(gh, gw, y, x int) (*Spectra, error) {
	return s.spectrum(context.Background(), gh, gw, y, x, true)
}

// SpectrumContext is Spectrum giving up when ctx is done.
func (s *Scene) SpectrumContext(ctx context.Context, gh, gw, y, x int) (*Spectra, error) {
	return s.spectrum(ctx, gh, gw, y, x, true)
}

// SpectrumNow is Spectrum without waiting for the model: when the
// scene's encoding is not ready, or the grid's level is not prepared and
// the grid is not the scene at a power-of-two factor, the model's
// spectrum is left out and Pending set (Prepare readies it). The low-res
// and bicubic spectra read only the scene's pixels near (y, x), and so
// does the model's from an encoding made (a window of it around (y, x)).
func (s *Scene) SpectrumNow(gh, gw, y, x int) (*Spectra, error) {
	return s.spectrum(context.Background(), gh, gw, y, x, false)
}

func (s *Scene) spectrum(ctx context.Context, gh, gw, y, x int, wait bool) (*Spectra, error) {
	if err := checkWindow(gh, gw, y, x, 1, 1); err != nil {
		return nil, err
	}
	lr := s.LR
	sp := &Spectra{}
	i, j := cell(y, lr.H, gh), cell(x, lr.W, gw)
	lo := make([]float32, lr.B)
	copy(lo, lr.Data[(i*lr.W+j)*lr.B:])
	sp.LowRes = s.values(lo)
	if gh < lr.H || gw < lr.W {
		return sp, nil
	}
	bic := lo // a grid no larger than the scene: bicubic is the low-res pixels
	if gh > lr.H && gw > lr.W {
		var err error
		if bic, err = s.bicubicSpectrum(gh, gw, y, x); err != nil {
			return nil, err
		}
	}
	sp.Bicubic = s.values(bic)
	if !wait && !s.encDone.Load() {
		sp.Pending = true
		return sp, nil
	}
	enc, err := s.encoded(ctx)
	if err != nil {
		return nil, err
	}
	if !s.mem.has(s, gh, gw) {
		om, ok, err := s.modelSpectrumLocal(enc, gh, gw, y, x)
		if err != nil {
			return nil, err
		}
		if ok {
			sp.OmniHSR = s.values(om)
			return sp, nil
		}
		if !wait {
			sp.Pending = true
			return sp, nil
		}
	}
	o, err := s.output(ctx, gh, gw)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	om, err := modelWindow(o, y, x, 1, 1, lr.B, nil)
	if err != nil {
		return nil, err
	}
	sp.OmniHSR = s.values(om)
	return sp, nil
}

// modelSpectrumLocal returns the model's spectrum at target pixel (y, x)
// of a gh x gw grid from a window of the scene's encoding around it
// (model.Encoded.Crop: a few dozen low-res pixels a side instead of the
// whole level's primitives), equal bit for bit to the whole output's; ok
// is false when the grid is not the scene at a power-of-two factor on
// both axes, where only the whole level gives the same bits.
func (s *Scene) modelSpectrumLocal(enc *model.Encoded, gh, gw, y, x int) (v []float32, ok bool, err error) {
	lr := s.LR
	zy, zx := gh/lr.H, gw/lr.W
	if gh%lr.H != 0 || gw%lr.W != 0 || zy&(zy-1) != 0 || zx&(zx-1) != 0 {
		return nil, false, nil
	}
	i, j := y/zy, x/zx
	y0 := max(0, i-model.CropMargin) / model.CropAlign * model.CropAlign
	x0 := max(0, j-model.CropMargin) / model.CropAlign * model.CropAlign
	y1, x1 := min(lr.H, i+model.CropMargin+1), min(lr.W, j+model.CropMargin+1)
	ce, err := enc.Crop(y0, x0, y1-y0, x1-x0)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", s.Name, err)
	}
	o, err := ce.Output((y1-y0)*zy, (x1-x0)*zx)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", s.Name, err)
	}
	out := make([]float32, lr.B)
	u, w := y-y0*zy, x-x0*zx
	if err := o.RenderWindow(u, u+1, w, w+1, out); err != nil {
		return nil, false, fmt.Errorf("%s: %w", s.Name, err)
	}
	return out, true, nil
}

// bicubicSpectrum returns the bicubic spectrum of target pixel (y, x) of
// a gh x gw grid larger than the scene, equal to the same pixel of
// Upsample of the scene with its no-data filled (hsi.FillNoData), the
// no-data mask applied. Filling changes only no-data samples, so where
// the pixels the interpolation reads (within 2 of the low-res pixel
// holding (y, x)) hold none, in no band, the spectrum is interpolated
// from the scene as it is, reading those pixels only; elsewhere it comes
// from the filled scene (filled once, on the first such pixel).
func (s *Scene) bicubicSpectrum(gh, gw, y, x int) ([]float32, error) {
	lr := s.LR
	i, j := cell(y, lr.H, gh), cell(x, lr.W, gw)
	r0, r1, c0, c1 := max(0, i-2), min(lr.H, i+3), max(0, j-2), min(lr.W, j+3)
	clean := true
	for r := r0; r < r1 && clean; r++ {
		for _, v := range lr.Data[(r*lr.W+c0)*lr.B : (r*lr.W+c1)*lr.B] {
			if v-v != 0 || s.IsNoData(v) { // NaN, infinite or no-data
				clean = false
				break
			}
		}
	}
	out := make([]float32, lr.B)
	if !clean {
		all := make([]int, lr.B)
		for b := range all {
			all[b] = b
		}
		return s.WindowContext(context.Background(), Bicubic, gh, gw, y, x, 1, 1, all)
	}
	us, err := resample.NewUpsamplerUnchecked(lr, gh, gw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	if err := us.RenderWindow(y, y+1, x, x+1, out); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	return out, nil
}

// values converts a spectrum, with nil for no-data, bad bands and
// infinite values (JSON holds none).
func (s *Scene) values(v []float32) []*float64 {
	out := make([]*float64, len(v))
	for b, x := range v {
		if s.IsNoData(x) || x-x != 0 || (b < len(s.LR.Meta.BadBands) && s.LR.Meta.BadBands[b]) {
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
	s.smu.Lock()
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
	s.smu.Unlock()
	if len(vals) == 0 {
		return 0, 1
	}
	at := func(q float64) float32 {
		i := int(math.Round(q / 100 * float64(len(vals)-1)))
		return vals[min(len(vals)-1, max(0, i))]
	}
	return at(lo), at(hi)
}

// Wavelengths returns the band centres in nanometres (nil when unknown:
// none, not one a band, or one of them not finite).
func (s *Scene) Wavelengths() []float64 {
	wl := s.LR.Meta.Wavelengths
	if len(wl) != s.LR.B || !finite(wl) {
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
