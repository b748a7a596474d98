package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/nn"
	"github.com/omnihsr/omnihsr/internal/report"
)

// evalSceneFlags are the flags that choose the scenes (shared by eval and prior).
type evalSceneFlags struct {
	scenes   string
	split    string
	files    string
	variable string
	sensor   string
	geometry string
	tile     int
	crop     int
}

func (sf *evalSceneFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&sf.scenes, "scenes", "", "scenes TSV (default ../shared/data/hsi/scenes.tsv when it exists and -files is not given)")
	fs.StringVar(&sf.split, "split", "eval", "split column value of the TSV rows to evaluate (\"all\" = every row)")
	fs.StringVar(&sf.files, "files", "", "comma-separated cube files to evaluate instead of (or, with -scenes, besides) the TSV scenes")
	fs.StringVar(&sf.variable, "var", "", "MATLAB variable of -files (default: the largest numeric array)")
	fs.StringVar(&sf.sensor, "sensor", "", "sensor name of -files, which picks the seven-protocol geometry (CAVE, ARAD, Harvard, ground, laboratory = close-range crop; anything else = tiles)")
	fs.StringVar(&sf.geometry, "geometry", "auto", "seven-protocol geometry: auto (by sensor), tiles, crop")
	fs.IntVar(&sf.tile, "tile", eval.DefaultTileSize, "tile side of remote-sensing scenes (seven protocol)")
	fs.IntVar(&sf.crop, "crop", eval.DefaultCropSize, "centre-crop side of close-range scenes (seven protocol)")
}

func (sf *evalSceneFlags) load(fs *flag.FlagSet) ([]*eval.Scene, error) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch sf.geometry {
	case "auto", "tiles", "crop":
	default:
		return nil, usagef("-geometry %q: want auto, tiles or crop", sf.geometry)
	}
	if sf.tile <= 0 || sf.crop <= 0 {
		return nil, usagef("-tile and -crop must be positive")
	}
	var out []*eval.Scene
	useTSV := sf.scenes != "" || sf.files == ""
	if useTSV {
		path := sf.scenes
		if path == "" {
			path = eval.DefaultScenesTSV()
			if path == "" {
				return nil, usagef("no -scenes or -files given and ../shared/data/hsi/scenes.tsv was not found (set OMNIHSR_SHARED or pass -scenes)")
			}
		}
		sc, err := eval.TSVScenes(path, sf.split)
		if err != nil {
			return nil, err
		}
		out = append(out, sc...)
	}
	if sf.files != "" {
		var paths []string
		for _, p := range strings.Split(sf.files, ",") {
			if p = strings.TrimSpace(p); p != "" {
				paths = append(paths, p)
			}
		}
		out = append(out, eval.FileScenes(paths, hsi.ReadOptions{Var: sf.variable}, sf.sensor)...)
	}
	if len(out) == 0 {
		return nil, usagef("no scenes selected")
	}
	return out, nil
}

// evalParseFactors parses "2,4,8".
func evalParseFactors(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []float64
	for _, p := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p), "x")), 64)
		if err != nil || !(v > 0) || v > 1e6 {
			return nil, usagef("factor %q is not a positive number", p)
		}
		out = append(out, v)
	}
	return out, nil
}

// evalCommandLine rebuilds the command line from the flags set explicitly, in
// name order, so that outputs record a deterministic command.
func evalCommandLine(fs *flag.FlagSet) string {
	var parts []string
	fs.Visit(func(f *flag.Flag) {
		v := f.Value.String()
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() && v == "true" {
			parts = append(parts, "-"+f.Name)
			return
		}
		if v == "" || strings.ContainsAny(v, " \t'\"{}") {
			v = strconv.Quote(v)
		}
		parts = append(parts, "-"+f.Name+" "+v)
	})
	sort.Strings(parts)
	return strings.TrimSpace("omnihsr " + fs.Name() + " " + strings.Join(parts, " "))
}

// evalOutputPath expands {protocol} in pattern; when several protocols run and
// the pattern lacks it, "_PROTOCOL" goes before the extension.
func evalOutputPath(pattern, protocol string, several bool) string {
	if strings.Contains(pattern, "{protocol}") {
		return strings.ReplaceAll(pattern, "{protocol}", protocol)
	}
	if !several {
		return pattern
	}
	ext := filepath.Ext(pattern)
	return strings.TrimSuffix(pattern, ext) + "_" + protocol + ext
}

func evalReplaceExt(path, ext string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ext
}

type evalOpts struct {
	evalSceneFlags
	methods   string
	weights   string
	protocol  string
	factors   string
	out       string
	md        string
	noise     float64
	noiseMod  string
	blur      float64
	area      bool
	kappa     float64
	seed      uint64
	workers   int
	resamples int
	bootSeed  uint64
	report    string
	noBench   bool
}

