package ablation

import (
	"context"
	"fmt"
	"io"
	"math"
	"regexp"

	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/jsonfmt"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/nn"
	"github.com/omnihsr/omnihsr/internal/train"
)

// Run is one trained model of the ablation.
type Run struct {
	Name    string     `json:"name"`
	File    string     `json:"file"`
	Variant string     `json:"variant"`
	Output  string     `json:"output_path"`
	Params  int        `json:"params"`
	Meta    train.Meta `json:"training"`
	// Model is the loaded model (not part of the JSON).
	Model *model.Model `json:"-"`
}

// Result is what `omnihsr ablation` writes as JSON: the runs and every
// per-image figure of the evaluation, without timings.
type Result struct {
	Command string       `json:"command"`
	Runs    []Run        `json:"runs"`
	Result  *eval.Result `json:"result"`
}

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)

// ValidName reports whether name can label a run: letters, digits, '.',
// '_', '+' and '-', starting with a letter or digit.
func ValidName(name string) bool { return namePattern.MatchString(name) }

// Load reads the weight file path (with its training metadata) as the run
// called name.
func Load(name, path string) (Run, error) {
	f, err := nn.ReadCheckpoint(path)
	if err != nil {
		return Run{}, err
	}
	m, err := model.FromCheckpoint(f)
	if err != nil {
		return Run{}, err
	}
	md, err := train.ReadMeta(f.Meta)
	if err != nil {
		return Run{}, fmt.Errorf("%s: %w", path, err)
	}
	return Run{Name: name, File: path, Variant: model.VariantLabel(m.Cfg.Variant),
		Output: model.VariantDescription(m.Cfg.Variant), Params: m.NumParams(), Meta: md, Model: m}, nil
}

// Config configures Score.
type Config struct {
	Factors  []float64     // the factors of the seven-dataset protocol to run
	Geometry eval.Geometry // as eval.Config
	TileSize int
	CropSize int
	Workers  int
	Progress io.Writer // as eval.Config.Progress (nil = quiet)
	Command  string    // the command line recorded in the outputs
}

// Score runs the seven-dataset protocol with bicubic and every run (a
// method labelled with the run's name) on scenes, and drops the timings so
// that the result is deterministic.
func Score(ctx context.Context, scenes []*eval.Scene, runs []Run, cfg Config) (*Result, error) {
	methods := []eval.Method{eval.Bicubic{}}
	for _, r := range runs {
		if r.Model == nil {
			return nil, fmt.Errorf("ablation: run %s has no model", r.Name)
		}
		methods = append(methods, eval.MethodFunc{Label: r.Name, Fn: r.Model.Upscale})
	}
	res, err := eval.Run(ctx, scenes, eval.Config{
		Protocol: eval.ProtocolSeven, Factors: cfg.Factors, Methods: methods,
		Geometry: cfg.Geometry, TileSize: cfg.TileSize, CropSize: cfg.CropSize,
		Workers: cfg.Workers, Progress: cfg.Progress, Command: cfg.Command,
	})
	if err != nil {
		return nil, err
	}
	dropTimings(res)
	return &Result{Command: cfg.Command, Runs: runs, Result: res}, nil
}

// dropTimings removes the wall-time figures (null in the JSON).
func dropTimings(res *eval.Result) {
	nan := eval.Num(math.NaN())
	res.WallSeconds = nan
	for i := range res.Records {
		res.Records[i].MS = nan
	}
	for i := range res.Summaries {
		res.Summaries[i].MS = nan
	}
}

// JSON encodes r in the layout of the project's result files
// (internal/jsonfmt).
func (r *Result) JSON() ([]byte, error) {
	b, err := jsonfmt.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("ablation: encode JSON: %w", err)
	}
	return b, nil
}
