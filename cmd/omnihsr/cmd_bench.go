package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/bench"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
	"github.com/omnihsr/omnihsr/model"
)

var benchCmd = &command{
	name:    "bench",
	summary: "inference latency and peak memory table (paper Table \"Inference latency\")",
	usage: `omnihsr bench [-size 32] [-bands 31,103,128,145] [-factors 4,8,16] [-runs 12] [-warmup 3] [-weights FILE] [-md FILE]

Times OmniHSR inference (C_B + encoder + FiLM + head + COFR, one image,
batch 1, float32) on a random low-res input of size x size pixels for every
band count and factor, as the median of -runs runs after -warmup warm-ups,
with bicubic interpolation alone measured in the same run for comparison.
Peak memory is the largest Go heap in use during one more, untimed run (the
heap sampler would slow the timed runs), above the heap
before it (the counterpart of the paper's peak allocated GPU memory).
The table is printed (and written to -md as Markdown).`,
	flags: func(fs *flag.FlagSet) runner {
		o := &benchOpts{}
		fs.StringVar(&o.weights, "weights", "", "weight file (default: the embedded model)")
		fs.StringVar(&o.bands, "bands", "31,103,128,145", "band counts")
		fs.StringVar(&o.factors, "factors", "4,8,16", "factors")
		fs.IntVar(&o.size, "size", 32, "low-res side")
		fs.IntVar(&o.runs, "runs", 12, "timed runs per configuration")
		fs.IntVar(&o.warm, "warmup", 3, "warm-up runs per configuration")
		fs.StringVar(&o.markdown, "md", "", "also write the table as Markdown to this file")
		return o
	},
}

type benchOpts struct {
	weights, bands, factors string
	size, runs, warm        int
	markdown                string
}

func (o *benchOpts) run(_ context.Context, e env) error {
	bs, err := parseInts(o.bands)
	if err != nil {
		return usagef("-bands: %v", err)
	}
	ss, err := parseFloats(o.factors)
	if err != nil {
		return usagef("-factors: %v", err)
	}
	if o.size < 1 || o.runs < 1 || o.warm < 0 {
		return usagef("-size, -runs must be positive and -warmup not negative")
	}
	m, err := loadModel(o.weights)
	if err != nil {
		return err
	}
	w := o.warm
	if w == 0 {
		w = -1 // bench.Config: 0 means the default, negative none
	}
	res, err := bench.Run(m, bench.Config{Size: o.size, Bands: bs, Factors: ss, Runs: o.runs, Warmup: w})
	if err != nil {
		return err
	}
	tab := res.Markdown()
	fmt.Fprint(e.stdout, tab)
	if o.markdown != "" {
		return writeFile(o.markdown, []byte(tab))
	}
	return nil
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

// loadModel returns the model of a weight file, or the embedded default.
func loadModel(path string) (*model.Model, error) {
	if path == "" {
		return model.Default()
	}
	return model.Load(path)
}

// writeFile writes b to path atomically: on error the file is left as it was.
func writeFile(path string, b []byte) error {
	return atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(b); return err })
}
