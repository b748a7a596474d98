package train

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/internal/model"
)

// A noise run from clean weights widens FiLM, trains the new noise column,
// adds noise to about NoiseProb of the inputs (with the clean input kept
// for the consistency loss), validates on noisy samples as well and logs
// them, and records its noise settings in the weight files.
func TestTrainWithNoise(t *testing.T) {
	dir := t.TempDir()
	o := tinyOptions(filepath.Join(dir, "run"), "")
	src, err := model.New(o.Model, 3)
	if err != nil {
		t.Fatal(err)
	}
	w := filepath.Join(dir, "clean.omw")
	if err := src.Save(w, nil); err != nil {
		t.Fatal(err)
	}
	ds := tinyDataset(t)
	if ds.NoisyVal, err = noisySamples(ds.Val); err != nil {
		t.Fatal(err)
	}
	for i, s := range ds.NoisyVal {
		if s.Noise == "" || s.CleanLR() != ds.Val[i].LR || s.LR == ds.Val[i].LR {
			t.Fatalf("noisy validation sample %d: noise %q, clean input kept %v", i, s.Noise, s.CleanLR() == ds.Val[i].LR)
		}
	}
	o.Init = w
	o.Model.NoiseInput = true
	o.Sample.NoiseProb, o.Sample.NoiseMin, o.Sample.NoiseMax = 0.5, 0.01, 0.05
	o.Steps = 6
	tr, err := NewTrainer(o, ds, false)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Model().Cfg.NoiseInput {
		t.Fatal("the trainer's model does not take the noise feature")
	}
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	col := tr.Model().FiLM.L1.W.Data
	moved := false
	for o := 0; o < len(col)/2; o++ {
		moved = moved || col[2*o+1] != 0
	}
	if !moved {
		t.Fatal("the noise column of FiLM did not move")
	}
	log, err := os.ReadFile(filepath.Join(o.OutDir, "log.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	if !strings.HasSuffix(lines[0], ",noisy_bicubic_sam") {
		t.Fatalf("log header %q has no noisy validation columns", lines[0])
	}
	for _, l := range lines[1:] {
		if n := len(strings.Split(l, ",")); n != len(strings.Split(lines[0], ",")) {
			t.Fatalf("log line %q has %d fields", l, n)
		}
	}
	f, err := model.Load(filepath.Join(o.OutDir, "last.omw"))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Cfg.NoiseInput {
		t.Fatal("last.omw lost NoiseInput")
	}
	if v := tr.hist[len(tr.hist)-1]; v.Noisy == nil {
		t.Fatal("no noisy validation result")
	}
	// A resume must ask for the same noise input.
	o2 := o
	o2.Init, o2.Resume, o2.Model.NoiseInput = "", true, false
	if _, err := NewTrainer(o2, ds, false); err == nil || !strings.Contains(err.Error(), "noise input") {
		t.Fatalf("resume without -noise-input: %v", err)
	}
}

// Draw adds noise to about NoiseProb of the samples and keeps the clean
// input beside the noisy one.
func TestDrawNoise(t *testing.T) {
	ds := tinyDataset(t)
	opt := SampleOptions{Patch: 24, MinScale: 2, MaxScale: 4, HSIProb: 0.5, NoiseProb: 0.5, NoiseMin: 0.01, NoiseMax: 0.05}
	r := rand.New(rand.NewPCG(8, 8))
	noisy := 0
	for range 200 {
		s, err := ds.Draw(r, opt)
		if err != nil {
			t.Fatal(err)
		}
		if s.Noise == "" {
			if s.Clean != nil {
				t.Fatal("a clean sample with a separate clean input")
			}
			continue
		}
		noisy++
		var d float64
		for i, v := range s.LR.Data {
			d = max(d, float64(v-s.Clean.Data[i]))
		}
		if d == 0 {
			t.Fatalf("sample with %s noise equals its clean input", s.Noise)
		}
	}
	if noisy < 70 || noisy > 130 {
		t.Fatalf("%d noisy samples of 200 at NoiseProb 0.5", noisy)
	}
}
