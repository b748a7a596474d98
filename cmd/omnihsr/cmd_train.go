package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/omnihsr/omnihsr/gemm"
	"github.com/omnihsr/omnihsr/internal/loss"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/scenes"
	"github.com/omnihsr/omnihsr/internal/train"
)

var trainCmd = &command{
	name:    "train",
	summary: "train OmniHSR on ../shared/data (natural images + hsi/train scenes)",
	usage: `Usage: omnihsr train -out DIR [-steps N] [-resume] [flags]

Trains the OmniHSR model on the natural images of SHARED/data/rgb (an RGB
image is a 3-band sensor, a grey one a 1-band sensor) and the training
scenes of SHARED/data/hsi/scenes.tsv (split "train" only; "eval" scenes are
never read). Every image is normalised by its maximum; random patches get a
random flip/rotation, HSI patches sometimes a random band subset, and a
factor drawn uniformly from [min-scale, max-scale]; the low-res input is the
antialiased bicubic downsampling. Loss: Charbonnier + 0.1 degradation
consistency + 0.1 spectral angle + 0.05 spectral curvature; Adam with the
learning rate halved at 30%, 60% and 80% of the steps.

DIR receives checkpoint.ckpt (every -checkpoint-every and on exit, Ctrl-C
included), best.omw (best validation gain over bicubic), last.omw and
log.csv (losses and validation PSNR). -resume continues a run exactly.
A run stopped before its last step (Ctrl-C, SIGTERM) saves its checkpoint
and exits with status 1, so scripts can tell it from a finished run.
-stop-at N ends the run after step N (status 0) with its checkpoint and
last.omw, the learning-rate schedule still that of -steps, so the weights
of any step are reproducible and -resume goes on from there exactly.
-snapshot-every N also writes the weights of every N-th step to
DIR/snapshots/step-NNNNNNN.omw, to choose among the steps afterwards.

Ablations (paper Table "Ablation"): -variant trains the same
network with another output path: free-kernel (operators without the
zero-sum constraint), lowres (operators applied on the low-res grid, then
bicubic: without COFR), spectral (the head predicts 31 spectral values,
splatted by COFR's normalised weights). -natural-only leaves out the
hyperspectral training scenes. The variant is stored in the weight files;
` + "`omnihsr eval`, `omnihsr upscale` and `omnihsr ablation`" + ` read it from there.`,
	flags: func(fs *flag.FlagSet) runner {
		d := train.DefaultOptions()
		o := &trainOpts{}
		fs.StringVar(&o.out, "out", "", "run directory (required)")
		fs.StringVar(&o.shared, "shared", "", "the shared data directory (default: ../shared beside the module)")
		fs.IntVar(&o.steps, "steps", d.Steps, "total optimizer steps (the schedule's length)")
		fs.IntVar(&o.batch, "batch", d.Batch, "samples per step")
		fs.IntVar(&o.patch, "patch", d.Sample.Patch, "high-resolution patch side")
		fs.IntVar(&o.patchMin, "patch-min", 0, "draw each patch side uniformly from [patch-min, patch] (0 = always -patch)")
		fs.Float64Var(&o.minS, "min-scale", d.Sample.MinScale, "smallest training factor")
		fs.Float64Var(&o.maxS, "max-scale", d.Sample.MaxScale, "largest training factor")
		fs.Float64Var(&o.hsiProb, "hsi-prob", d.Sample.HSIProb, "probability of a hyperspectral training patch")
		fs.Float64Var(&o.bandSub, "band-subset", d.Sample.BandSubset, "probability of a random band subset for a hyperspectral patch")
		fs.Float64Var(&o.lr, "lr", d.LR, "base learning rate")
		fs.Float64Var(&o.wAngle, "loss-angle", d.Loss.Angle, "weight of the spectral-angle term (the paper: 0.1)")
		fs.Float64Var(&o.wCons, "loss-consistency", d.Loss.Consistency, "weight of the degradation-consistency term (the paper: 0.1)")
		fs.Float64Var(&o.wCurv, "loss-curvature", d.Loss.Curvature, "weight of the spectral-curvature term (the paper: 0.05)")
		fs.Float64Var(&o.clip, "clip", d.ClipNorm, "gradient-norm clip (0 = none)")
		fs.Uint64Var(&o.seed, "seed", d.Seed, "random seed")
		fs.IntVar(&o.valEvery, "val-every", d.ValEvery, "steps between validations")
		fs.DurationVar(&o.ckEvery, "checkpoint-every", d.CheckpointEvery, "wall time between checkpoints")
		fs.BoolVar(&o.resume, "resume", false, "continue from DIR/checkpoint.ckpt")
		fs.IntVar(&o.stopAt, "stop-at", 0, "end the run after this step, keeping the schedule of -steps (0 = at -steps)")
		fs.IntVar(&o.snapEvery, "snapshot-every", 0, "also write the weights every N steps to DIR/snapshots (0 = never)")
		fs.StringVar(&o.initW, "init", "", "start from the weights of this file (e.g. internal/model/weights/default.omw) with a fresh optimizer and schedule")
		fs.BoolVar(&o.naturalOnly, "natural-only", false, "train on natural images only (ablation)")
		fs.StringVar(&o.variant, "variant", "", "ablation variant: free-kernel, lowres, spectral (default: OmniHSR)")
		fs.Float64Var(&o.noiseProb, "noise-prob", 0, "probability of synthetic sensor noise on a training input (white, signal-dependent, band profile, striping; 0 = clean inputs only)")
		fs.Float64Var(&o.noiseMin, "noise-min", 0.002, "smallest noise level (data normalised to a maximum of 1)")
		fs.Float64Var(&o.noiseMax, "noise-max", 0.06, "largest noise level")
		fs.BoolVar(&o.noiseInput, "noise-input", false, "feed the input's estimated noise level to FiLM (widens an -init model that lacks it); validation also runs on noisy inputs")
		fs.IntVar(&o.positions, "positions", 31, "number M of reference band positions of C_B (paper Table \"positions\"; the shipped model: 31)")
		return o
	},
}

