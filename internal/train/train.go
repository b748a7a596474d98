package train

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/omnihsr/omnihsr/gemm"
	"github.com/omnihsr/omnihsr/internal/loss"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/nn"
	"github.com/omnihsr/omnihsr/internal/progress"
	"github.com/omnihsr/omnihsr/resample"
)

// Options configure a training run.
type Options struct {
	Model    model.Config
	Steps    int     // total optimizer steps (the schedule's length)
	Batch    int     // samples per step
	LR       float64 // base learning rate (2e-4), halved at 30/60/80%
	Seed     uint64
	Sample   SampleOptions
	Loss     loss.Weights
	ClipNorm float64 // gradient-norm clip (0 = none)

	OutDir          string        // checkpoint.ckpt, best.omw, last.omw, log.csv
	CheckpointEvery time.Duration // wall time between checkpoints
	ValEvery        int           // steps between validations (0 = never)
	Resume          bool          // continue from OutDir/checkpoint.ckpt
	// StopAt ends Run after this step (0 = at Steps) with a checkpoint and
	// last.omw, the schedule still that of Steps, so that -resume later
	// continues exactly: the weights of any step of a run, reproducibly.
	StopAt int
	// SnapshotEvery also writes the weights every SnapshotEvery steps to
	// OutDir/snapshots/step-NNNNNNN.omw (0 = never), to choose among the
	// steps of a run afterwards.
	SnapshotEvery int
	// Init starts a new run from the weights of a weight file (*.omw) instead
	// of a fresh initialisation (fine-tuning; fresh optimizer and schedule).
	// Its architecture replaces Model.
	Init string
	Log  io.Writer // human log lines (nil = none)
	// Progress receives a redrawn progress line with ETA and the loss
	// (nil = none; give it a terminal).
	Progress io.Writer
}

// DefaultOptions are the settings of the shipped model's run.
func DefaultOptions() Options {
	return Options{
		Model: model.DefaultConfig(),
		Steps: 20000, Batch: 2, LR: 2e-4, Seed: 2026,
		Sample:          SampleOptions{Patch: 96, MinScale: 1.5, MaxScale: 8, HSIProb: 0.3, BandSubset: 0.5},
		Loss:            loss.Paper,
		ClipNorm:        1,
		CheckpointEvery: 5 * time.Minute,
		ValEvery:        500,
	}
}

// Meta is the training metadata stored in checkpoints and weight files
// (the Meta of nn.Checkpoint; read it back with ReadMeta).
type Meta struct {
	Trained     bool         `json:"trained"`
	Variant     string       `json:"variant,omitempty"` // model.Config.Variant ("" = OmniHSR)
	Step        int          `json:"step"`
	Steps       int          `json:"steps"`
	Batch       int          `json:"batch"`
	Patch       int          `json:"patch"`
	PatchMin    int          `json:"patch_min,omitempty"`
	Init        *Lineage     `json:"init,omitempty"` // the weights a fine-tune started from
	Scales      [2]float64   `json:"scales"`
	HSIProb     float64      `json:"hsi_prob"`
	BandSubset  float64      `json:"band_subset"`
	NaturalOnly bool         `json:"natural_only"`
	LR          float64      `json:"lr"`
	Loss        loss.Weights `json:"loss"`
	Seed        uint64       `json:"seed"`
	WallSeconds float64      `json:"wall_seconds"`
	Machine     string       `json:"machine"`
	GEMM        string       `json:"gemm"`
	Truncation  string       `json:"truncation"`
	Params      int          `json:"params"`
	// Noise is the training-input noise (nil: clean inputs only).
	Noise   *NoiseMeta     `json:"noise,omitempty"`
	Val     *ValResult     `json:"val,omitempty"`
	History []ValResult    `json:"history,omitempty"`
	Extra   map[string]any `json:"extra,omitempty"`
}

