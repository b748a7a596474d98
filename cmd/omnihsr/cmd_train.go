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
	"github.com/omnihsr/omnihsr/hsi/scenes"
	"github.com/omnihsr/omnihsr/model"
	"github.com/omnihsr/omnihsr/train"
)

func init() {
	var (
		out, shared, variant                    string
		positions                               int
		wAngle, wCons, wCurv                    float64
		steps, batch, patch, patchMin, valEvery int
		stopAt, snapEvery                       int
		minS, maxS, hsiProb, bandSub            float64
		lr, clip                                float64
		seed                                    uint64
		resume, naturalOnly                     bool
		initW                                   string
		ckEvery                                 time.Duration
	)
	d := train.DefaultOptions()
	register(&command{
		name:    "train",
		summary: "train OmniHSR on ../shared/data (natural images + hsi/train scenes)",
		usage: `omnihsr train -out DIR [-steps N] [-resume] [flags]

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

Ablations (paper Table "Ablation"; issue 6): -variant trains the same
network with another output path: free-kernel (operators without the
zero-sum constraint), lowres (operators applied on the low-res grid, then
bicubic: without COFR), spectral (the head predicts 31 spectral values,
splatted by COFR's normalised weights). -natural-only leaves out the
hyperspectral training scenes. The variant is stored in the weight files;
` + "`omnihsr eval`, `omnihsr upscale` and `omnihsr ablation`" + ` read it from there.`,
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&out, "out", "", "run directory (required)")
			fs.StringVar(&shared, "shared", "", "the shared data directory (default: ../shared beside the module)")
			fs.IntVar(&steps, "steps", d.Steps, "total optimizer steps (the schedule's length)")
			fs.IntVar(&batch, "batch", d.Batch, "samples per step")
			fs.IntVar(&patch, "patch", d.Sample.Patch, "high-resolution patch side")
			fs.IntVar(&patchMin, "patch-min", 0, "draw each patch side uniformly from [patch-min, patch] (0 = always -patch)")
			fs.Float64Var(&minS, "min-scale", d.Sample.MinScale, "smallest training factor")
			fs.Float64Var(&maxS, "max-scale", d.Sample.MaxScale, "largest training factor")
			fs.Float64Var(&hsiProb, "hsi-prob", d.Sample.HSIProb, "probability of a hyperspectral training patch")
			fs.Float64Var(&bandSub, "band-subset", d.Sample.BandSubset, "probability of a random band subset for a hyperspectral patch")
			fs.Float64Var(&lr, "lr", d.LR, "base learning rate")
			fs.Float64Var(&wAngle, "loss-angle", d.Loss.Angle, "weight of the spectral-angle term (the paper: 0.1)")
			fs.Float64Var(&wCons, "loss-consistency", d.Loss.Consistency, "weight of the degradation-consistency term (the paper: 0.1)")
			fs.Float64Var(&wCurv, "loss-curvature", d.Loss.Curvature, "weight of the spectral-curvature term (the paper: 0.05)")
			fs.Float64Var(&clip, "clip", d.ClipNorm, "gradient-norm clip (0 = none)")
			fs.Uint64Var(&seed, "seed", d.Seed, "random seed")
			fs.IntVar(&valEvery, "val-every", d.ValEvery, "steps between validations")
			fs.DurationVar(&ckEvery, "checkpoint-every", d.CheckpointEvery, "wall time between checkpoints")
			fs.BoolVar(&resume, "resume", false, "continue from DIR/checkpoint.ckpt")
			fs.IntVar(&stopAt, "stop-at", 0, "end the run after this step, keeping the schedule of -steps (0 = at -steps)")
			fs.IntVar(&snapEvery, "snapshot-every", 0, "also write the weights every N steps to DIR/snapshots (0 = never)")
			fs.StringVar(&initW, "init", "", "start from the weights of this file (e.g. model/weights/default.omw) with a fresh optimizer and schedule")
			fs.BoolVar(&naturalOnly, "natural-only", false, "train on natural images only (ablation)")
			fs.StringVar(&variant, "variant", "", "ablation variant: free-kernel, lowres, spectral (default: OmniHSR)")
			fs.IntVar(&positions, "positions", 31, "number M of reference band positions of C_B (paper Table \"positions\"; the shipped model: 31)")
		},
		run: func(fs *flag.FlagSet) error {
			if out == "" {
				return usagef("-out DIR is required")
			}
			if shared == "" {
				s, ok := scenes.SharedDir()
				if !ok {
					return usagef("no ../shared directory found; give -shared")
				}
				shared = s
			}
			v := variant
			if v == "omnihsr" {
				v = model.VariantOmniHSR
			}
			if err := model.CheckVariant(v); err != nil {
				return usagef("-variant %q: want free-kernel, lowres or spectral", variant)
			}
			if positions < 1 || positions > 1024 {
				return usagef("-positions %d: want 1 to 1024", positions)
			}
			o := d
			o.Model.Variant = v
			o.Model.M, o.Model.Encoder.In = positions, positions
			for _, w := range []float64{wAngle, wCons, wCurv} {
				if !(w >= 0) || w > 100 {
					return usagef("loss weights must be between 0 and 100")
				}
			}
			o.Loss = train.LossWeights{Consistency: wCons, Angle: wAngle, Curvature: wCurv}
			o.Steps, o.Batch, o.LR, o.Seed, o.ClipNorm = steps, batch, lr, seed, clip
			o.Sample = train.SampleOptions{Patch: patch, PatchMin: patchMin, MinScale: minS, MaxScale: maxS, HSIProb: hsiProb, BandSubset: bandSub}
			o.OutDir, o.Resume, o.ValEvery, o.CheckpointEvery = out, resume, valEvery, ckEvery
			if stopAt < 0 || stopAt > steps {
				return usagef("-stop-at %d: want 0 (the end) to -steps (%d)", stopAt, steps)
			}
			if snapEvery < 0 {
				return usagef("-snapshot-every %d: want 0 (never) or more", snapEvery)
			}
			o.StopAt, o.SnapshotEvery = stopAt, snapEvery
			if initW != "" && resume {
				return usagef("-init starts a new run; -resume continues one: give one of them")
			}
			o.Init = initW
			o.Log = os.Stderr
			if !(minS > 1) || !(maxS >= minS) {
				return usagef("factors must satisfy 1 < min-scale <= max-scale")
			}
			if patch < 16 {
				return usagef("-patch %d is too small (at least 16)", patch)
			}
			if patchMin != 0 && (patchMin < 8 || patchMin > patch) {
				return usagef("-patch-min %d must be between 8 and -patch (%d)", patchMin, patch)
			}
			dopt := train.DefaultDataOptions(shared)
			dopt.NaturalOnly = naturalOnly
			fmt.Fprintf(os.Stderr, "train: loading data from %s (GEMM: %s)\n", shared, gemm.Backend())
			ds, err := train.LoadDataset(dopt)
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "train: %d natural images, %d HSI scenes, %d validation samples\n", len(ds.Natural), len(ds.HSI), len(ds.Val))
			tr, err := train.NewTrainer(o, ds, naturalOnly)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			fmt.Fprintf(os.Stderr, "train: %s model with %d parameters, step %d of %d, writing to %s\n",
				model.VariantLabel(tr.Model().Cfg.Variant), tr.Model().NumParams(), tr.Step(), o.Steps, filepath.Clean(out))
			if err := tr.Run(ctx); err != nil {
				return err
			}
			if stopAt > 0 && tr.Step() == stopAt && ctx.Err() == nil {
				fmt.Fprintf(os.Stderr, "train: stopped at step %d of %d as asked (-stop-at); continue with -resume\n", stopAt, o.Steps)
				return nil
			}
			if tr.Step() < o.Steps {
				return fmt.Errorf("interrupted at step %d of %d; checkpoint saved in %s, continue with -resume", tr.Step(), o.Steps, filepath.Clean(out))
			}
			return nil
		},
	})
}