type trainOpts struct {
	out, shared, variant                    string
	positions                               int
	wAngle, wCons, wCurv                    float64
	steps, batch, patch, patchMin, valEvery int
	stopAt, snapEvery                       int
	minS, maxS, hsiProb, bandSub            float64
	lr, clip                                float64
	seed                                    uint64
	resume, naturalOnly, noiseInput         bool
	noiseProb, noiseMin, noiseMax           float64
	initW                                   string
	ckEvery                                 time.Duration
}

// options checks the flags and returns the training options they make
// (all but the data directory and the log).
func (o *trainOpts) options() (train.Options, error) {
	if o.out == "" {
		return train.Options{}, usagef("-out DIR is required")
	}
	v := o.variant
	if v == "omnihsr" {
		v = model.VariantOmniHSR
	}
	if err := model.CheckVariant(v); err != nil {
		return train.Options{}, usagef("-variant %q: want free-kernel, lowres or spectral", o.variant)
	}
	if o.positions < 1 || o.positions > 1024 {
		return train.Options{}, usagef("-positions %d: want 1 to 1024", o.positions)
	}
	for _, w := range []float64{o.wAngle, o.wCons, o.wCurv} {
		if !(w >= 0) || w > 100 {
			return train.Options{}, usagef("loss weights must be between 0 and 100")
		}
	}
	if o.steps < 1 {
		return train.Options{}, usagef("-steps %d: want at least 1", o.steps)
	}
	if o.stopAt < 0 || o.stopAt > o.steps {
		return train.Options{}, usagef("-stop-at %d: want 0 (the end) to -steps (%d)", o.stopAt, o.steps)
	}
	if o.snapEvery < 0 {
		return train.Options{}, usagef("-snapshot-every %d: want 0 (never) or more", o.snapEvery)
	}
	if o.initW != "" && o.resume {
		return train.Options{}, usagef("-init starts a new run; -resume continues one: give one of them")
	}
	if !(o.minS > 1) || !(o.maxS >= o.minS) {
		return train.Options{}, usagef("factors must satisfy 1 < min-scale <= max-scale")
	}
	if o.patch < 16 {
		return train.Options{}, usagef("-patch %d is too small (at least 16)", o.patch)
	}
	if o.patchMin != 0 && (o.patchMin < 8 || o.patchMin > o.patch) {
		return train.Options{}, usagef("-patch-min %d must be between 8 and -patch (%d)", o.patchMin, o.patch)
	}
	t := train.DefaultOptions()
	t.Model.Variant = v
	t.Model.M, t.Model.Encoder.In = o.positions, o.positions
	t.Loss = loss.Weights{Consistency: o.wCons, Angle: o.wAngle, Curvature: o.wCurv}
	t.Steps, t.Batch, t.LR, t.Seed, t.ClipNorm = o.steps, o.batch, o.lr, o.seed, o.clip
	if !(o.noiseProb >= 0 && o.noiseProb <= 1) || !(o.noiseMin > 0) || !(o.noiseMax >= o.noiseMin) || o.noiseMax > 1 {
		return train.Options{}, usagef("noise options: want 0 <= -noise-prob <= 1 and 0 < -noise-min <= -noise-max <= 1")
	}
	t.Sample = train.SampleOptions{Patch: o.patch, PatchMin: o.patchMin, MinScale: o.minS, MaxScale: o.maxS, HSIProb: o.hsiProb, BandSubset: o.bandSub,
		NoiseProb: o.noiseProb, NoiseMin: o.noiseMin, NoiseMax: o.noiseMax}
	t.Model.NoiseInput = o.noiseInput
	t.OutDir, t.Resume, t.ValEvery, t.CheckpointEvery = o.out, o.resume, o.valEvery, o.ckEvery
	t.StopAt, t.SnapshotEvery = o.stopAt, o.snapEvery
	t.Init = o.initW
	return t, nil
}