// NoiseMeta records the synthetic noise of a run's training inputs.
type NoiseMeta struct {
	Prob  float64 `json:"prob"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Input bool    `json:"input"` // the model takes the noise feature
}

// ValResult is one validation pass.
type ValResult struct {
	Step        int     `json:"step"`
	PSNR        float64 `json:"psnr"`
	BicubicPSNR float64 `json:"bicubic_psnr"`
	Gain        float64 `json:"gain"`
	SAM         float64 `json:"sam"`
	BicubicSAM  float64 `json:"bicubic_sam"`
	// Noisy is the same on the noisy validation samples (Dataset.NoisyVal),
	// nil when there are none.
	Noisy *ValResult `json:"noisy,omitempty"`
}

// score is what best.omw is chosen by: the clean gain, plus the noisy gain
// when the run validates on noisy samples too.
func (v ValResult) score() float64 {
	if v.Noisy != nil {
		return v.Gain + v.Noisy.Gain
	}
	return v.Gain
}

// trainerState is the opaque Extra of a checkpoint: everything beyond the
// weights and Adam that a resumed run needs to continue exactly.
type trainerState struct {
	RNG  []byte  `json:"rng"`
	Step int     `json:"step"`
	Wall float64 `json:"wall"`
	// BestGain is the best validation gain so far; null before the first
	// validation (its in-memory value, -Inf, has no JSON form).
	BestGain *float64    `json:"best_gain"`
	History  []ValResult `json:"history"`
}

// Trainer runs the training loop.
type Trainer struct {
	opt     Options
	data    *Dataset
	m       *model.Model
	adam    *nn.Adam
	sched   nn.StepSchedule
	pcg     *rand.PCG
	rng     *rand.Rand
	step    int
	wall    float64
	best    float64
	hist    []ValResult
	arena   *nn.Arena
	natOnly bool
	init    *Lineage // the weights the run started from (-init), nil for a fresh model
}

// Lineage records the weights a fine-tune started from: the file, the
// steps and wall time of its own training, and, recursively, where that
// run started.
type Lineage struct {
	File        string   `json:"file"`
	Steps       int      `json:"steps"`
	WallSeconds float64  `json:"wall_seconds"`
	Init        *Lineage `json:"init,omitempty"`
}

// NewTrainer builds a fresh model or resumes from OutDir/checkpoint.ckpt.
func NewTrainer(opt Options, data *Dataset, naturalOnly bool) (*Trainer, error) {
	if opt.Steps < 1 || opt.Batch < 1 {
		return nil, fmt.Errorf("train: steps %d and batch %d must be positive", opt.Steps, opt.Batch)
	}
	if opt.StopAt < 0 || opt.StopAt > opt.Steps {
		return nil, fmt.Errorf("train: stop at step %d: want 0 (the end) to %d steps", opt.StopAt, opt.Steps)
	}
	if opt.SnapshotEvery < 0 {
		return nil, fmt.Errorf("train: snapshot every %d steps: want 0 (never) or more", opt.SnapshotEvery)
	}
	if opt.OutDir == "" {
		return nil, fmt.Errorf("train: no output directory")
	}
	if err := os.MkdirAll(opt.OutDir, 0o755); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	t := &Trainer{opt: opt, data: data, sched: nn.PaperSchedule(opt.Steps), best: math.Inf(-1), arena: nn.NewArena(), natOnly: naturalOnly}
	t.sched.Base = opt.LR
	t.pcg = rand.NewPCG(opt.Seed, 0x7a1e)
	t.rng = rand.New(t.pcg)
	ck := filepath.Join(opt.OutDir, "checkpoint.ckpt")
	if opt.Resume {
		f, err := nn.ReadCheckpoint(ck)
		if err != nil {
			return nil, fmt.Errorf("train: resume: %w", err)
		}
		m, err := model.FromCheckpoint(f)
		if err != nil {
			return nil, err
		}
		if m.Cfg.NoiseInput != opt.Model.NoiseInput {
			return nil, fmt.Errorf("train: resume %s: the checkpoint's noise input is %v, this run asks for %v", ck, m.Cfg.NoiseInput, opt.Model.NoiseInput)
		}
		if m.Cfg.Variant != opt.Model.Variant {
			return nil, fmt.Errorf("train: resume %s: the checkpoint is variant %q, this run asks for %q", ck, model.VariantLabel(m.Cfg.Variant), model.VariantLabel(opt.Model.Variant))
		}
		t.m = m
		t.adam = nn.NewAdam(m.Params())
		if err := f.LoadAdam(t.adam); err != nil {
			return nil, err
		}
		var st trainerState
		if err := json.Unmarshal(f.Extra, &st); err != nil {
			return nil, fmt.Errorf("train: resume %s: trainer state: %w", ck, err)
		}
		if err := t.pcg.UnmarshalBinary(st.RNG); err != nil {
			return nil, fmt.Errorf("train: resume %s: rng: %w", ck, err)
		}
		t.step, t.wall, t.hist = st.Step, st.Wall, st.History
		if md, err := ReadMeta(f.Meta); err == nil {
			t.init = md.Init
		}
		if st.BestGain != nil {
			t.best = *st.BestGain
		}
		if opt.StopAt > 0 && opt.StopAt <= t.step {
			return nil, fmt.Errorf("train: resume %s: stop at step %d, but the run is at step %d already", ck, opt.StopAt, t.step)
		}
		t.logf("resumed %s at step %d", ck, t.step)
		return t, nil
	}
	var m *model.Model
	var err error
	if opt.Init != "" {
		m, err = model.Load(opt.Init)
		if err == nil && m.Cfg.Variant != opt.Model.Variant {
			err = fmt.Errorf("train: -init %s is a %q model, the run asks for %q", opt.Init, m.Cfg.Variant, opt.Model.Variant)
		}
		if err == nil && opt.Model.NoiseInput && !m.Cfg.NoiseInput {
			t.logf("widening the FiLM input of %s by the noise feature (zero weights)", opt.Init)
			m, err = m.WithNoiseInput()
		}
		if err == nil {
			t.logf("starting from the weights of %s", opt.Init)
			t.init, err = lineageOf(opt.Init)
		}
	} else {
		m, err = model.New(opt.Model, opt.Seed)
	}
	if err != nil {
		return nil, err
	}
	t.m = m
	t.adam = nn.NewAdam(m.Params())
	return t, nil
}

// lineageOf reads the training metadata of the weight file path.
func lineageOf(path string) (*Lineage, error) {
	f, err := nn.ReadCheckpoint(path)
	if err != nil {
		return nil, fmt.Errorf("train: -init: %w", err)
	}
	md, err := ReadMeta(f.Meta)
	if err != nil {
		return nil, fmt.Errorf("train: -init %s: %w", path, err)
	}
	return &Lineage{File: path, Steps: md.Step, WallSeconds: md.WallSeconds, Init: md.Init}, nil
}

// Model returns the model being trained.
func (t *Trainer) Model() *model.Model { return t.m }

// Step returns the number of optimizer steps taken.
func (t *Trainer) Step() int { return t.step }

func (t *Trainer) logf(format string, a ...any) {
	if t.opt.Log != nil {
		fmt.Fprintf(t.opt.Log, format+"\n", a...)
	}
}

// StepResult is what one optimizer step reports.
type StepResult struct {
	Loss     loss.Parts
	GradNorm float64
	LR       float64
}

// TrainStep draws a batch, computes the loss and its gradient through
// COFR and the network, and applies one Adam update.
func (t *Trainer) TrainStep() (StepResult, error) {
	var res StepResult
	t.adam.ZeroGrad()
	for i := 0; i < t.opt.Batch; i++ {
		smp, err := t.data.Draw(t.rng, t.opt.Sample)
		if err != nil {
			return res, err
		}
		parts, err := t.accumulate(smp, 1/float32(t.opt.Batch))
		if err != nil {
			return res, fmt.Errorf("train: step %d, sample %s: %w", t.step, smp.Name, err)
		}
		res.Loss.Total += parts.Total / float64(t.opt.Batch)
		res.Loss.Charbonnier += parts.Charbonnier / float64(t.opt.Batch)
		res.Loss.Consistency += parts.Consistency / float64(t.opt.Batch)
		res.Loss.Angle += parts.Angle / float64(t.opt.Batch)
		res.Loss.Curvature += parts.Curvature / float64(t.opt.Batch)
	}
	if t.opt.ClipNorm > 0 {
		res.GradNorm = nn.ClipGradNorm(t.m.Params(), t.opt.ClipNorm)
	}
	res.LR = t.sched.LR(t.step)
	t.adam.Step(res.LR)
	t.step++
	return res, nil
}

// accumulate adds scale * dLoss/dparams of one sample to the gradients.
func (t *Trainer) accumulate(smp *Sample, scale float32) (loss.Parts, error) {
	g := nn.NewGraph(true).WithArena(t.arena)
	defer g.Release()
	z, err := t.m.Input(smp.LR)
	if err != nil {
		return loss.Parts{}, err
	}
	feat := t.m.Encode(g, z)
	var nf float64
	if t.m.Cfg.NoiseInput {
		nz, err := t.m.NoiseLevel(smp.LR, nil)
		if err != nil {
			return loss.Parts{}, err
		}
		nf = nz.Feature
	}
	raw := t.m.HeadRaw(g, feat, smp.Scale, nf)
	out, err := t.m.NewOutput(smp.LR, raw.Data, smp.HR.H, smp.HR.W)
	if err != nil {
		return loss.Parts{}, err
	}
	y, err := out.Render()
	if err != nil {
		return loss.Parts{}, err
	}
	parts, dy, err := loss.Compute(y, smp.HR, smp.CleanLR(), t.opt.Loss)
	if err != nil {
		return loss.Parts{}, err
	}
	if scale != 1 {
		for i := range dy {
			dy[i] *= scale
		}
	}
	draw, err := out.Backward(dy)
	if err != nil {
		return loss.Parts{}, err
	}
	g.BackwardFrom(map[*nn.Tensor][]float32{raw: draw})
	return parts, nil
}

// Validate scores the model and bicubic on the fixed validation samples:
// mean PSNR and SAM on outputs clipped to [0, 1].
func Validate(m *model.Model, val []*Sample) (ValResult, error) {
	var v ValResult
	if len(val) == 0 {
		return v, fmt.Errorf("train: no validation samples")
	}
	for _, s := range val {
		y, err := m.Upscale(s.LR, s.HR.H, s.HR.W)
		if err != nil {
			return v, fmt.Errorf("train: validate %s: %w", s.Name, err)
		}
		b, err := resample.Upsample(s.LR, s.HR.H, s.HR.W)
		if err != nil {
			return v, err
		}
		ps, sam, err := loss.Score(s.HR, y)
		if err != nil {
			return v, err
		}
		pb, samb, err := loss.Score(s.HR, b)
		if err != nil {
			return v, err
		}
		v.PSNR += ps
		v.BicubicPSNR += pb
		v.SAM += sam
		v.BicubicSAM += samb
	}
	n := float64(len(val))
	v.PSNR /= n
	v.BicubicPSNR /= n
	v.SAM /= n
	v.BicubicSAM /= n
	v.Gain = v.PSNR - v.BicubicPSNR
	return v, nil
}

func (t *Trainer) meta(val *ValResult) json.RawMessage {
	host, _ := os.Hostname()
	o := t.opt
	md := Meta{
		Trained: t.step > 0, Variant: t.m.Cfg.Variant, Step: t.step, Steps: o.Steps, Batch: o.Batch, Patch: o.Sample.Patch, PatchMin: o.Sample.PatchMin,
		Scales: [2]float64{o.Sample.MinScale, o.Sample.MaxScale}, HSIProb: o.Sample.HSIProb,
		BandSubset: o.Sample.BandSubset, NaturalOnly: t.natOnly, LR: o.LR, Loss: o.Loss, Seed: o.Seed,
		WallSeconds: math.Round(t.wall), Machine: fmt.Sprintf("%s, %d cores, %s/%s", host, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH),
		GEMM: gemm.Backend(), Truncation: fmt.Sprintf("%dx%d primitive neighbourhood", t.m.Cfg.Neighbourhood, t.m.Cfg.Neighbourhood),
		Params: t.m.NumParams(), Val: val, History: t.hist, Init: t.init,
	}
	if o.Sample.NoiseProb > 0 || t.m.Cfg.NoiseInput {
		md.Noise = &NoiseMeta{Prob: o.Sample.NoiseProb, Min: o.Sample.NoiseMin, Max: o.Sample.NoiseMax, Input: t.m.Cfg.NoiseInput}
	}
	b, _ := json.Marshal(md)
	return b
}

// saveSnapshot writes the current weights to
// OutDir/snapshots/step-NNNNNNN.omw, with the latest validation result (if
// any was taken at this step) in the metadata.
func (t *Trainer) saveSnapshot() error {
	dir := filepath.Join(t.opt.OutDir, "snapshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("train: snapshot: %w", err)
	}
	var val *ValResult
	if n := len(t.hist); n > 0 && t.hist[n-1].Step == t.step {
		val = &t.hist[n-1]
	}
	return t.m.Save(filepath.Join(dir, fmt.Sprintf("step-%07d.omw", t.step)), t.meta(val))
}

// SaveCheckpoint writes OutDir/checkpoint.ckpt atomically.
func (t *Trainer) SaveCheckpoint() error {
	st, err := t.pcg.MarshalBinary()
	if err != nil {
		return err
	}
	ts := trainerState{RNG: st, Step: t.step, Wall: t.wall, History: t.hist}
	if !math.IsInf(t.best, 0) && !math.IsNaN(t.best) {
		ts.BestGain = &t.best
	}
	extra, err := json.Marshal(ts)
	if err != nil {
		return fmt.Errorf("train: checkpoint: trainer state: %w", err)
	}
	cfg, _ := json.Marshal(t.m.Cfg)
	ck := nn.Checkpoint{Config: cfg, Meta: t.meta(nil), Extra: extra, Params: t.m.Params(), Opt: t.adam}
	return ck.Save(filepath.Join(t.opt.OutDir, "checkpoint.ckpt"))
}

// Run trains until Steps or until ctx is cancelled (e.g. SIGINT); it always
// leaves a valid checkpoint behind.
func (t *Trainer) Run(ctx context.Context) error {
	logPath := filepath.Join(t.opt.OutDir, "log.csv")
	newLog := t.step == 0
	lf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	defer lf.Close()
	if newLog {
		head := "step,wall_s,lr,loss,charbonnier,consistency,angle,curvature,grad_norm,val_psnr,val_bicubic_psnr,val_gain,val_sam,val_bicubic_sam"
		if len(t.data.NoisyVal) > 0 {
			head += ",noisy_psnr,noisy_bicubic_psnr,noisy_gain,noisy_sam,noisy_bicubic_sam"
		}
		fmt.Fprintln(lf, head)
	}
	end := t.opt.Steps
	if t.opt.StopAt > 0 {
		end = t.opt.StopAt
	}
	bar := progress.NewTo(t.opt.Progress, "train", int64(end), t.opt.Progress != nil)
	bar.Set(int64(t.step))
	lastCk := time.Now()
	start := time.Now()
	wall0 := t.wall
	var acc loss.Parts
	var accN int
	for t.step < end {
		if ctx.Err() != nil {
			break
		}
		res, err := t.TrainStep()
		if err != nil {
			t.SaveCheckpoint()
			return err
		}
		if math.IsNaN(res.Loss.Total) || math.IsInf(res.Loss.Total, 0) {
			return fmt.Errorf("train: loss is %v at step %d; checkpoint left at the last good state", res.Loss.Total, t.step)
		}
		t.wall = wall0 + time.Since(start).Seconds()
		acc.Total += res.Loss.Total
		acc.Charbonnier += res.Loss.Charbonnier
		acc.Consistency += res.Loss.Consistency
		acc.Angle += res.Loss.Angle
		acc.Curvature += res.Loss.Curvature
		accN++
		bar.SetExtra(fmt.Sprintf("loss %.5f", res.Loss.Total))
		bar.Set(int64(t.step))
		valDue := t.opt.ValEvery > 0 && (t.step%t.opt.ValEvery == 0 || t.step == t.opt.Steps)
		if t.step%50 == 0 || valDue {
			n := float64(accN)
			line := fmt.Sprintf("%d,%.1f,%.3g,%.6f,%.6f,%.6f,%.6f,%.6f,%.4f", t.step, t.wall, res.LR,
				acc.Total/n, acc.Charbonnier/n, acc.Consistency/n, acc.Angle/n, acc.Curvature/n, res.GradNorm)
			if valDue {
				v, err := Validate(t.m, t.data.Val)
				if err != nil {
					return err
				}
				v.Step = t.step
				if len(t.data.NoisyVal) > 0 {
					nv, err := Validate(t.m, t.data.NoisyVal)
					if err != nil {
						return err
					}
					nv.Step = t.step
					v.Noisy = &nv
					t.logf("step %d: noisy val PSNR %.3f dB (bicubic %.3f, gain %+.3f), SAM %.3f (bicubic %.3f)",
						t.step, nv.PSNR, nv.BicubicPSNR, nv.Gain, nv.SAM, nv.BicubicSAM)
				}
				t.hist = append(t.hist, v)
				line += fmt.Sprintf(",%.4f,%.4f,%.4f,%.4f,%.4f", v.PSNR, v.BicubicPSNR, v.Gain, v.SAM, v.BicubicSAM)
				if nv := v.Noisy; nv != nil {
					line += fmt.Sprintf(",%.4f,%.4f,%.4f,%.4f,%.4f", nv.PSNR, nv.BicubicPSNR, nv.Gain, nv.SAM, nv.BicubicSAM)
				}
				t.logf("step %d: val PSNR %.3f dB (bicubic %.3f, gain %+.3f), SAM %.3f (bicubic %.3f)",
					t.step, v.PSNR, v.BicubicPSNR, v.Gain, v.SAM, v.BicubicSAM)
				if v.score() > t.best {
					t.best = v.score()
					if err := t.m.Save(filepath.Join(t.opt.OutDir, "best.omw"), t.meta(&v)); err != nil {
						return err
					}
				}
			} else {
				line += ",,,,,"
				if len(t.data.NoisyVal) > 0 {
					line += ",,,,,"
				}
			}
			fmt.Fprintln(lf, line)
			acc, accN = loss.Parts{}, 0
		}
		if t.opt.SnapshotEvery > 0 && t.step%t.opt.SnapshotEvery == 0 {
			if err := t.saveSnapshot(); err != nil {
				return err
			}
		}
		if time.Since(lastCk) >= t.opt.CheckpointEvery {
			if err := t.SaveCheckpoint(); err != nil {
				return err
			}
			lastCk = time.Now()
		}
	}
	bar.Done()
	if err := t.SaveCheckpoint(); err != nil {
		return err
	}
	var last *ValResult
	if len(t.hist) > 0 {
		last = &t.hist[len(t.hist)-1]
	}
	if err := t.m.Save(filepath.Join(t.opt.OutDir, "last.omw"), t.meta(last)); err != nil {
		return err
	}
	t.logf("stopped at step %d of %d after %s; checkpoint %s", t.step, t.opt.Steps,
		progress.FormatDuration(time.Duration(t.wall*float64(time.Second))), filepath.Join(t.opt.OutDir, "checkpoint.ckpt"))
	return nil
}

// ReadMeta decodes the training metadata of a weight file or checkpoint
// (nn.CheckpointFile.Meta). Files without metadata give the zero Meta.
func ReadMeta(raw json.RawMessage) (Meta, error) {
	var md Meta
	if len(raw) == 0 {
		return md, nil
	}
	if err := json.Unmarshal(raw, &md); err != nil {
		return md, fmt.Errorf("train: metadata: %w", err)
	}
	return md, nil
}
