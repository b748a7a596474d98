package train

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/nn"
)

// smoothCube is a random smooth image (a few sinusoids per band), so that
// super-resolution has something to learn.
func smoothCube(r *rand.Rand, h, w, b int) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	fy, fx, ph := 0.1+0.3*r.Float64(), 0.1+0.3*r.Float64(), 6*r.Float64()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			base := 0.5 + 0.4*math.Sin(fy*float64(y)+ph)*math.Cos(fx*float64(x))
			for k := 0; k < b; k++ {
				c.Data[(y*w+x)*b+k] = float32(base * (0.6 + 0.4*float64(k)/float64(b)))
			}
		}
	}
	return c
}

func tinyDataset(t *testing.T) *Dataset {
	r := rand.New(rand.NewPCG(1, 2))
	ds := &Dataset{}
	for i := 0; i < 2; i++ {
		ds.Natural = append(ds.Natural, &Image{Name: "nat", Cube: smoothCube(r, 40, 40, 3), TrainRows: 40})
	}
	ds.HSI = append(ds.HSI, &Image{Name: "hsi", Cube: smoothCube(r, 40, 40, 20), HSI: true, TrainRows: 40})
	for _, s := range []float64{2, 3} {
		smp, err := makeSample(smoothCube(r, 24, 24, 5), s)
		if err != nil {
			t.Fatal(err)
		}
		smp.Name = "val"
		ds.Val = append(ds.Val, smp)
	}
	return ds
}

func tinyOptions(dir, variant string) Options {
	o := DefaultOptions()
	o.Model.Encoder.C = 8
	o.Model.Encoder.Blocks = 1
	o.Model.Encoder.FFNRatio = 2
	o.Model.FiLMHidden = 8
	o.Model.Variant = variant
	o.Steps, o.Batch = 4, 2
	o.Sample = SampleOptions{Patch: 24, MinScale: 1.5, MaxScale: 4, HSIProb: 0.5, BandSubset: 0.5}
	o.OutDir = dir
	o.ValEvery = 2
	return o
}

