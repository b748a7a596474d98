package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"time"

	"github.com/omnihsr/omnihsr/internal/par"
	"github.com/omnihsr/omnihsr/internal/stat"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/progress"
	"github.com/omnihsr/omnihsr/metrics"
)

// Config is one evaluation run.
type Config struct {
	// Protocol is ProtocolSeven or ProtocolTwelve.
	Protocol string
	// Factors are the nominal factors, in table-column order (nil = the
	// protocol's defaults).
	Factors []float64
	// Methods are the methods to score. Bicubic is added first when no
	// method is called BicubicName.
	Methods []Method
	// Degradation makes the LR inputs (zero value: clean protocol).
	Degradation Degradation
	// Geometry overrides the sensor rule of the seven protocol ("" = auto).
	Geometry Geometry
	// TileSize and CropSize are the seven protocol's tile and close-range
	// crop sizes (0 = 64 and 256).
	TileSize, CropSize int
	// Workers is the number of images scored at once (0 = min(2, GOMAXPROCS)).
	// Methods then run concurrently, which the timing figures include.
	Workers int
	// Resamples and Seed drive the paired bootstrap (0 = 2000 and seed 0).
	Resamples int
	Seed      uint64
	// Progress, when not nil, receives a redrawn progress line with ETA
	// (give it a terminal; nil = quiet).
	Progress io.Writer
	// Command is the command line recorded in the outputs (optional).
	Command string
}

// Record is the score of one method on one image at one factor.
type Record struct {
	Scene     string  `json:"scene"`
	Image     int     `json:"image"`
	Y0        int     `json:"y0"`
	X0        int     `json:"x0"`
	H         int     `json:"h"`
	W         int     `json:"w"`
	LRH       int     `json:"lr_h"`
	LRW       int     `json:"lr_w"`
	Factor    float64 `json:"factor"`           // nominal factor
	Effective float64 `json:"effective_factor"` // mean of H/LRH and W/LRW
	Method    string  `json:"method"`
	PSNR      Num     `json:"psnr"`
	SSIM      Num     `json:"ssim"`
	SAM       Num     `json:"sam"`
	ERGAS     Num     `json:"ergas"`
	MS        Num     `json:"ms"` // wall time of Upscale, milliseconds
	// Note is what a Noter method said it did on this image ("" for
	// other methods).
	Note     string `json:"note,omitempty"`
	bandRMSE []float64
}

// Summary is the mean over the images of one scene of one method at one factor.
type Summary struct {
	Scene  string  `json:"scene"`
	Factor float64 `json:"factor"`
	Method string  `json:"method"`
	Images int     `json:"images"`
	PSNR   Num     `json:"psnr"`
	SSIM   Num     `json:"ssim"`
	SAM    Num     `json:"sam"`
	ERGAS  Num     `json:"ergas"`
	MS     Num     `json:"ms"`
	// BandRMSE is the mean over images of each band's RMSE.
	BandRMSE []Num `json:"band_rmse"`
	// Gain is the paired bootstrap 95% interval of the PSNR gain over
	// bicubic on the same images (nil for bicubic).
	Gain *Interval `json:"psnr_gain,omitempty"`
}

// SceneInfo describes a scene as evaluated.
type SceneInfo struct {
	Name     string   `json:"name"`
	File     string   `json:"file"`
	Sensor   string   `json:"sensor"`
	H        int      `json:"h"`
	W        int      `json:"w"`
	B        int      `json:"bands"`
	Divisor  float64  `json:"normalisation_divisor"` // the maximum the cube was divided by
	Geometry string   `json:"geometry"`              // "tiles" or "crop"
	Regions  []Region `json:"regions"`
}

// RunInfo is the configuration recorded with the results.
type RunInfo struct {
	Command       string      `json:"command,omitempty"`
	Protocol      string      `json:"protocol"`
	Factors       []float64   `json:"factors"`
	Methods       []string    `json:"methods"`
	Degradation   Degradation `json:"degradation"`
	Downsampling  string      `json:"downsampling"`
	TileSize      int         `json:"tile_size"`
	CropSize      int         `json:"crop_size"`
	Resamples     int         `json:"bootstrap_resamples"`
	Seed          uint64      `json:"bootstrap_seed"`
	Normalisation string      `json:"normalisation"`
	Metrics       string      `json:"metrics"`
	Workers       int         `json:"workers"`
}

