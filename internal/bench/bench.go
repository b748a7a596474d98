package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"time"

	"github.com/omnihsr/omnihsr/gemm"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/buildinfo"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/stat"
	"github.com/omnihsr/omnihsr/resample"
)

// Config is one latency table.
type Config struct {
	Size    int       // low-resolution side (0 = 32)
	Bands   []int     // band counts (nil = 31, 103, 128, 145)
	Factors []float64 // factors (nil = 4, 8, 16)
	Runs    int       // timed runs per configuration (0 = 12)
	Warmup  int       // warm-up runs per configuration (negative = 0; 0 = 3)
	Seed    uint64    // seed of the synthetic input
	// Progress, when set, is called after every configuration.
	Progress func(done, total int)
}

// Defaults of the paper's table.
var (
	DefaultBands   = []int{31, 103, 128, 145}
	DefaultFactors = []float64{4, 8, 16}
)

// Row is one configuration's figures.
type Row struct {
	Bands    int     `json:"bands"`
	Factor   float64 `json:"factor"`
	OutH     int     `json:"out_h"`
	OutW     int     `json:"out_w"`
	ModelMS  float64 `json:"omnihsr_ms"`
	ModelMiB float64 `json:"omnihsr_mib"`
	// NoisyMS is the model's latency on the same input with white noise
	// of 0.03 (Input): the default pair renders it with its noise-aware
	// model, which also measures its field gain (model.Model.WithNoisy).
	NoisyMS    float64 `json:"omnihsr_noisy_ms"`
	BicubicMS  float64 `json:"bicubic_ms"`
	BicubicMiB float64 `json:"bicubic_mib"`
}

// Ratio is the model's latency over bicubic's.
func (r Row) Ratio() float64 { return r.ModelMS / r.BicubicMS }

