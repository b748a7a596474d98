package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"strings"

	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/method"
)

type banddefOpts struct {
	evalSceneFlags
	method  string
	weights string
	factor  float64
	seed    uint64
	out     string
	md      string
}

var banddefCmd = &command{
	name:    "banddef",
	stops:   true,
	summary: "redefine the input bands (subset, merge, gain, offset) and measure how the output moves",
	usage: `Usage: omnihsr banddef [-scenes TSV] [-split eval] [-files a.mat,...] [-method omnihsr]
                       [-weights FILE] [-factor 4] [-seed 0] [-out banddef.json] [-md banddef.md]

The paper's Table "Redefining the input bands". On the images of the seven-dataset
protocol, each band redefinition T (every other band; means of neighbouring pairs;
a random per-band gain in [0.8, 1.25]; a random per-band offset in [0, 0.05]) is
applied to the LR input and the method runs on TX. For a fixed reconstruction
operator W_s, f(TX) = T f(X) exactly (the paper's Eq. 11); the table reports
r = ||f(TX) - T f(X)|| / ||T f(X) - U_s TX|| (median over images: how much of the
operator field's contribution moves) and Delta = PSNR(f(TX), TY) - PSNR(T f(X), TY)
(dB, no clipping, mean over images).

Example (the committed table):
  omnihsr banddef -out docs/banddef.json`,
	flags: func(fs *flag.FlagSet) runner {
		f := &banddefOpts{}
		f.evalSceneFlags.register(fs)
		fs.StringVar(&f.method, "method", "omnihsr", "method: "+strings.Join(method.Names(), ", "))
		fs.StringVar(&f.weights, "weights", "", "OmniHSR weight file (default: the embedded model)")
		fs.Float64Var(&f.factor, "factor", 4, "upscaling factor")
		fs.Uint64Var(&f.seed, "seed", 0, "seed of the random gains and offsets")
		fs.StringVar(&f.out, "out", "banddef.json", "JSON output path")
		fs.StringVar(&f.md, "md", "", "Markdown output path (default: -out with .md)")
		return f
	},
}

func (f *banddefOpts) run(ctx context.Context, e env) error {
	fs := e.fs
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if !(f.factor > 0) || math.IsInf(f.factor, 0) {
		return usagef("-factor %v: want a finite number > 0", f.factor)
	}
	if f.out == "" {
		return usagef("-out must name a file")
	}
	ms, err := evalMethods("-method", []string{f.method}, f.weights)
	if err != nil {
		return err
	}
	m := ms[0]
	scenes, err := f.evalSceneFlags.load(fs)
	if err != nil {
		return err
	}
	res, err := eval.BandRedefinition(ctx, scenes, m, eval.BandDefConfig{
		Factor: f.factor, Seed: f.seed, Geometry: eval.Geometry(f.geometry), Tile: f.tile, Crop: f.crop,
	})
	if err != nil {
		return err
	}
	md := f.md
	if md == "" {
		md = strings.TrimSuffix(f.out, ".json") + ".md"
	}
	if err := eval.WriteBandDefJSON(f.out, res); err != nil {
		return err
	}
	if err := eval.WriteBandDefMarkdown(md, res); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "omnihsr banddef: %d scenes -> %s, %s\n", len(scenes), f.out, md)
	return nil
}
