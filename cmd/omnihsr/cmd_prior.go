package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/omnihsr/omnihsr/internal/eval"
)

type priorOpts struct {
	evalSceneFlags
	factors string
	window  int
	ridge   float64
	out     string
	md      string
	workers int
}

var priorCmd = &command{
	name:    "prior",
	stops:   true,
	summary: "test the band-shared operator prior (paper appendix), no network",
	usage: `Usage: omnihsr prior [-scenes TSV] [-split eval] [-files a.mat,...] [-factors 2,4]
                     [-window 16] [-ridge 1e-6] [-out prior.json] [-md prior.md]

The paper's appendix "Testing the band-shared operator prior" (Table tab:prior),
with no network. On the images of the seven-dataset protocol (64x64 tiles of
remote-sensing scenes, the centred 256x256 crop of close-range scenes) and at each
factor, the LR image is the antialiased bicubic downsampling of the HR one. In every
window of 16x16 LR pixels a zero-sum 5x5 operator k (24 free coefficients,
replicate padding) describes Y_b ~ U_s((delta + k) * X_b); it is fitted by ridge
least squares (lambda = ridge * trace(G)/24) on the HR pixels of one checkerboard
half of the window's LR pixels and evaluated on the other half.

Columns: Per band (an operator per band; gain in dB over bicubic), 1 band (fitted on
the middle band, applied to the others), 4 bands (fitted on four interior bands
evenly spaced), First half (fitted on the first half of the bands, applied to the
second) - each minus the per-band gain on the same bands. Gains are
10 log10(SSE_bicubic / SSE_operator) over all windows and evaluated bands of an
image, averaged over the images of a scene.

Example (the committed table):
  omnihsr prior -out docs/prior.json`,
	flags: func(fs *flag.FlagSet) runner {
		f := &priorOpts{}
		f.evalSceneFlags.register(fs)
		fs.StringVar(&f.factors, "factors", "2,4", "comma-separated factors")
		fs.IntVar(&f.window, "window", 16, "window side in LR pixels")
		fs.Float64Var(&f.ridge, "ridge", 1e-6, "ridge, relative to trace(G)/24")
		fs.StringVar(&f.out, "out", "prior.json", "JSON output path")
		fs.StringVar(&f.md, "md", "", "Markdown output path (default: -out with .md)")
		fs.IntVar(&f.workers, "workers", 2, "bands processed at once")
		return f
	},
}

func (f *priorOpts) run(ctx context.Context, e env) error {
	fs := e.fs
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	factors, err := evalParseFactors(f.factors)
	if err != nil {
		return err
	}
	if f.window < 1 || f.workers < 1 || !(f.ridge > 0) {
		return usagef("-window, -workers and -ridge must be positive")
	}
	if f.out == "" {
		return usagef("-out must name a file")
	}
	scenes, err := f.evalSceneFlags.load(fs)
	if err != nil {
		return err
	}
	res, err := eval.Prior(ctx, scenes, eval.PriorConfig{
		Factors: factors, Window: f.window, Ridge: f.ridge, Geometry: eval.Geometry(f.geometry),
		TileSize: f.tile, CropSize: f.crop, Workers: f.workers, Progress: terminal(e.stderr), Command: evalCommandLine(fs),
	})
	if err != nil {
		return err
	}
	md := f.md
	if md == "" {
		md = evalReplaceExt(f.out, ".md")
	}
	if err := eval.WritePriorJSON(f.out, res); err != nil {
		return err
	}
	if err := eval.WritePriorMarkdown(md, res); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "omnihsr prior: %d scenes, %d image results in %.1f s -> %s, %s\n",
		len(res.Scenes), len(res.Images), float64(res.WallSeconds), f.out, md)
	return nil
}
