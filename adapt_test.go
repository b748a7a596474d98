package omnihsr

import (
	"context"
	"errors"
	"path/filepath"
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
	lr := testCube(42, 40, 36, 5)
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