// Result is everything one run produced.
type Result struct {
	Config    RunInfo     `json:"config"`
	Scenes    []SceneInfo `json:"scenes"`
	Summaries []Summary   `json:"summaries"`
	Records   []Record    `json:"records"`
	// WallSeconds is the wall time of the whole run (a timing figure).
	WallSeconds Num `json:"wall_seconds"`
}

func (c *Config) normalise() error {
	if c.Protocol != ProtocolSeven && c.Protocol != ProtocolTwelve {
		return fmt.Errorf("eval: unknown protocol %q (want %s or %s)", c.Protocol, ProtocolSeven, ProtocolTwelve)
	}
	if len(c.Factors) == 0 {
		c.Factors = DefaultFactors(c.Protocol)
	}
	seen := map[float64]bool{}
	for _, s := range c.Factors {
		if !(s > 0) || math.IsInf(s, 0) {
			return fmt.Errorf("eval: factor %v is not a positive finite number", s)
		}
		if seen[s] {
			return fmt.Errorf("eval: factor %v given twice", s)
		}
		seen[s] = true
	}
	if err := c.Degradation.Validate(); err != nil {
		return err
	}
	hasBic := false
	names := map[string]bool{}
	for _, m := range c.Methods {
		if m == nil {
			return errors.New("eval: nil method")
		}
		if names[m.Name()] {
			return fmt.Errorf("eval: method %q given twice", m.Name())
		}
		names[m.Name()] = true
		if m.Name() == BicubicName {
			hasBic = true
		}
	}
	if !hasBic {
		c.Methods = append([]Method{Bicubic{}}, c.Methods...)
	}
	if c.TileSize <= 0 {
		c.TileSize = DefaultTileSize
	}
	if c.CropSize <= 0 {
		c.CropSize = DefaultCropSize
	}
	if c.Workers <= 0 {
		c.Workers = min(2, runtime.GOMAXPROCS(0))
	}
	if c.Resamples <= 0 {
		c.Resamples = DefaultResamples
	}
	if c.Geometry == "" {
		c.Geometry = GeomAuto
	}
	return nil
}

func (c *Config) info() RunInfo {
	ri := RunInfo{
		Command:       c.Command,
		Protocol:      c.Protocol,
		Factors:       c.Factors,
		Degradation:   c.Degradation,
		Downsampling:  c.Degradation.String(),
		TileSize:      c.TileSize,
		CropSize:      c.CropSize,
		Resamples:     c.Resamples,
		Seed:          c.Seed,
		Normalisation: "negatives clamped to 0, divided by the maximum over all pixels and bands",
		Metrics:       "outputs clipped to [0,1]; PSNR over all pixels and bands; SSIM Gaussian 11/1.5 per band; SAM degrees; ERGAS",
		Workers:       c.Workers,
	}
	if c.Protocol == ProtocolSeven {
		ri.TileSize, ri.CropSize = c.TileSize, c.CropSize
	} else {
		ri.TileSize, ri.CropSize = 0, 0
	}
	for _, m := range c.Methods {
		ri.Methods = append(ri.Methods, m.Name())
	}
	return ri
}

// Run evaluates every method on every scene under cfg. Scenes are loaded
// one at a time, so memory holds one scene (plus the images in flight).
// ctx is checked before each scene and before each method on each image;
// when it is done Run returns its error (wrapped: it matches
// context.Canceled or context.DeadlineExceeded).
func Run(ctx context.Context, scenes []*Scene, cfg Config) (*Result, error) {
	if err := cfg.normalise(); err != nil {
		return nil, err
	}
	if len(scenes) == 0 {
		return nil, errors.New("eval: no scenes")
	}
	start := time.Now()
	res := &Result{Config: cfg.info()}
	for si, sc := range scenes {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("eval: stopped before scene %s: %w", sc.Name, err)
		}
		info, recs, err := runScene(ctx, sc, si, len(scenes), &cfg)
		if err != nil {
			return nil, err
		}
		res.Scenes = append(res.Scenes, info)
		res.Records = append(res.Records, recs...)
	}
	if err := checkUniqueScenes(res.Scenes); err != nil {
		return nil, err
	}
	res.Summaries = summarise(res.Records, &cfg)
	res.WallSeconds = Num(time.Since(start).Seconds())
	return res, nil
}

