package omnihsr

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/model"
)

// Adapt 0 renders what the embedded model renders, bit for bit, and
// reports no adaptation.
func TestAdaptOffIsToday(t *testing.T) {
	lr := testCube(41, 20, 18, 6)
	sr, res, err := Upscale(context.Background(), lr, Options{Scale: 2, Adapt: 0})
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Upscale(lr, 40, 36)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sr.Data, want.Data) {
		t.Error("Adapt 0 renders differently from the embedded model")
	}
	if res.Adapt != (AdaptReport{}) || res.Adapt.String() != "" {
		t.Errorf("Adapt 0 reported %+v", res.Adapt)
	}
}

// Adapt runs the fine-tune, reports it, gives the same bytes in memory and
// in a file, and covers the fine-tune in Options.Completion; cancellation
// stops it.
func TestAdaptReport(t *testing.T) {
	lr := testCube(42, 48, 48, 5) // a 24 x 24 check: large enough to judge a fine-tune
	var fr []float64
	sr, res, err := Upscale(context.Background(), lr, Options{Scale: 2, Adapt: 2, Completion: func(f float64) { fr = append(fr, f) }})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Adapt
	if a.CheckSteps != 2 || a.Adapted == nil || a.Check == "" || a.Choice == "" || a.Reason == "" || !strings.Contains(a.String(), "(2 steps)") {
		t.Errorf("report %+v", a)
	}
	if len(fr) < 4 || fr[len(fr)-1] != 1 || !slices.IsSorted(fr) {
		t.Errorf("completion %v", fr)
	}
	if fr[0] >= 0.5 {
		t.Errorf("completion starts at %v: the fine-tune is not covered", fr[0])
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "lr.npy"), filepath.Join(dir, "sr.npy")
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	fres, err := UpscaleFile(context.Background(), in, out, Options{Scale: 2, Adapt: 2})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := formats.Read(out, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Data, sr.Data) || fres.Adapt.String() != a.String() {
		t.Errorf("UpscaleFile differs from Upscale: %q, %q", fres.Adapt, a)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, _, err = Upscale(ctx, lr, Options{Scale: 2, Adapt: 5000, Completion: func(float64) {
		if n++; n == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v", err)
	}
}

// Adaptation on (a crop of) the bundled sample gives the same bytes on two
// runs and on one and two threads: the fine-tune's random streams come from
// the input, and its sums split into a fixed number of parts. Four steps
// keep it quick; `-adapt auto` runs the same code for 200.
func TestAdaptDeterministicSample(t *testing.T) {
	full, _, err := formats.Read(filepath.Join("sample", "L7_ETMs.tif"), hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lr, err := full.Crop(full.H/2-24, full.W/2-24, 48, 48)
	if err != nil {
		t.Fatal(err)
	}
	var outs [][]float32
	var reps []string
	for _, procs := range []int{2, 2, 1} {
		old := runtime.GOMAXPROCS(procs)
		sr, res, err := Upscale(context.Background(), lr, Options{Scale: 2, Adapt: 4})
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if res.Adapt.CheckSteps != 4 || res.Adapt.Adapted == nil {
			t.Fatalf("GOMAXPROCS %d: the check did not run: %+v", procs, res.Adapt)
		}
		outs, reps = append(outs, sr.Data), append(reps, res.Adapt.String())
	}
	for i := 1; i < len(outs); i++ {
		if !slices.Equal(outs[i], outs[0]) || reps[i] != reps[0] {
			t.Errorf("run %d differs from run 0: %q, %q", i, reps[i], reps[0])
		}
	}
}
