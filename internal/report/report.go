package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/omnihsr/omnihsr/internal/atomicfile"
	"github.com/omnihsr/omnihsr/internal/bench"
	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/model"
)

// Options configures Generate.
type Options struct {
	// Dir receives results.md and the folder results/ (JSON and PNG).
	Dir string
	// Model is the model under evaluation; Weights describes where it came
	// from ("the embedded default model" or a file name).
	Model   *model.Model
	Weights string
	// Meta is the training metadata stored with the weights (train.Meta as
	// JSON; model.DefaultMeta for the embedded model), nil when unknown.
	Meta json.RawMessage
	// Scenes are the evaluation scenes (the "eval" split of scenes.tsv).
	Scenes []*eval.Scene
	// Positions is the JSON of the M study (`omnihsr ablation` over runs
	// that differ only in M), "" when there is none.
	Positions string
	// Command is the command line printed as the way to regenerate.
	Command string
	// Bench is the latency table's configuration (zero value = the
	// paper's); SkipBench leaves the latency table out (tests).
	Bench     bench.Config
	SkipBench bool
	// SceneExe is the omnihsr binary that the whole-scene row runs as a
	// child process beside GDAL (SceneGDAL, gdal_translate's path); the row
	// is left out when either is "" or SkipBench is set. The children use
	// the embedded default model, so a report of other weights leaves it
	// out too.
	SceneExe, SceneGDAL string
	// Log receives one line per step (nil = quiet); Progress receives the
	// redrawn progress lines of the evaluation runs (eval.Config.Progress;
	// nil = quiet).
	Log      io.Writer
	Progress io.Writer
}

// Results is everything a report is made of; Generate writes it as JSON
// beside the Markdown.
type Results struct {
	Twelve  *eval.Result        `json:"twelve"`
	Seven   *eval.Result        `json:"seven"`
	BandDef *eval.BandDefResult `json:"banddef"`
	Degrade []DegradeRun        `json:"degrade"`
	// SensorNoise is the degradation table's protocol under the
	// sensor-like noises of sensorNoiseCases.
	SensorNoise []DegradeRun  `json:"sensor_noise,omitempty"`
	Kappa       []DegradeRun  `json:"kappa"`
	Bench       *bench.Result `json:"bench,omitempty"`
	// Scene is the whole-scene row: SceneDims upscaled at SceneFactors by
	// GDAL, bicubic and the model, each a child process (bench.Scene).
	Scene   []bench.SceneRow `json:"scene,omitempty"`
	Figures *FigureStats     `json:"figures"`
	Model   map[string]any   `json:"model"`
	// Ensemble is the twelve-factor and seven-dataset protocol with the
	// self-ensemble over the 8 flips and rotations (method "omnihsr-se").
	Ensemble *OptionRuns `json:"ensemble"`
	// BackProject is the same with model.BackProjectSteps of
	// back-projection (method "omnihsr-bp"), plus the degradations of
	// backProjectCases, where the projection can hurt.
	BackProject *OptionRuns `json:"backproject"`
	// Adapt is the adaptation pass (RunAdapt): the protocols with and
	// without per-scene adaptation.
	Adapt *AdaptRuns `json:"adapt,omitempty"`
}

// OptionRuns are the protocols run with one test-time option of the model.
type OptionRuns struct {
	Twelve  *eval.Result `json:"twelve"`
	Seven   *eval.Result `json:"seven"`
	Degrade []DegradeRun `json:"degrade,omitempty"`
}

// DegradeRun is one evaluation under a test-time degradation.
type DegradeRun struct {
	Label  string       `json:"label"`
	Result *eval.Result `json:"result"`
}

// degradeCase is one row of the paper's Table "test-time degradations".
type degradeCase struct {
	Label string
	Deg   eval.Degradation
}