func checkUniqueScenes(s []SceneInfo) error {
	seen := map[string]bool{}
	for _, x := range s {
		if seen[x.Name] {
			return fmt.Errorf("eval: two scenes are named %q", x.Name)
		}
		seen[x.Name] = true
	}
	return nil
}

// prepared is a scene loaded, normalised and cut into regions.
type prepared struct {
	info SceneInfo
	cube *hsi.Cube
}

func prepareScene(sc *Scene, protocol string, geom Geometry, tile, crop int) (*prepared, error) {
	cube, err := sc.Load()
	if err != nil {
		return nil, fmt.Errorf("eval: scene %s: %w", sc.Name, err)
	}
	if err := cube.Validate(); err != nil {
		return nil, fmt.Errorf("eval: scene %s: %w", sc.Name, err)
	}
	if err := cube.CheckFinite(); err != nil {
		return nil, fmt.Errorf("eval: scene %s (%s): %w", sc.Name, sc.File, err)
	}
	div := cube.NormalizeMax()
	regs, err := Regions(protocol, cube.H, cube.W, sc.Sensor, geom, tile, crop)
	if err != nil {
		return nil, fmt.Errorf("eval: scene %s: %w", sc.Name, err)
	}
	return &prepared{
		info: SceneInfo{Name: sc.Name, File: sc.File, Sensor: sc.Sensor, H: cube.H, W: cube.W, B: cube.B,
			Divisor: float64(div), Geometry: regs[0].Kind, Regions: regs},
		cube: cube,
	}, nil
}

func runScene(ctx context.Context, sc *Scene, si, nsc int, cfg *Config) (SceneInfo, []Record, error) {
	p, err := prepareScene(sc, cfg.Protocol, cfg.Geometry, cfg.TileSize, cfg.CropSize)
	if err != nil {
		return SceneInfo{}, nil, err
	}
	regs := p.info.Regions
	nm := len(cfg.Methods)
	out := make([]Record, len(cfg.Factors)*len(regs)*nm)
	label := fmt.Sprintf("eval %s [%d/%d] %s", cfg.Protocol, si+1, nsc, sc.Name)
	bar := progress.NewTo(cfg.Progress, label, int64(len(cfg.Factors)*len(regs)), cfg.Progress != nil)
	err = par.ForEachErr(len(cfg.Factors)*len(regs), cfg.Workers, func(_, k int) error {
		fi, ri := k/len(regs), k%len(regs)
		recs, err := runImage(ctx, p, regs[ri], cfg.Factors[fi], cfg)
		if err != nil {
			return err
		}
		copy(out[k*nm:], recs)
		bar.Add(1)
		return nil
	})
	bar.Done()
	if err != nil {
		return SceneInfo{}, nil, err
	}
	return p.info, out, nil
}

