package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/omnihsr/omnihsr/internal/ablation"
	"github.com/omnihsr/omnihsr/internal/eval"
)

// `omnihsr ablation` wires its flags to package ablation.

type ablationOpts struct {
	evalSceneFlags
	weights string
	factors string
	out     string
	md      string
	notes   string
	workers int
}

var ablationCmd = &command{
	name:    "ablation",
	stops:   true,
	summary: "score trained ablation variants next to bicubic (paper Table \"Ablation\"); Markdown + JSON",
	usage: `Usage: omnihsr ablation -weights NAME=FILE,NAME=FILE,... [-factors 2,4,8]
                        [-out docs/ablation.json] [-md docs/ablation.md] [scene flags]

Runs the seven-dataset protocol of ` + "`omnihsr eval`" + ` (docs/CONVENTIONS.md section 6: remote-sensing
scenes in 64x64 tiles, close-range scenes as the centred 256x256 crop,
antialiased bicubic degradation) with bicubic and every weight file as a
method labelled NAME, and writes:

  -md    a Markdown table shaped like the paper's Table "Output path and
         operator constraint" (rows: factor x scene; columns: Bicubic, then
         every run; cells PSNR / SAM; bold: best in the row; italics: worse
         than bicubic), a count of the rows where each run beats bicubic and
         the first OmniHSR run, the paper's ablation figures for comparison,
         and a header with every run's variant and training budget read from
         its weight file (steps, patch, batch, data, seed); with -notes FILE,
         FILE's text as a "Discussion" section (so that a hand-written
         comparison survives regeneration);
  -out   the JSON: the runs (name, file, variant, training metadata) and every
         per-image figure of the evaluation.

Both outputs are deterministic: timings are left out.

Weight files come from ` + "`omnihsr train [-variant V] [-natural-only]`" + `; the variant is
read from the file. scripts/ablations.sh trains the five runs at an equal
budget and calls this command.`,
	flags: func(fs *flag.FlagSet) runner {
		f := &ablationOpts{}
		f.evalSceneFlags.register(fs)
		fs.StringVar(&f.weights, "weights", "", "comma-separated NAME=FILE pairs, one per run (required)")
		fs.StringVar(&f.factors, "factors", "2,4,8", "comma-separated factors")
		fs.StringVar(&f.out, "out", "docs/ablation.json", "JSON output path")
		fs.StringVar(&f.md, "md", "docs/ablation.md", "Markdown output path")
		fs.StringVar(&f.notes, "notes", "", "Markdown file whose text goes into the output as its \"Discussion\" section (optional)")
		fs.IntVar(&f.workers, "workers", 2, "images scored at once")
		return f
	},
}

// parseAblationWeights parses "a=x.omw,b=y.omw".
func parseAblationWeights(s string) ([][2]string, error) {
	var out [][2]string
	seen := map[string]bool{strings.ToLower(eval.BicubicName): true}
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		name, path, ok := strings.Cut(p, "=")
		name, path = strings.TrimSpace(name), strings.TrimSpace(path)
		if !ok || name == "" || path == "" {
			return nil, usagef("-weights: %q is not NAME=FILE", p)
		}
		if !ablation.ValidName(name) {
			return nil, usagef("-weights: run name %q: use letters, digits, '.', '_', '+', '-'", name)
		}
		if seen[strings.ToLower(name)] {
			return nil, usagef("-weights: run name %q given twice (or is Bicubic)", name)
		}
		seen[strings.ToLower(name)] = true
		out = append(out, [2]string{name, path})
	}
	if len(out) == 0 {
		return nil, usagef("-weights NAME=FILE,... is required")
	}
	return out, nil
}

func (f *ablationOpts) run(ctx context.Context, e env) error {
	fs := e.fs
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	pairs, err := parseAblationWeights(f.weights)
	if err != nil {
		return err
	}
	factors, err := evalParseFactors(f.factors)
	if err != nil {
		return err
	}
	if len(factors) == 0 {
		return usagef("-factors: no factor given")
	}
	if f.workers < 1 {
		return usagef("-workers must be at least 1")
	}
	if f.out == "" || f.md == "" {
		return usagef("-out and -md must name files")
	}
	var notes []byte
	if f.notes != "" {
		if notes, err = os.ReadFile(f.notes); err != nil {
			return fmt.Errorf("ablation: notes: %w", err)
		}
	}
	var runs []ablation.Run
	for _, p := range pairs {
		r, err := ablation.Load(p[0], p[1])
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	scenes, err := f.evalSceneFlags.load(fs)
	if err != nil {
		return err
	}
	res, err := ablation.Score(ctx, scenes, runs, ablation.Config{
		Factors: factors, Geometry: eval.Geometry(f.geometry), TileSize: f.tile, CropSize: f.crop,
		Workers: f.workers, Progress: terminal(e.stderr), Command: evalCommandLine(fs),
	})
	if err != nil {
		return err
	}
	js, err := res.JSON()
	if err != nil {
		return err
	}
	if err := writeFile(f.out, js); err != nil {
		return err
	}
	if err := writeFile(f.md, ablation.Markdown(res, notes)); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "omnihsr ablation: %d runs, %d scenes, %d records -> %s, %s\n", len(runs), len(res.Result.Scenes), len(res.Result.Records), f.out, f.md)
	return nil
}
