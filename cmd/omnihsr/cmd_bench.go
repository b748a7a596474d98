package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/omnihsr/omnihsr/gemm"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
	"github.com/omnihsr/omnihsr/model"
	"github.com/omnihsr/omnihsr/resample"
)

func init() {
	var (
		weights, bands, factors string
		size, runs, warm        int
		markdown                string
	)
	register(&command{
		name:    "bench",
		summary: "inference latency and peak memory table (paper Table \"Inference latency\")",
		usage: `omnihsr bench [-size 32] [-bands 31,103,128,145] [-factors 4,8,16] [-runs 12] [-warmup 3] [-weights FILE] [-md FILE]

Times OmniHSR inference (C_B + encoder + FiLM + head + COFR, one image,
batch 1, float32) on a random low-res input of size x size pixels for every
band count and factor, as the median of -runs runs after -warmup warm-ups,
with bicubic interpolation alone measured in the same run for comparison.
Peak memory is the largest Go heap in use during a run, above the heap
before it (the counterpart of the paper's peak allocated GPU memory).
The table is printed (and written to -md as Markdown).`,
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&weights, "weights", "", "weight file (default: the embedded model)")
			fs.StringVar(&bands, "bands", "31,103,128,145", "band counts")
			fs.StringVar(&factors, "factors", "4,8,16", "factors")
			fs.IntVar(&size, "size", 32, "low-res side")
			fs.IntVar(&runs, "runs", 12, "timed runs per configuration")
			fs.IntVar(&warm, "warmup", 3, "warm-up runs per configuration")
			fs.StringVar(&markdown, "md", "", "also write the table as Markdown to this file")
		},
		run: func(fs *flag.FlagSet) error {
			bs, err := parseInts(bands)
			if err != nil {
				return usagef("-bands: %v", err)
			}
			ss, err := parseFloats(factors)
			if err != nil {
				return usagef("-factors: %v", err)
			}
			if size < 1 || runs < 1 || warm < 0 {
				return usagef("-size, -runs must be positive and -warmup not negative")
			}
			m, err := loadModel(weights)
			if err != nil {
				return err
			}
			tab, err := benchTable(m, size, bs, ss, runs, warm)
			if err != nil {
				return err
			}
			fmt.Print(tab)
			if markdown != "" {
				return writeText(markdown, tab)
			}
			return nil
		},
	})
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, v)
	}
	return out, nil
}

func parseFloats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v > 0) {
			return nil, fmt.Errorf("%q is not a positive number", f)
		}
		out = append(out, v)
	}
	return out, nil
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

type benchResult struct {
	ms     float64 // median latency
	peakMB float64
}

// timeIt runs f warm+runs times and returns the median time of the last
// runs and the peak heap above the starting heap.
func timeIt(f func() error, runs, warm int) (benchResult, error) {
	for i := 0; i < warm; i++ {
		if err := f(); err != nil {
			return benchResult{}, err
		}
	}
	runtime.GC()
	base := heapInUse()
	hs := startHeap()
	ts := make([]float64, runs)
	for i := range ts {
		t0 := time.Now()
		if err := f(); err != nil {
			hs.Stop()
			return benchResult{}, err
		}
		ts[i] = float64(time.Since(t0).Microseconds()) / 1000
	}
	peak := hs.Stop()
	sort.Float64s(ts)
	med := ts[len(ts)/2]
	if len(ts)%2 == 0 {
		med = (ts[len(ts)/2-1] + ts[len(ts)/2]) / 2
	}
	return benchResult{ms: med, peakMB: float64(peak-min(peak, base)) / (1 << 20)}, nil
}

func benchTable(m *model.Model, size int, bands []int, factors []float64, runs, warm int) (string, error) {
	var b strings.Builder
	host, _ := os.Hostname()
	fmt.Fprintf(&b, "Inference latency (ms, median of %d runs after %d warm-ups) and peak heap (MiB), %dx%d input, batch 1, float32.\n", runs, warm, size, size)
	fmt.Fprintf(&b, "Machine: %s, %d CPU cores (GOMAXPROCS %d), %s/%s; GEMM: %s; model: %d parameters.\n\n",
		host, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, gemm.Backend(), m.NumParams())
	fmt.Fprintf(&b, "| bands | factor | output | OmniHSR ms | OmniHSR MiB | bicubic ms | bicubic MiB | OmniHSR / bicubic |\n")
	fmt.Fprintf(&b, "|---:|---:|---|---:|---:|---:|---:|---:|\n")
	r := rand.New(rand.NewPCG(2026, 1))
	for _, nb := range bands {
		lr := hsi.MustNew(size, size, nb)
		for i := range lr.Data {
			lr.Data[i] = r.Float32()
		}
		for _, s := range factors {
			oh := resample.UpSize(size, s)
			om, err := timeIt(func() error {
				e, err := m.EncodeImage(lr)
				if err != nil {
					return err
				}
				_, err = e.Render(oh, oh)
				return err
			}, runs, warm)
			if err != nil {
				return "", err
			}
			bi, err := timeIt(func() error { _, err := resample.Upsample(lr, oh, oh); return err }, runs, warm)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "| %d | x%g | %dx%d | %.1f | %.0f | %.1f | %.0f | %.2f |\n", nb, s, oh, oh, om.ms, om.peakMB, bi.ms, bi.peakMB, om.ms/bi.ms)
		}
	}
	return b.String(), nil
}

// loadModel returns the model of a weight file, or the embedded default.
func loadModel(path string) (*model.Model, error) {
	if path == "" {
		return model.Default()
	}
	return model.Load(path)
}

func writeText(path, s string) error {
	return atomicfile.Write(path, func(w io.Writer) error { _, err := io.WriteString(w, s); return err })
}