func runImage(ctx context.Context, p *prepared, r Region, s float64, cfg *Config) ([]Record, error) {
	hr, err := p.cube.Crop(r.Y0, r.X0, r.H, r.W)
	if err != nil {
		return nil, err
	}
	seed := seedFor(cfg.Degradation.Seed, p.info.Name, fmt.Sprint(r.Index), FormatFactor(s))
	lr, err := cfg.Degradation.Input(hr, s, seed)
	if err != nil {
		return nil, fmt.Errorf("eval: scene %s image %d x%g: %w", p.info.Name, r.Index, s, err)
	}
	eff := (float64(r.H)/float64(lr.H) + float64(r.W)/float64(lr.W)) / 2
	recs := make([]Record, 0, len(cfg.Methods))
	for _, m := range cfg.Methods {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("eval: stopped before %s on scene %s image %d x%g: %w", m.Name(), p.info.Name, r.Index, s, err)
		}
		in := lr.Clone() // a method must not see another's changes
		t0 := time.Now()
		var sr *hsi.Cube
		var note string
		if nm, ok := m.(Noter); ok {
			sr, note, err = nm.UpscaleNote(ctx, in, r.H, r.W)
		} else {
			sr, err = m.Upscale(in, r.H, r.W)
		}
		ms := float64(time.Since(t0).Nanoseconds()) / 1e6
		if err != nil {
			return nil, fmt.Errorf("eval: %s on scene %s image %d x%g: %w", m.Name(), p.info.Name, r.Index, s, err)
		}
		if sr == nil || sr.H != r.H || sr.W != r.W || sr.B != hr.B || len(sr.Data) != len(hr.Data) {
			return nil, fmt.Errorf("eval: %s on scene %s image %d x%g returned the wrong shape (want %dx%dx%d)",
				m.Name(), p.info.Name, r.Index, s, r.H, r.W, hr.B)
		}
		sc, err := score(hr, sr, eff)
		if err != nil {
			return nil, fmt.Errorf("eval: score %s on scene %s image %d x%g: %w", m.Name(), p.info.Name, r.Index, s, err)
		}
		recs = append(recs, Record{
			Scene: p.info.Name, Image: r.Index, Y0: r.Y0, X0: r.X0, H: r.H, W: r.W, LRH: lr.H, LRW: lr.W,
			Factor: s, Effective: eff, Method: m.Name(),
			PSNR: Num(sc.PSNR), SSIM: Num(sc.SSIM), SAM: Num(sc.SAM), ERGAS: Num(sc.ERGAS), MS: Num(ms),
			Note: note, bandRMSE: sc.BandRMSE,
		})
	}
	return recs, nil
}

// score clips est to [0, 1] (in place) and scores it against ref.
func score(ref, est *hsi.Cube, eff float64) (metrics.Scores, error) {
	metrics.Clip01(est)
	return metrics.Compute(ref, est, eff)
}

// sig4 rounds v to 4 significant digits (per-band RMSE in JSON).
func sig4(v float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
	if err != nil {
		return v
	}
	return r
}

// summarise averages the records of every (scene, factor, method) and adds
// the bootstrap intervals of the PSNR gain over bicubic.
func summarise(recs []Record, cfg *Config) []Summary {
	type key struct {
		scene  string
		factor float64
	}
	var order []key
	groups := map[key][]Record{}
	for _, r := range recs {
		k := key{r.Scene, r.Factor}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	var out []Summary
	for _, k := range order {
		g := groups[k]
		bic := map[int]float64{}
		for _, r := range g {
			if r.Method == BicubicName {
				bic[r.Image] = float64(r.PSNR)
			}
		}
		for _, m := range cfg.Methods {
			var sel []Record
			for _, r := range g {
				if r.Method == m.Name() {
					sel = append(sel, r)
				}
			}
			if len(sel) == 0 {
				continue
			}
			s := Summary{Scene: k.scene, Factor: k.factor, Method: m.Name(), Images: len(sel)}
			var psnr, ssim, sam, ergas, ms []float64
			var band []float64
			for _, r := range sel {
				psnr = append(psnr, float64(r.PSNR))
				ssim = append(ssim, float64(r.SSIM))
				sam = append(sam, float64(r.SAM))
				ergas = append(ergas, float64(r.ERGAS))
				ms = append(ms, float64(r.MS))
				if band == nil {
					band = make([]float64, len(r.bandRMSE))
				}
				for b, v := range r.bandRMSE {
					band[b] += v
				}
			}
			s.PSNR, s.SSIM, s.SAM, s.ERGAS, s.MS = Num(stat.Mean(psnr)), Num(stat.Mean(ssim)), Num(stat.Mean(sam)), Num(stat.Mean(ergas)), Num(stat.Mean(ms))
			for _, v := range band {
				s.BandRMSE = append(s.BandRMSE, Num(sig4(v/float64(len(sel)))))
			}
			if m.Name() != BicubicName {
				d := make([]float64, 0, len(sel))
				for _, r := range sel {
					d = append(d, float64(r.PSNR)-bic[r.Image])
				}
				iv := PairedBootstrap(d, cfg.Resamples, seedFor(cfg.Seed, k.scene, FormatFactor(k.factor), m.Name()))
				s.Gain = &iv
			}
			out = append(out, s)
		}
	}
	return out
}