var evalCmd = &command{
	name:    "eval",
	stops:   true,
	summary: "score methods on evaluation scenes (docs/CONVENTIONS.md section 6); JSON + Markdown tables",
	usage: `Usage: omnihsr eval [-scenes TSV] [-split eval] [-files a.mat,b.npy] [-methods bicubic,...]
                    [-protocol seven,twelve] [-factors 2,4,8] [-out results.json] [-md table.md]
                    [-noise S] [-blur C] [-area] [-kappa K]

Runs the evaluation protocol of docs/CONVENTIONS.md section 6. Each scene is normalised to
[0, 1] (negatives clamped, divided by its maximum), cut into images, degraded
to a low-resolution input of side round(side/s), upscaled back by every
method, clipped to [0, 1] and scored (PSNR, SSIM, SAM, ERGAS, per-band RMSE).
Bicubic always runs next to the other methods.

Protocols:
  seven   x2, x4, x8 (the paper's Table "seven datasets"): remote-sensing scenes in
          non-overlapping 64x64 tiles (top-left aligned, ragged edges dropped),
          close-range scenes (sensor CAVE, ARAD, Harvard, ...; see -sensor, -geometry)
          as the centred 256x256 crop (the largest centred square if smaller).
  twelve  the largest centred square of every scene at x2, x4, x8, x2.5, x3.7, x5.3,
          x7.6, x12, x16, x24, x36, x48 (the paper's Table "main").

Degradations (default: antialiased bicubic only, as the paper): -blur C blurs the HR
image with a Gaussian of sigma C*s HR pixels, -kappa K with sigma K*s*(b-1)/(B-1) for
band b, -area replaces the bicubic downsampling by the block mean, -noise S adds
Gaussian noise of sigma S to the LR input (seeded by -seed); -noise-model
shot, profile or stripes makes it a sensor-like noise of level S instead.

Outputs: for each protocol, a JSON file of every per-image figure and the run
configuration (-out), and Markdown tables shaped like the paper's (-md, default
beside -out with .md). "{protocol}" in -out or -md is replaced by the protocol
name; with several protocols and no "{protocol}", "_PROTOCOL" is added before
the extension. Markdown is deterministic except the timing table.

Report: -report DIR runs every experiment of the evaluation report with the
OmniHSR model (-weights, default the embedded one) on the scenes: the twelve-
factor and seven-dataset tables, the band redefinition, the test-time
degradations, the band-dependent blur, figures and the latency table, each
next to the paper's numbers, into DIR/results.md and DIR/results/ (JSON and
PNG). DIR/positions.json, when present (the M study of scripts/ablations.sh),
becomes the table of reference positions. Everything but the latency table regenerates byte-identically.
  omnihsr eval -report docs/

Example (the committed bicubic tables):
  omnihsr eval -methods bicubic -protocol seven,twelve -out docs/bicubic_{protocol}.json`,
	flags: func(fs *flag.FlagSet) runner {
		f := &evalOpts{}
		f.evalSceneFlags.register(fs)
		fs.StringVar(&f.methods, "methods", "bicubic", "comma-separated methods: "+strings.Join(method.Names(), ", "))
		fs.StringVar(&f.weights, "weights", "", "OmniHSR weight file for -methods omnihsr (default: the embedded model)")
		fs.StringVar(&f.protocol, "protocol", "seven,twelve", "comma-separated protocols: seven, twelve")
		fs.StringVar(&f.factors, "factors", "", "comma-separated factors (default: the protocol's)")
		fs.StringVar(&f.out, "out", "eval_{protocol}.json", "JSON output path")
		fs.StringVar(&f.md, "md", "", "Markdown output path (default: -out with .md)")
		fs.Float64Var(&f.noise, "noise", 0, "Gaussian noise sigma added to the LR input (0 = none)")
		fs.StringVar(&f.noiseMod, "noise-model", "", "sensor-like noise of level -noise instead of white noise: "+strings.Join(eval.NoiseModels(), ", "))
		fs.Float64Var(&f.blur, "blur", 0, "Gaussian blur of sigma C*s HR pixels before downsampling (0 = none)")
		fs.BoolVar(&f.area, "area", false, "downsample by block mean (area) instead of antialiased bicubic")
		fs.Float64Var(&f.kappa, "kappa", 0, "band-dependent blur sigma kappa*s*(b-1)/(B-1) HR pixels (0 = none)")
		fs.Uint64Var(&f.seed, "seed", 0, "seed of the noise")
		fs.IntVar(&f.workers, "workers", 2, "images scored at once (timing figures include the concurrency)")
		fs.IntVar(&f.resamples, "resamples", eval.DefaultResamples, "bootstrap resamples of the PSNR gain over bicubic")
		fs.Uint64Var(&f.bootSeed, "bootstrap-seed", 0, "seed of the bootstrap")
		fs.StringVar(&f.report, "report", "", "write the whole evaluation report (DIR/results.md, DIR/results/) with the OmniHSR model instead of single tables")
		fs.BoolVar(&f.noBench, "no-bench", false, "with -report: leave out the latency table")
		return f
	},
}