var degradeCases = []degradeCase{
	{"Noise sigma=0.01", eval.Degradation{Noise: 0.01}},
	{"Noise sigma=0.02", eval.Degradation{Noise: 0.02}},
	{"Noise sigma=0.03", eval.Degradation{Noise: 0.03}},
	{"Blur 0.25s", eval.Degradation{Blur: 0.25}},
	{"Blur 0.40s", eval.Degradation{Blur: 0.40}},
	{"Blur 0.55s", eval.Degradation{Blur: 0.55}},
	{"Area", eval.Degradation{Area: true}},
}

// sensorNoiseCases are the sensor-like noises of section 4's second table
// (eval.NoiseModels): signal-dependent shot and read noise, a VNIR/SWIR
// imaging spectrometer's per-band noise profile and pushbroom striping.
var sensorNoiseCases = []degradeCase{
	{"Shot + read 0.01", eval.Degradation{Noise: 0.01, NoiseModel: "shot"}},
	{"Shot + read 0.02", eval.Degradation{Noise: 0.02, NoiseModel: "shot"}},
	{"VNIR/SWIR profile 0.01", eval.Degradation{Noise: 0.01, NoiseModel: "profile"}},
	{"VNIR/SWIR profile 0.02", eval.Degradation{Noise: 0.02, NoiseModel: "profile"}},
	{"Striping 0.01", eval.Degradation{Noise: 0.01, NoiseModel: "stripes"}},
}

// backProjectCases are the degradations the back-projection is also run
// under (noise 0.01 and blur 0.40s, rows 0 and 4 of degradeCases; the
// report pairs them with the plain model's rows by label): it copies the
// input's noise back into the output.
var backProjectCases = []degradeCase{degradeCases[0], degradeCases[4]}

// Kappas are the band-dependent blur strengths of the paper's Table "Blur
// that grows along the spectrum" (0 is the clean seven-protocol run).
var Kappas = []float64{0.25, 0.5}

// DegradeFactors are the factors of the degradation table.
var DegradeFactors = []float64{4, 8}