func (o *trainOpts) run(ctx context.Context, e env) error {
	t, err := o.options()
	if err != nil {
		return err
	}
	shared := o.shared
	if shared == "" {
		s, ok := scenes.SharedDir()
		if !ok {
			return usagef("no ../shared directory found; give -shared")
		}
		shared = s
	}
	t.Log, t.Progress = e.stderr, terminal(e.stderr)
	dopt := train.DefaultDataOptions(shared)
	dopt.NaturalOnly = o.naturalOnly
	dopt.NoisyVal = o.noiseInput || o.noiseProb > 0
	fmt.Fprintf(e.stderr, "train: loading data from %s (GEMM: %s)\n", shared, gemm.Backend())
	ds, err := train.LoadDataset(dopt)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "train: %d natural images, %d HSI scenes, %d validation samples\n", len(ds.Natural), len(ds.HSI), len(ds.Val))
	tr, err := train.NewTrainer(t, ds, o.naturalOnly)
	if err != nil {
		return err
	}
	// Ctrl-C and SIGTERM end the run after saving its checkpoint.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(e.stderr, "train: %s model with %d parameters, step %d of %d, writing to %s\n",
		model.VariantLabel(tr.Model().Cfg.Variant), tr.Model().NumParams(), tr.Step(), t.Steps, filepath.Clean(o.out))
	if err := tr.Run(ctx); err != nil {
		return err
	}
	if o.stopAt > 0 && tr.Step() == o.stopAt && ctx.Err() == nil {
		fmt.Fprintf(e.stderr, "train: stopped at step %d of %d as asked (-stop-at); continue with -resume\n", o.stopAt, t.Steps)
		return nil
	}
	if tr.Step() < t.Steps {
		return fmt.Errorf("interrupted at step %d of %d; checkpoint saved in %s, continue with -resume", tr.Step(), t.Steps, filepath.Clean(o.out))
	}
	return nil
}
