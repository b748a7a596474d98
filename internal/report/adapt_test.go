package report

import (
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/internal/adapt"
	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/model"
)

// adaptResult is a hand-made adaptation run: per scene and factor, the
// shipped model's and the adapted PSNR and SAM and the notes of the
// adapted images.
func adaptResult(factors []float64, cells map[string][][2]float64, notes map[string][]string) *eval.Result {
	res := &eval.Result{Config: eval.RunInfo{Factors: factors}}
	for _, name := range []string{"a", "b"} {
		res.Scenes = append(res.Scenes, eval.SceneInfo{Name: name, B: 3})
	}
	for _, f := range factors {
		for _, sc := range res.Scenes {
			k := sc.Name + eval.FormatFactor(f)
			v, ok := cells[k]
			if !ok {
				continue
			}
			n := notes[k]
			res.Summaries = append(res.Summaries,
				eval.Summary{Scene: sc.Name, Factor: f, Method: oursName, Images: len(n), PSNR: eval.Num(v[0][0]), SAM: eval.Num(v[0][1])},
				eval.Summary{Scene: sc.Name, Factor: f, Method: eval.AdaptName, Images: len(n), PSNR: eval.Num(v[1][0]), SAM: eval.Num(v[1][1])})
			for i, note := range n {
				res.Records = append(res.Records,
					eval.Record{Scene: sc.Name, Factor: f, Image: i, Method: oursName, MS: 10},
					eval.Record{Scene: sc.Name, Factor: f, Image: i, Method: eval.AdaptName, MS: 2000, Note: note})
			}
		}
	}
	return res
}

// TestWriteAdapt: the section's cells, tallies and the noise sentence come
// from the runs; missing parts are named with the command that runs them.
func TestWriteAdapt(t *testing.T) {
	st := adapt.Default
	seven := adaptResult([]float64{2, 4}, map[string][][2]float64{
		"ax2": {{40, 2}, {40.5, 1.9}}, "bx2": {{30, 3}, {30, 3}}, "ax4": {{35, 4}, {35, 4}}, "bx4": {{28, 5}, {27.9, 5.04}},
	}, map[string][]string{
		"ax2": {eval.NoteAdapted}, "bx2": {eval.NoteCheckNo, eval.NoteCheckNo, eval.NoteAdapted}, "ax4": {eval.NoteTooSmall}, "bx4": {eval.NoteRouted},
	})
	noisy := adaptResult(DegradeFactors, map[string][][2]float64{
		"ax4": {{33, 4}, {33, 4}}, "bx4": {{30, 5}, {29.95, 5}}, "ax8": {{30, 6}, {30.2, 5.9}},
	}, map[string][]string{"ax4": {eval.NoteCheckNo}, "bx4": {eval.NoteRouted}, "ax8": {eval.NoteAdapted}})
	var b md
	writeAdapt(&b, &Results{Adapt: &AdaptRuns{Settings: &st, Seven: seven, Noise: []DegradeRun{{"Noise sigma=0.01", noisy}}}})
	got := b.String()
	for _, want := range []string{
		"## 11. Per-scene adaptation",
		"all layers, Adam at 5e-05, 200 steps",
		"| x2 | +0.500 / +0.100 adapted (2.0 s) | +0.000 / +0.000 adapted 1, check: no 2 (2.0 s) |",
		"| x4 | +0.000 / +0.000 too small (2.0 s) | -0.100 / -0.040 routed (2.0 s) |",
		"| Noise sigma=0.01 | x4 | +0.000 / +0.000 check: no (2.0 s) | -0.050 / +0.000 routed (2.0 s) |",
		"| Noise sigma=0.01 | x8 | +0.200 / +0.100 adapted (2.0 s) | -- |",
		// seven: 4 cells, 6 images; 2 adapted, 1 routed, 2 check: no, 1 too small; 3 at or above in PSNR.
		"| Seven datasets (64x64 tiles, close-range centre crops) | 4 | 6 | 2 | 1 | 2 | 1 | +0.100 / +0.015 | 3 / 3 | 1 | -0.100 (b x4) | 0.1 / 12.0 |",
		"Noise: of the 3 noisy cells (1 runs, x4 and x8, 2 scenes), 2 are at or above the model without adaptation in PSNR and 3 in SAM; the worst is -0.050 dB (Noise sigma=0.01, b x4); 1 lose more than 0.02 dB or 0.02 degrees; so `-adapt auto` does not keep every noisy cell at or above the model without it: 1 are below (1 routed).",
		"Not run yet: twelve, noise (`go run ./scripts/adapteval -parts twelve,noise`",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
	b.Reset()
	writeAdapt(&b, &Results{})
	if b.Len() != 0 {
		t.Errorf("no adaptation pass, but a section:\n%s", b.String())
	}
}

// RunAdapt refuses an unknown part and runs made with other settings.
func TestRunAdaptRefuses(t *testing.T) {
	m := defaultModelT(t)
	if _, err := RunAdapt(t.Context(), Options{Model: m}, []string{"eight"}, nil, nil); err == nil || !strings.Contains(err.Error(), `"eight"`) {
		t.Errorf("unknown part: %v", err)
	}
	other := adapt.Default
	other.AutoSteps++
	if _, err := RunAdapt(t.Context(), Options{Model: m}, []string{AdaptSeven}, &AdaptRuns{Settings: &other}, nil); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Errorf("other settings: %v", err)
	}
}

func defaultModelT(t *testing.T) *model.Model {
	t.Helper()
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	return m
}