// Every variant trains (finite loss, the operator or value layer moves
// away from zero), validates, and writes weight files that keep the
// variant in their configuration and metadata; a resume must ask for the
// checkpoint's variant.
func TestTrainVariants(t *testing.T) {
	ds := tinyDataset(t)
	for _, v := range model.Variants {
		t.Run(model.VariantLabel(v), func(t *testing.T) {
			dir := t.TempDir()
			tr, err := NewTrainer(tinyOptions(dir, v), ds, false)
			if err != nil {
				t.Fatal(err)
			}
			if err := tr.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			if tr.Step() != 4 {
				t.Fatalf("stopped at step %d", tr.Step())
			}
			moved := false
			for _, x := range tr.Model().Op.W.Data {
				if x != 0 {
					moved = true
				}
			}
			if !moved {
				t.Fatal("the operator layer is still zero after training")
			}
			f, err := nn.ReadCheckpoint(filepath.Join(dir, "last.omw"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := model.FromCheckpoint(f)
			if err != nil {
				t.Fatal(err)
			}
			md, err := ReadMeta(f.Meta)
			if err != nil {
				t.Fatal(err)
			}
			if m.Cfg.Variant != v || md.Variant != v || md.Step != 4 || md.Patch != 24 || len(md.History) != 2 {
				t.Fatalf("weight file: variant %q, metadata %+v", m.Cfg.Variant, md)
			}
			for _, h := range md.History {
				if math.IsNaN(h.PSNR) || math.IsNaN(h.SAM) {
					t.Fatalf("validation %+v", h)
				}
			}
			other := model.VariantLowRes
			if v == other {
				other = model.VariantOmniHSR
			}
			o := tinyOptions(dir, other)
			o.Resume = true
			if _, err := NewTrainer(o, ds, false); err == nil {
				t.Fatal("resume with another variant accepted")
			}
			o.Model.Variant = v
			o.Steps = 6
			tr2, err := NewTrainer(o, ds, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tr2.TrainStep(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Resume equivalence for every variant, from a checkpoint written before
// any validation: 4 steps straight equal 2 steps, save, resume, 2 steps.
func TestResumeEquivalenceVariants(t *testing.T) {
	ds := tinyDataset(t)
	for _, v := range model.Variants {
		t.Run(model.VariantLabel(v), func(t *testing.T) {
			straight := tinyOptions(t.TempDir(), v)
			straight.ValEvery = 0
			a, err := NewTrainer(straight, ds, false)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 4; i++ {
				if _, err := a.TrainStep(); err != nil {
					t.Fatal(err)
				}
			}
			split := tinyOptions(t.TempDir(), v)
			split.ValEvery = 0
			b, err := NewTrainer(split, ds, false)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 2; i++ {
				if _, err := b.TrainStep(); err != nil {
					t.Fatal(err)
				}
			}
			if err := b.SaveCheckpoint(); err != nil {
				t.Fatal(err)
			}
			split.Resume = true
			c, err := NewTrainer(split, ds, false)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 2; i++ {
				if _, err := c.TrainStep(); err != nil {
					t.Fatal(err)
				}
			}
			sameParams(t, "straight vs resumed", a.Model().Params(), c.Model().Params())
		})
	}
}

// Init starts a run from a weight file: the trainer's model holds exactly
// those weights before its first step, and a variant mismatch is refused.
func TestInitFromWeights(t *testing.T) {
	dir := t.TempDir()
	o := tinyOptions(filepath.Join(dir, "a"), "")
	src, err := model.New(o.Model, 99)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, p := range src.Params() {
		for i := range p.T.Data {
			p.T.Data[i] = float32(r.NormFloat64()) * 0.01
		}
	}
	w := filepath.Join(dir, "init.omw")
	if err := src.Save(w, nil); err != nil {
		t.Fatal(err)
	}
	o.Init = w
	tr, err := NewTrainer(o, tinyDataset(t), false)
	if err != nil {
		t.Fatal(err)
	}
	got, want := tr.Model().Params(), src.Params()
	for i := range want {
		for j, v := range want[i].T.Data {
			if got[i].T.Data[j] != v {
				t.Fatalf("%s[%d] = %v, want %v", want[i].Name, j, got[i].T.Data[j], v)
			}
		}
	}
	o2 := tinyOptions(filepath.Join(dir, "b"), "lowres")
	o2.Init = w
	if _, err := NewTrainer(o2, tinyDataset(t), false); err == nil {
		t.Fatal("an OmniHSR weight file accepted for a lowres run")
	}
}

// Draw keeps every patch at Patch without PatchMin and spreads the sides
// over [PatchMin, Patch] (clipped to the image) with it; the same seed
// gives the same samples.
func TestDrawPatchSides(t *testing.T) {
	ds := tinyDataset(t)
	sides := func(o SampleOptions, seed uint64) map[int]int {
		rng := rand.New(rand.NewPCG(seed, 7))
		got := map[int]int{}
		for i := 0; i < 400; i++ {
			smp, err := ds.Draw(rng, o)
			if err != nil {
				t.Fatal(err)
			}
			if smp.HR.H != smp.HR.W {
				t.Fatalf("patch %dx%d is not square", smp.HR.H, smp.HR.W)
			}
			got[smp.HR.H]++
		}
		return got
	}
	o := SampleOptions{Patch: 32, MinScale: 1.5, MaxScale: 4, HSIProb: 0.5}
	if got := sides(o, 1); len(got) != 1 || got[32] != 400 {
		t.Errorf("without PatchMin: sides %v, want only 32", got)
	}
	o.PatchMin = 12
	got := sides(o, 1)
	for s := range got {
		if s < 12 || s > 32 {
			t.Errorf("side %d outside [12, 32]", s)
		}
	}
	if len(got) < 15 || got[12] == 0 || got[32] == 0 {
		t.Errorf("sides %v do not cover [12, 32]", got)
	}
	again := sides(o, 1)
	for s, n := range got {
		if again[s] != n {
			t.Fatalf("same seed, different sides: %v vs %v", got, again)
		}
	}
	o.PatchMin, o.Patch = 12, 100 // larger than the 40 x 40 images: clipped
	for s := range sides(o, 2) {
		if s > 40 {
			t.Errorf("side %d larger than the image", s)
		}
	}
}

// A fine-tune records where it started (file, steps, wall time, and that
// run's own start) in its weight files, and a resumed run keeps it.
func TestInitLineage(t *testing.T) {
	ds := tinyDataset(t)
	dir := t.TempDir()
	run := func(name, init string, steps int, resume bool) Meta {
		o := tinyOptions(filepath.Join(dir, name), "")
		o.Init, o.Steps, o.Resume = init, steps, resume
		tr, err := NewTrainer(o, ds, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		f, err := nn.ReadCheckpoint(filepath.Join(dir, name, "last.omw"))
		if err != nil {
			t.Fatal(err)
		}
		md, err := ReadMeta(f.Meta)
		if err != nil {
			t.Fatal(err)
		}
		return md
	}
	a := run("a", "", 2, false)
	if a.Init != nil {
		t.Fatalf("fresh run has a lineage %+v", a.Init)
	}
	aw := filepath.Join(dir, "a", "last.omw")
	b := run("b", aw, 4, false)
	if b.Init == nil || b.Init.File != aw || b.Init.Steps != 2 || b.Init.Init != nil {
		t.Fatalf("fine-tune lineage %+v", b.Init)
	}
	bw := filepath.Join(dir, "b", "last.omw")
	c := run("c", bw, 2, false)
	if c.Init == nil || c.Init.File != bw || c.Init.Steps != 4 || c.Init.Init == nil || c.Init.Init.File != aw {
		t.Fatalf("second fine-tune lineage %+v", c.Init)
	}
	// Resume "b" with more steps: the lineage stays.
	b2 := run("b", "", 6, true)
	if b2.Step != 6 || b2.Init == nil || b2.Init.File != aw {
		t.Fatalf("resumed run: step %d, lineage %+v", b2.Step, b2.Init)
	}
}

// StopAt ends a run at a chosen step with the schedule of the full run:
// its last.omw equals the snapshot of that step in a straight run, and a
// resume from it ends where the straight run ends, bit for bit.
func TestStopAtAndSnapshots(t *testing.T) {
	ds := tinyDataset(t)
	dir := t.TempDir()
	run := func(name string, stopAt, snap int, resume bool) *Trainer {
		o := tinyOptions(filepath.Join(dir, name), "")
		o.Steps, o.StopAt, o.SnapshotEvery, o.Resume = 6, stopAt, snap, resume
		tr, err := NewTrainer(o, ds, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return tr
	}
	weights := func(path string) []nn.Param {
		m, err := model.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		return m.Params()
	}
	straight := run("straight", 0, 3, false)
	if straight.Step() != 6 {
		t.Fatalf("straight run ended at step %d", straight.Step())
	}
	for _, s := range []int{3, 6} {
		f, err := nn.ReadCheckpoint(filepath.Join(dir, "straight", "snapshots", fmt.Sprintf("step-%07d.omw", s)))
		if err != nil {
			t.Fatalf("snapshot of step %d: %v", s, err)
		}
		md, err := ReadMeta(f.Meta)
		if err != nil || md.Step != s {
			t.Fatalf("snapshot of step %d has step %d (%v)", s, md.Step, err)
		}
	}
	stopped := run("split", 3, 0, false)
	if stopped.Step() != 3 {
		t.Fatalf("-stop-at 3 ended at step %d", stopped.Step())
	}
	sameParams(t, "stopped vs snapshot", weights(filepath.Join(dir, "straight", "snapshots", "step-0000003.omw")), weights(filepath.Join(dir, "split", "last.omw")))
	again := tinyOptions(filepath.Join(dir, "split"), "")
	again.Steps, again.StopAt, again.Resume = 6, 3, true
	if _, err := NewTrainer(again, ds, false); err == nil || !strings.Contains(err.Error(), "at step 3 already") {
		t.Errorf("resume at step 3 asked to stop at 3: %v", err)
	}
	resumed := run("split", 0, 0, true)
	if resumed.Step() != 6 {
		t.Fatalf("resume ended at step %d", resumed.Step())
	}
	sameParams(t, "resumed vs straight", straight.Model().Params(), resumed.Model().Params())

	bad := tinyOptions(filepath.Join(dir, "bad"), "")
	for _, o := range []struct{ stop, snap int }{{-1, 0}, {7, 0}, {0, -2}} {
		bad.Steps, bad.StopAt, bad.SnapshotEvery = 6, o.stop, o.snap
		if _, err := NewTrainer(bad, ds, false); err == nil {
			t.Errorf("stop at %d, snapshot every %d accepted", o.stop, o.snap)
		}
	}
}

// sameParams fails t unless a and b hold the same weights, bit for bit.
func sameParams(t *testing.T, what string, a, b []nn.Param) {
	t.Helper()
	for i := range a {
		for k, x := range a[i].T.Data {
			if x != b[i].T.Data[k] {
				t.Fatalf("%s: %s[%d] %v != %v", what, a[i].Name, k, x, b[i].T.Data[k])
			}
		}
	}
}