// Generate runs every experiment of the report on the scenes and writes
// Dir/results.md, Dir/results/*.json and Dir/results/*.png. Every figure
// in it comes from this run; only the latency table (and the timing
// fields of the JSON files) change between runs on the same machine.
func Generate(ctx context.Context, opt Options) (*Results, error) {
	if opt.Model == nil {
		return nil, errors.New("report: no model")
	}
	if len(opt.Scenes) == 0 {
		return nil, errors.New("report: no scenes")
	}
	if opt.Dir == "" {
		return nil, errors.New("report: no output folder")
	}
	sub := filepath.Join(opt.Dir, "results")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	logf := func(format string, a ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "report: "+format+"\n", a...)
		}
	}
	// The model and its two test-time options, from the method registry.
	var meth, ensemble, backProject eval.Method
	for _, m := range []struct {
		name string
		dst  *eval.Method
	}{{"omnihsr", &meth}, {"omnihsr-se", &ensemble}, {"omnihsr-bp", &backProject}} {
		var err error
		if *m.dst, err = eval.Named(m.name, opt.Model); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
	}
	runWith := func(m eval.Method, protocol string, factors []float64, deg eval.Degradation) (*eval.Result, error) {
		t0 := time.Now()
		res, err := eval.Run(ctx, opt.Scenes, eval.Config{Protocol: protocol, Factors: factors,
			Methods: []eval.Method{m}, Degradation: deg, Progress: opt.Progress, Command: opt.Command})
		if err != nil {
			return nil, fmt.Errorf("report: %s protocol (%s): %w", protocol, deg.String(), err)
		}
		logf("%s, %s protocol, %s: %d records in %.1f s", m.Name(), protocol, deg.String(), len(res.Records), time.Since(t0).Seconds())
		return res, nil
	}
	run := func(protocol string, factors []float64, deg eval.Degradation) (*eval.Result, error) {
		return runWith(meth, protocol, factors, deg)
	}
	// degraded runs the degradation table's factors under each case.
	degraded := func(m eval.Method, cases []degradeCase) ([]DegradeRun, error) {
		var out []DegradeRun
		for _, c := range cases {
			res, err := runWith(m, eval.ProtocolTwelve, DegradeFactors, c.Deg)
			if err != nil {
				return nil, err
			}
			out = append(out, DegradeRun{c.Label, res})
		}
		return out, nil
	}
	r := &Results{Model: modelInfo(opt)}
	var err error
	if r.Twelve, err = run(eval.ProtocolTwelve, nil, eval.Degradation{}); err != nil {
		return nil, err
	}
	if r.Seven, err = run(eval.ProtocolSeven, nil, eval.Degradation{}); err != nil {
		return nil, err
	}
	if r.Degrade, err = degraded(meth, degradeCases); err != nil {
		return nil, err
	}
	if r.SensorNoise, err = degraded(meth, sensorNoiseCases); err != nil {
		return nil, err
	}
	for _, k := range Kappas {
		res, err := run(eval.ProtocolSeven, []float64{4}, eval.Degradation{Kappa: k})
		if err != nil {
			return nil, err
		}
		r.Kappa = append(r.Kappa, DegradeRun{fmt.Sprintf("kappa=%g", k), res})
	}
	options := func(m eval.Method, cases []degradeCase) (*OptionRuns, error) {
		o := &OptionRuns{}
		var err error
		if o.Twelve, err = runWith(m, eval.ProtocolTwelve, nil, eval.Degradation{}); err != nil {
			return nil, err
		}
		if o.Seven, err = runWith(m, eval.ProtocolSeven, nil, eval.Degradation{}); err != nil {
			return nil, err
		}
		if o.Degrade, err = degraded(m, cases); err != nil {
			return nil, err
		}
		return o, nil
	}
	if r.Ensemble, err = options(ensemble, nil); err != nil {
		return nil, err
	}
	if r.BackProject, err = options(backProject, backProjectCases); err != nil {
		return nil, err
	}
	if r.Adapt, err = RunAdapt(ctx, opt, nil, nil, nil); err != nil {
		return nil, err
	}
	t0 := time.Now()
	if r.BandDef, err = eval.BandRedefinition(ctx, opt.Scenes, meth, eval.BandDefConfig{Factor: 4}); err != nil {
		return nil, fmt.Errorf("report: band redefinition: %w", err)
	}
	logf("band redefinition in %.1f s", time.Since(t0).Seconds())
	t0 = time.Now()
	if r.Figures, err = makeFigures(opt, sub); err != nil {
		return nil, err
	}
	logf("figures in %.1f s", time.Since(t0).Seconds())
	if !opt.SkipBench {
		t0 = time.Now()
		if r.Bench, err = bench.Run(ctx, opt.Model, opt.Bench); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		logf("latency table in %.1f s", time.Since(t0).Seconds())
		if opt.SceneExe != "" && opt.SceneGDAL != "" && opt.Weights == EmbeddedWeights {
			t0 = time.Now()
			if r.Scene, err = runScene(ctx, opt); err != nil {
				return nil, err
			}
			logf("whole-scene row in %.1f s", time.Since(t0).Seconds())
		}
	}
	if err := writeJSONFiles(sub, r); err != nil {
		return nil, err
	}
	md := Markdown(r, opt)
	if err := writeBytes(filepath.Join(opt.Dir, "results.md"), md); err != nil {
		return nil, err
	}
	logf("wrote %s", filepath.Join(opt.Dir, "results.md"))
	return r, nil
}

// modelInfo is what the report says about the model: parameters and the
// training metadata stored in the weight file.
func modelInfo(opt Options) map[string]any {
	info := map[string]any{"weights": opt.Weights, "params": opt.Model.NumParams(), "variant": opt.Model.Cfg.Variant}
	if len(opt.Meta) > 0 {
		var meta map[string]any
		if json.Unmarshal(opt.Meta, &meta) == nil {
			info["training"] = meta
		}
	}
	return info
}