// Result is a whole table with the machine it ran on.
type Result struct {
	Size       int    `json:"size"`
	Runs       int    `json:"runs"`
	Warmup     int    `json:"warmup"`
	Host       string `json:"host"`
	CPUs       int    `json:"cpus"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Platform   string `json:"platform"`
	GEMM       string `json:"gemm"`
	Build      string `json:"build"` // buildinfo.Read().Short(): version, commit, Go, GEMM
	Params     int    `json:"params"`
	Rows       []Row  `json:"rows"`
}

func (c *Config) normalise() error {
	if c.Size == 0 {
		c.Size = 32
	}
	if c.Bands == nil {
		c.Bands = DefaultBands
	}
	if c.Factors == nil {
		c.Factors = DefaultFactors
	}
	if c.Runs == 0 {
		c.Runs = 12
	}
	switch {
	case c.Warmup == 0:
		c.Warmup = 3
	case c.Warmup < 0:
		c.Warmup = 0
	}
	if c.Size < 1 || c.Runs < 1 {
		return fmt.Errorf("bench: size %d and runs %d must be positive", c.Size, c.Runs)
	}
	for _, b := range c.Bands {
		if b < 1 {
			return fmt.Errorf("bench: band count %d must be positive", b)
		}
	}
	for _, s := range c.Factors {
		if !(s > 0) || s > 1e4 {
			return fmt.Errorf("bench: factor %v must be a positive number", s)
		}
	}
	return nil
}

// Run times m and bicubic interpolation for every band count and factor.
func Run(ctx context.Context, m *model.Model, cfg Config) (*Result, error) {
	if m == nil {
		return nil, errors.New("bench: nil model")
	}
	if err := cfg.normalise(); err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	res := &Result{Size: cfg.Size, Runs: cfg.Runs, Warmup: cfg.Warmup, Host: host,
		CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		Platform: runtime.GOOS + "/" + runtime.GOARCH, GEMM: gemm.Backend(), Build: buildinfo.Read().Short(), Params: m.NumParams()}
	r := rand.New(rand.NewPCG(2026, cfg.Seed+1))
	total, done := len(cfg.Bands)*len(cfg.Factors), 0
	for _, nb := range cfg.Bands {
		lr, noisy, err := Input(cfg.Size, nb, r)
		if err != nil {
			return nil, err
		}
		for _, s := range cfg.Factors {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			oh := resample.UpSize(cfg.Size, s)
			run := func(x *hsi.Cube) (timing, error) {
				return timeIt(func() error {
					e, err := m.EncodeImage(x)
					if err != nil {
						return err
					}
					_, err = e.Render(oh, oh)
					return err
				}, cfg.Runs, cfg.Warmup)
			}
			om, err := run(lr)
			if err != nil {
				return nil, fmt.Errorf("bench: B=%d x%g: %w", nb, s, err)
			}
			on, err := run(noisy)
			if err != nil {
				return nil, fmt.Errorf("bench: B=%d x%g, noisy input: %w", nb, s, err)
			}
			bi, err := timeIt(func() error { _, err := resample.Upsample(lr, oh, oh); return err }, cfg.Runs, cfg.Warmup)
			if err != nil {
				return nil, fmt.Errorf("bench: bicubic B=%d x%g: %w", nb, s, err)
			}
			res.Rows = append(res.Rows, Row{Bands: nb, Factor: s, OutH: oh, OutW: oh,
				ModelMS: om.ms, ModelMiB: om.peakMiB, NoisyMS: on.ms, BicubicMS: bi.ms, BicubicMiB: bi.peakMiB})
			done++
			if cfg.Progress != nil {
				cfg.Progress(done, total)
			}
		}
	}
	return res, nil
}

// Input returns the latency table's input of size x size pixels and b
// bands, values in [0, 1]: a clean image (every band a smooth mixture of
// two random planar waves and a disc's edge, the bands varying smoothly),
// and the same with white noise of standard deviation 0.03 added.
func Input(size, b int, r *rand.Rand) (clean, noisy *hsi.Cube, err error) {
	if clean, err = hsi.New(size, size, b); err != nil {
		return nil, nil, fmt.Errorf("bench: %w", err)
	}
	var fy, fx, ph [2]float64
	for k := range 2 {
		fy[k], fx[k], ph[k] = r.Float64()*0.4, r.Float64()*0.4, r.Float64()*2*math.Pi
	}
	c := float64(size) / 2
	for y := range size {
		for x := range size {
			disc := 0.0
			if (float64(y)-c)*(float64(y)-c)+(float64(x)-c)*(float64(x)-c) < c*c/2 {
				disc = 1
			}
			for k := range b {
				t := float64(k) / float64(max(1, b-1))
				v := 0.45 + 0.15*(1-t)*math.Sin(fy[0]*float64(y)+fx[0]*float64(x)+ph[0]) +
					0.15*t*math.Sin(fy[1]*float64(y)+fx[1]*float64(x)+ph[1]) + 0.2*disc*(0.5+t)
				clean.Data[(y*size+x)*b+k] = float32(v)
			}
		}
	}
	noisy = clean.Clone()
	for i := range noisy.Data {
		noisy.Data[i] += float32(0.03 * r.NormFloat64())
	}
	return clean, noisy, nil
}

// Header is the description printed above the table: two lines, and the
// build (omnihsr version -short) on a third when recorded.
func (r *Result) Header() string {
	h := fmt.Sprintf("Inference latency (ms, median of %d runs after %d warm-ups) and peak heap (MiB), %dx%d input, batch 1, float32.\n"+
		"Machine: %s, %d CPU cores (GOMAXPROCS %d), %s; GEMM: %s; model: %d parameters.\n",
		r.Runs, r.Warmup, r.Size, r.Size, r.Host, r.CPUs, r.GOMAXPROCS, r.Platform, r.GEMM, r.Params)
	if r.Build != "" {
		h += "Build: " + r.Build + ".\n"
	}
	return h
}

// Markdown is Header followed by the table.
func (r *Result) Markdown() string {
	var b strings.Builder
	b.WriteString(r.Header())
	b.WriteString("\n| bands | factor | output | OmniHSR ms | OmniHSR MiB | OmniHSR ms, noisy input | bicubic ms | bicubic MiB | OmniHSR / bicubic |\n")
	b.WriteString("|---:|---:|---|---:|---:|---:|---:|---:|---:|\n")
	for _, w := range r.Rows {
		fmt.Fprintf(&b, "| %d | x%g | %dx%d | %.1f | %.0f | %.1f | %.1f | %.0f | %.2f |\n",
			w.Bands, w.Factor, w.OutH, w.OutW, w.ModelMS, w.ModelMiB, w.NoisyMS, w.BicubicMS, w.BicubicMiB, w.Ratio())
	}
	return b.String()
}

// Find returns the row of (bands, factor), or nil.
func (r *Result) Find(bands int, factor float64) *Row {
	for i := range r.Rows {
		if r.Rows[i].Bands == bands && r.Rows[i].Factor == factor {
			return &r.Rows[i]
		}
	}
	return nil
}

// heapSampler records the peak of the Go heap in use while running.
type heapSampler struct {
	peak atomic.Uint64
	stop chan struct{}
	done chan struct{}
}

func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startHeap() *heapSampler {
	h := &heapSampler{stop: make(chan struct{}), done: make(chan struct{})}
	h.peak.Store(heapInUse())
	go func() {
		defer close(h.done)
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				if v := heapInUse(); v > h.peak.Load() {
					h.peak.Store(v)
				}
			}
		}
	}()
	return h
}

func (h *heapSampler) Stop() uint64 {
	close(h.stop)
	<-h.done
	if v := heapInUse(); v > h.peak.Load() {
		h.peak.Store(v)
	}
	return h.peak.Load()
}

type timing struct {
	ms      float64 // median latency
	peakMiB float64
}

// timeIt runs f warm+runs times and returns the median time of the last
// runs, then runs it once more under the heap sampler for the peak heap
// above the starting heap: the sampler wakes every 200 us, which would tax
// the timed runs.
func timeIt(f func() error, runs, warm int) (timing, error) {
	for i := 0; i < warm; i++ {
		if err := f(); err != nil {
			return timing{}, err
		}
	}
	ts := make([]float64, runs)
	for i := range ts {
		t0 := time.Now()
		if err := f(); err != nil {
			return timing{}, err
		}
		ts[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
	}
	runtime.GC()
	base := heapInUse()
	hs := startHeap()
	err := f()
	peak := hs.Stop()
	if err != nil {
		return timing{}, err
	}
	return timing{ms: stat.Median(ts), peakMiB: float64(peak-min(peak, base)) / (1 << 20)}, nil
}
