package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi/tiff"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
	"github.com/omnihsr/omnihsr/internal/bench"
	"github.com/omnihsr/omnihsr/internal/model"
)

var benchCmd = &command{
	name:    "bench",
	stops:   true,
	summary: "inference latency and peak memory table (paper Table \"Inference latency\")",
	usage: `Usage: omnihsr bench [-size 32] [-bands 31,103,128,145] [-factors 4,8,16] [-runs 12] [-warmup 3] [-weights FILE] [-md FILE]
   or: omnihsr bench -scene HxWxB [-scene-factors 2,4] [-runs N] [-dir DIR] [-of ENVI|GTiff|COG] [-co KEY=VALUE]... [-md FILE]

Times OmniHSR inference (C_B + encoder + FiLM + head + COFR, one image,
batch 1, float32) on a synthetic clean low-res input of size x size pixels
(smooth waves and an edge) for every band count and factor, as the median
of -runs runs after -warmup warm-ups, and on the same input with white
noise of 0.03 added, which the default pair renders with its noise-aware
model and that model's field gain; bicubic interpolation alone is measured
in the same run for comparison.
Peak memory is the largest Go heap in use during one more, untimed run (the
heap sampler would slow the timed runs), above the heap
before it (the counterpart of the paper's peak allocated GPU memory).
The table is printed (and written to -md as Markdown).

With -scene HxWxB the whole-scene table is made instead: a synthetic
float32 ENVI scene of that size is written to a scratch directory (-dir,
default the system's temporary directory; it needs room for the scene and
one output) and, for every factor of -scene-factors, gdal_translate -of
ENVI -r cubic (when gdal_translate is on the PATH; also timed followed by
an fsync of its output, since omnihsr syncs its outputs), omnihsr upscale
-method bicubic and omnihsr upscale run as child processes, alternated,
-runs times: median wall time and peak RSS of each. -of GTiff or -of COG
with -co KEY=VALUE (repeatable, as gdal_translate's) makes every command
write that TIFF with the same creation options instead of ENVI, e.g.
-of GTiff -co TILED=YES -co COMPRESS=DEFLATE. Then the model's stages are
timed in this process one after the other (read, encoder, head, operator
field, U_s, write, sync) for the largest factor, into the same format.`,
	flags: func(fs *flag.FlagSet) runner {
		o := &benchOpts{}
		fs.StringVar(&o.weights, "weights", "", "weight file (default: the embedded model)")
		fs.StringVar(&o.bands, "bands", "31,103,128,145", "band counts")
		fs.StringVar(&o.factors, "factors", "4,8,16", "factors")
		fs.IntVar(&o.size, "size", 32, "low-res side")
		fs.IntVar(&o.runs, "runs", 12, "timed runs per configuration")
		fs.IntVar(&o.warm, "warmup", 3, "warm-up runs per configuration")
		fs.StringVar(&o.markdown, "md", "", "also write the table as Markdown to this file")
		fs.StringVar(&o.scene, "scene", "", "whole-scene comparison on a synthetic HxWxB scene (e.g. 512x512x102)")
		fs.StringVar(&o.sceneFactors, "scene-factors", "2,4", "factors of the -scene comparison")
		fs.StringVar(&o.dir, "dir", "", "scratch directory of -scene (default: the temporary directory)")
		fs.StringVar(&o.of, "of", "ENVI", "output format of -scene: ENVI, GTiff or COG")
		fs.Var(&o.co, "co", "TIFF creation option KEY=VALUE of -scene, given to every command (repeatable)")
		return o
	},
}

type benchOpts struct {
	weights, bands, factors string
	size, runs, warm        int
	markdown                string
	scene, sceneFactors     string
	dir                     string
	of                      string
	co                      multiString
}

func (o *benchOpts) run(ctx context.Context, e env) error {
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
	if o.scene != "" {
		return o.runScene(ctx, e, m)
	}
	if isSet(e.fs, "of") || len(o.co) > 0 {
		return usagef("-of and -co apply to -scene only")
	}
	w := o.warm
	if w == 0 {
		w = -1 // bench.Config: 0 means the default, negative none
	}
	res, err := bench.Run(ctx, m, bench.Config{Size: o.size, Bands: bs, Factors: ss, Runs: o.runs, Warmup: w})
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

// runScene is bench -scene.
func (o *benchOpts) runScene(ctx context.Context, e env, m *model.Model) error {
	dims, err := parseScene(o.scene)
	if err != nil {
		return usagef("-scene: %v", err)
	}
	factors, err := parseFloats(o.sceneFactors)
	if err != nil {
		return usagef("-scene-factors: %v", err)
	}
	cfg := bench.SceneConfig{H: dims[0], W: dims[1], B: dims[2], Factors: factors, Seed: 1, Creation: o.co}
	switch strings.ToLower(o.of) {
	case "envi":
		cfg.Format = "ENVI"
		if len(o.co) > 0 {
			return usagef("-co applies to -of GTiff or COG")
		}
	case "gtiff":
		cfg.Format = "GTiff"
	case "cog":
		cfg.Format = "COG"
	default:
		return usagef("-of %q: want ENVI, GTiff or COG", o.of)
	}
	if cfg.OutputExt() == ".tif" {
		if _, err := tiff.ParseOptions(cfg.WriteOptions()); err != nil {
			return usagef("%v", err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench: the omnihsr binary: %w", err)
	}
	gdal, _ := exec.LookPath("gdal_translate")
	dir, err := os.MkdirTemp(o.dir, "omnihsr-bench-")
	if err != nil {
		return fmt.Errorf("bench: scratch directory: %w", err)
	}
	defer os.RemoveAll(dir)
	runs := o.runs
	if !isSet(e.fs, "runs") {
		runs = 1
	}
	cfg.Exe, cfg.GDAL, cfg.Dir, cfg.Runs = exe, gdal, dir, runs
	rows, err := bench.Scene(ctx, cfg)
	if err != nil {
		return err
	}
	output := cfg.Format
	if len(cfg.Creation) > 0 {
		output += " (" + strings.Join(cfg.Creation, ", ") + ")"
	}
	tab := bench.SceneMarkdown(dims[0], dims[1], dims[2], output, rows)
	if gdal == "" {
		tab += "\ngdal_translate is not on the PATH: GDAL left out.\n"
	}
	fmt.Fprint(e.stdout, tab)
	s := slices.Max(factors)
	st, err := bench.SceneStages(m, filepath.Join(dir, "scene.hdr"), filepath.Join(dir, "stages"+cfg.OutputExt()), s, cfg.WriteOptions())
	if err != nil {
		return err
	}
	stab := fmt.Sprintf("\nStages at x%g, run one after the other in one process (operator field: the COFR render less U_s alone):\n\n", s) +
		bench.StagesMarkdown(st, 0) +
		fmt.Sprintf("\nOutput data %.2f GiB; encoder %.1f GFLOP.\n", float64(st.OutBytes)/(1<<30), st.EncoderFLOPs/1e9)
	fmt.Fprint(e.stdout, stab)
	if o.markdown != "" {
		return writeFile(o.markdown, []byte(tab+stab))
	}
	return nil
}

// parseScene parses HxWxB.
func parseScene(s string) ([3]int, error) {
	var d [3]int
	f := strings.Split(strings.ToLower(s), "x")
	if len(f) != 3 {
		return d, fmt.Errorf("%q: want HxWxB, such as 512x512x102", s)
	}
	for i, v := range f {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return d, fmt.Errorf("%q: %q is not a positive integer", s, v)
		}
		d[i] = n
	}
	return d, nil
}