func writeJSONFiles(dir string, r *Results) error {
	type file struct {
		name string
		v    any
	}
	files := []file{
		{"twelve.json", r.Twelve},
		{"seven.json", r.Seven},
		{"banddef.json", r.BandDef},
		{"degrade.json", r.Degrade},
		{"sensor_noise.json", r.SensorNoise},
		{"kappa.json", r.Kappa},
		{"figures.json", r.Figures},
		{"ensemble.json", r.Ensemble},
		{"backproject.json", r.BackProject},
	}
	if r.Adapt != nil {
		files = append(files, file{"adapt.json", r.Adapt})
	}
	if r.Bench != nil {
		files = append(files, file{"bench.json", r.Bench})
	}
	if r.Scene != nil {
		files = append(files, file{"scene.json", r.Scene})
	}
	for _, f := range files {
		if err := eval.WriteJSONValue(filepath.Join(dir, f.name), f.v); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	return nil
}

// ReadResults reads the JSON files that Generate wrote into dir (the folder
// results/ of the report's folder), as TestCommittedReport and
// scripts/adapteval render results.md again from them; every file must be
// there but adapt.json, bench.json and scene.json (their fields stay nil).
// The model's description (Results.Model) is not among them.
func ReadResults(dir string) (*Results, error) {
	r := &Results{}
	for _, f := range []struct {
		name     string
		v        any
		optional bool
	}{
		{"twelve.json", &r.Twelve, false}, {"seven.json", &r.Seven, false}, {"banddef.json", &r.BandDef, false},
		{"degrade.json", &r.Degrade, false}, {"sensor_noise.json", &r.SensorNoise, false}, {"kappa.json", &r.Kappa, false},
		{"figures.json", &r.Figures, false}, {"ensemble.json", &r.Ensemble, false}, {"backproject.json", &r.BackProject, false},
		{"bench.json", &r.Bench, true}, {"scene.json", &r.Scene, true}, {"adapt.json", &r.Adapt, true},
	} {
		b, err := os.ReadFile(filepath.Join(dir, f.name))
		if errors.Is(err, fs.ErrNotExist) && f.optional {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		if err := json.Unmarshal(b, f.v); err != nil {
			return nil, fmt.Errorf("report: %s: %w", filepath.Join(dir, f.name), err)
		}
	}
	return r, nil
}

// WriteAdapt writes the adaptation pass as dir/adapt.json (dir: the
// folder results/ of the report's folder).
func WriteAdapt(dir string, a *AdaptRuns) error {
	if err := eval.WriteJSONValue(filepath.Join(dir, "adapt.json"), a); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// WriteMarkdown writes Markdown(r, opt) as dir/results.md, atomically,
// describing the model of opt when r.Model is nil.
func WriteMarkdown(dir string, r *Results, opt Options) error {
	if r.Model == nil {
		r.Model = modelInfo(opt)
	}
	return writeBytes(filepath.Join(dir, "results.md"), Markdown(r, opt))
}

func writeBytes(path string, b []byte) error {
	err := atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// relPath is path relative to dir when it lies below it, else path.
func relPath(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(path)
}

// EmbeddedWeights is Options.Weights for the embedded default model.
const EmbeddedWeights = "the embedded default model"

// The whole-scene row: a synthetic float32 ENVI scene of SceneDims, ENVI
// out, at SceneFactors, one run of each command.
var (
	SceneDims    = [3]int{512, 512, 102}
	SceneFactors = []float64{2, 4}
)

// runScene runs the whole-scene row in a scratch directory it removes.
func runScene(ctx context.Context, opt Options) ([]bench.SceneRow, error) {
	dir, err := os.MkdirTemp("", "omnihsr-report-scene-")
	if err != nil {
		return nil, fmt.Errorf("report: whole-scene row: %w", err)
	}
	defer os.RemoveAll(dir)
	rows, err := bench.Scene(ctx, bench.SceneConfig{H: SceneDims[0], W: SceneDims[1], B: SceneDims[2], Factors: SceneFactors,
		Exe: opt.SceneExe, GDAL: opt.SceneGDAL, Dir: dir, Runs: 1})
	if err != nil {
		return nil, fmt.Errorf("report: whole-scene row: %w", err)
	}
	return rows, nil
}