func (f *evalOpts) run(ctx context.Context, e env) error {
	fs := e.fs
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	var protocols []string
	for _, p := range strings.Split(f.protocol, ",") {
		p = strings.TrimSpace(p)
		if p != eval.ProtocolSeven && p != eval.ProtocolTwelve {
			return usagef("-protocol %q: want seven, twelve or both", p)
		}
		protocols = append(protocols, p)
	}
	factors, err := evalParseFactors(f.factors)
	if err != nil {
		return err
	}
	if f.report != "" {
		return f.runReport(ctx, e)
	}
	if f.workers < 1 || f.resamples < 1 {
		return usagef("-workers and -resamples must be at least 1")
	}
	deg := eval.Degradation{Noise: f.noise, NoiseModel: f.noiseMod, Blur: f.blur, Area: f.area, Kappa: f.kappa, Seed: f.seed}
	if err := deg.Validate(); err != nil {
		return usagef("%v", err)
	}
	var names []string
	for _, n := range strings.Split(f.methods, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	methods, err := evalMethods("-methods", names, f.weights)
	if err != nil {
		return err
	}
	if f.out == "" {
		return usagef("-out must name a file")
	}
	scenes, err := f.evalSceneFlags.load(fs)
	if err != nil {
		return err
	}
	cmdline := evalCommandLine(fs)
	for _, p := range protocols {
		cfg := eval.Config{
			Protocol: p, Factors: factors, Methods: methods, Degradation: deg,
			Geometry: eval.Geometry(f.geometry), TileSize: f.tile, CropSize: f.crop,
			Workers: f.workers, Resamples: f.resamples, Seed: f.bootSeed,
			Progress: terminal(e.stderr), Command: cmdline,
		}
		res, err := eval.Run(ctx, scenes, cfg)
		if err != nil {
			return err
		}
		several := len(protocols) > 1
		jsonPath := evalOutputPath(f.out, p, several)
		mdPath := evalReplaceExt(jsonPath, ".md")
		if f.md != "" {
			mdPath = evalOutputPath(f.md, p, several)
		}
		if err := eval.WriteJSON(jsonPath, res); err != nil {
			return err
		}
		if err := eval.WriteMarkdown(mdPath, res); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "omnihsr eval: %s protocol: %d scenes, %d records in %.1f s -> %s, %s\n",
			p, len(res.Scenes), len(res.Records), float64(res.WallSeconds), jsonPath, mdPath)
	}
	return nil
}

// runReport is `omnihsr eval -report DIR`.
func (f *evalOpts) runReport(ctx context.Context, e env) error {
	fs := e.fs
	var conflict []string
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "methods", "protocol", "factors", "out", "md", "noise", "noise-model", "blur", "area", "kappa", "seed", "workers", "resamples", "bootstrap-seed":
			conflict = append(conflict, "-"+fl.Name)
		}
	})
	if len(conflict) > 0 {
		return usagef("-report runs its own fixed set of experiments; it does not take %s", strings.Join(conflict, ", "))
	}
	weights, meta := report.EmbeddedWeights, json.RawMessage(model.DefaultMeta())
	var m *model.Model
	var err error
	if f.weights == "" {
		m, err = model.Default()
	} else {
		// One read gives the weights and the training metadata.
		var ck *nn.CheckpointFile
		if ck, err = nn.ReadCheckpoint(f.weights); err == nil {
			m, err = model.FromCheckpoint(ck)
			weights, meta = "`"+filepath.Base(f.weights)+"`", ck.Meta
		}
	}
	if err != nil {
		return err
	}
	scenes, err := f.evalSceneFlags.load(fs)
	if err != nil {
		return err
	}
	positions := filepath.Join(f.report, "positions.json")
	if _, err := os.Stat(positions); err != nil {
		positions = ""
	}
	// The whole-scene row runs this binary beside gdal_translate, when
	// both are found.
	exe, _ := os.Executable()
	gdal, _ := exec.LookPath("gdal_translate")
	_, err = report.Generate(ctx, report.Options{
		Dir: f.report, Positions: positions, Model: m, Weights: weights, Meta: meta, Scenes: scenes,
		Command: evalCommandLine(fs), SkipBench: f.noBench, SceneExe: exe, SceneGDAL: gdal,
		Log: e.stderr, Progress: terminal(e.stderr),
	})
	return err
}

// evalMethods looks up the named methods of package method (given by the
// flag flagName) as evaluation methods, loading the model of weights (the
// embedded one when "") once, and only when a method runs it.
func evalMethods(flagName string, names []string, weights string) ([]eval.Method, error) {
	var m *model.Model
	var out []eval.Method
	for _, n := range names {
		mt, err := method.Lookup(n)
		if err != nil {
			return nil, usagef("%s: %v", flagName, err)
		}
		if mt.Model && m == nil {
			if m, err = loadModel(weights); err != nil {
				return nil, err
			}
		}
		em, err := eval.Of(mt, m)
		if err != nil {
			return nil, err
		}
		out = append(out, em)
	}
	return out, nil
}
