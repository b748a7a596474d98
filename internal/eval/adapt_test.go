package eval

import (
	"context"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/internal/model"
)

// TestAdaptedNotes: the runner records what adaptation did on each image
// (Record.Note, for the Adapted method only); an image the check did not
// adapt is rendered by the shipped pair, so its scores are the shipped
// model's exactly; zero steps is the shipped model, noted "off".
func TestAdaptedNotes(t *testing.T) {
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := Named("omnihsr", m)
	if err != nil {
		t.Fatal(err)
	}
	ad, off := Adapted{M: m, Steps: 2}, Adapted{M: m, Steps: 0}
	if ad.Name() != "OmniHSR+adapt2" || off.Name() != "OmniHSR+adapt0" {
		t.Fatalf("names %q, %q", ad.Name(), off.Name())
	}
	scenes := []*Scene{CubeScene("closeup", "CAVE", smoothCube(96, 100, 5, 1))}
	res, err := Run(context.Background(), scenes, Config{Protocol: ProtocolTwelve, Factors: []float64{2, 8},
		Methods: []Method{shipped, ad, off}, Resamples: 10})
	if err != nil {
		t.Fatal(err)
	}
	psnr := map[[2]any]Record{}
	for _, r := range res.Records {
		psnr[[2]any{r.Factor, r.Method}] = r
	}
	for _, f := range []float64{2, 8} {
		sh, a, o := psnr[[2]any{f, "OmniHSR"}], psnr[[2]any{f, ad.Name()}], psnr[[2]any{f, off.Name()}]
		if sh.Note != "" || o.Note != NoteOff {
			t.Errorf("x%g: notes %q (shipped), %q (off)", f, sh.Note, o.Note)
		}
		if o.PSNR != sh.PSNR || o.SAM != sh.SAM {
			t.Errorf("x%g: zero steps scored %v / %v, the shipped model %v / %v", f, o.PSNR, o.SAM, sh.PSNR, sh.SAM)
		}
		switch {
		case f == 8 && a.Note != NoteTooSmall: // a 12 x 12 input
			t.Errorf("x8: note %q, want %q", a.Note, NoteTooSmall)
		case f == 2 && !slices.Contains([]string{NoteAdapted, NoteRouted, NoteCheckNo}, a.Note): // a 48 x 48 input, a 24 x 24 check
			t.Errorf("x2: note %q: the check did not run", a.Note)
		}
		if (a.Note == NoteTooSmall || a.Note == NoteCheckNo) && (a.PSNR != sh.PSNR || a.SAM != sh.SAM) {
			t.Errorf("x%g: %s, but scored %v / %v, the shipped model %v / %v", f, a.Note, a.PSNR, a.SAM, sh.PSNR, sh.SAM)
		}
	}
}
