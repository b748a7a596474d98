package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/nn"
	"github.com/omnihsr/omnihsr/resample"
)

func TestZeroWeights(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "zero.omw")
	if err := run([]string{"-out", p}); err != nil {
		t.Fatal(err)
	}
	ck, err := nn.ReadCheckpoint(p)
	if err != nil {
		t.Fatalf("read %s: %v", p, err)
	}
	if !strings.Contains(string(ck.Meta), `"trained":false`) {
		t.Fatalf("metadata %s", ck.Meta)
	}
	m, err := model.FromCheckpoint(ck)
	if err != nil {
		t.Fatal(err)
	}
	// A zero operator layer adds nothing to the bicubic interpolation.
	lr := hsi.MustNew(6, 7, 5)
	for i := range lr.Data {
		lr.Data[i] = float32(i%13) / 13
	}
	got, err := m.Upscale(lr, 12, 14)
	if err != nil {
		t.Fatal(err)
	}
	want, err := resample.Upsample(lr, 12, 14)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range got.Data {
		worst = max(worst, math.Abs(float64(got.Data[i]-want.Data[i])))
	}
	t.Logf("largest difference from bicubic: %g", worst)
	if worst > 1e-5 {
		t.Errorf("the zero model differs from bicubic by %g", worst)
	}
	before, _ := os.ReadFile(p)
	if err := run([]string{"-out", p, "-seed", "7"}); err == nil || !strings.Contains(err.Error(), "-force") {
		t.Fatalf("an existing file was replaced without -force: %v", err)
	}
	after, _ := os.ReadFile(p)
	if string(before) != string(after) {
		t.Fatal("the refused run changed the file")
	}
	if err := run([]string{"-out", p, "-force"}); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(p)
	if string(again) != string(before) {
		t.Error("the same seed wrote a different file")
	}
	if err := run(nil); err == nil {
		t.Error("no -out accepted")
	}
}
