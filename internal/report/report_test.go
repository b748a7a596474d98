package report

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/internal/paper"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/bench"
	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/model"
)

// synthScene is a smooth random-ish scene with edges, deterministic.
func synthScene(h, w, b int, seed float64) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			edge := 0.0
			if float64(x)+0.5*float64(y) > float64(w)*0.6 {
				edge = 0.4
			}
			for k := 0; k < b; k++ {
				v := 0.3 + edge + 0.1*math.Sin(seed+0.3*float64(x)+0.2*float64(y)+0.5*float64(k))
				c.Set(y, x, k, float32(v))
			}
		}
	}
	return c
}

func generate(t *testing.T, dir string) *Results {
	t.Helper()
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	scenes := []*eval.Scene{
		eval.CubeScene("lab", "CAVE", synthScene(72, 72, 6, 0)),
		eval.CubeScene("air", "AVIRIS", synthScene(64, 80, 9, 1)),
	}
	r, err := Generate(context.Background(), Options{Dir: dir, Model: m, Weights: "the embedded default model", Meta: model.DefaultMeta(),
		Scenes: scenes, Command: "omnihsr eval -report DIR", SkipBench: true})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestGenerateDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every experiment twice on small scenes")
	}
	d1, d2 := t.TempDir(), t.TempDir()
	r := generate(t, d1)
	generate(t, d2)
	md, err := os.ReadFile(filepath.Join(d1, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## 1. Twelve factors", "## 2. Every scene", "## 3. Redefining", "## 4. Test-time",
		"## 5. Blur that grows", "## 6. Number of reference", "## 7. Latency", "## 8. Figures", "## 10. Test-time options", "## 11. Per-scene adaptation", "OmniHSR+BP", "OmniHSR+SE8", "paper Pavia U (103)",
		"paper CAVE (31)", "results/fig_lab_x4.png", "fig_primitives_x4.png"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("results.md lacks %q", want)
		}
	}
	// The 72-pixel crop keeps 3x3 pixels at x24: below minLR24, so no x24 figure.
	for _, f := range r.Figures.Scenes {
		if f.X24 != nil {
			t.Errorf("%s: x24 figure for a %dx%d crop", f.Scene, f.Crop.H, f.Crop.W)
		}
		if f.BandsBetter < 0 || f.BandsBetter > f.Bands || len(f.BicBandRMSE) != f.Bands {
			t.Errorf("%s: band RMSE fields %d/%d, %d values", f.Scene, f.BandsBetter, f.Bands, len(f.BicBandRMSE))
		}
	}
	ents, err := os.ReadDir(filepath.Join(d1, "results"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
		if strings.HasSuffix(e.Name(), ".json") {
			continue // timing fields differ between runs
		}
		a, _ := os.ReadFile(filepath.Join(d1, "results", e.Name()))
		b, err := os.ReadFile(filepath.Join(d2, "results", e.Name()))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs (%v)", e.Name(), err)
		}
	}
	for _, want := range []string{"twelve.json", "seven.json", "banddef.json", "degrade.json", "sensor_noise.json", "kappa.json", "figures.json", "adapt.json",
		"fig_lab_x4.png", "fig_air_x4.png", "fig_band_rmse_x4.png", "fig_primitives_x4.png"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("results/ lacks %s (has %v)", want, names)
		}
	}
	md2, _ := os.ReadFile(filepath.Join(d2, "results.md"))
	if !bytes.Equal(untimed(md), untimed(md2)) {
		t.Error("results.md differs between two runs")
	}
	if bytes.Equal(untimed(md), md) {
		t.Error("untimed removed nothing: the adaptation section's timing cells are not where it looks")
	}
	if r.Twelve == nil || len(r.Twelve.Summaries) != 2*2*len(eval.TwelveFactors) {
		t.Fatalf("twelve-factor summaries: want 2 scenes x 2 methods x 12 factors")
	}
}

// adaptTiming matches the timing cells of the adaptation section (section
// 11): the time per image of a cell, the totals' time column and the pass's
// duration in the introduction.
var adaptTiming = regexp.MustCompile(`\([0-9]+\.[0-9] s\)|[0-9]+\.[0-9] / [0-9]+\.[0-9] \|\n|plus [0-9]+ minutes`)

// untimed is a results.md without the adaptation section's timing cells.
func untimed(md []byte) []byte { return adaptTiming.ReplaceAll(md, []byte("TIME")) }

func TestGenerateErrors(t *testing.T) {
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	sc := []*eval.Scene{eval.CubeScene("a", "", synthScene(40, 40, 3, 0))}
	for _, o := range []Options{
		{Dir: t.TempDir(), Scenes: sc},
		{Dir: t.TempDir(), Model: m},
		{Model: m, Scenes: sc},
	} {
		if _, err := Generate(context.Background(), o); err == nil {
			t.Errorf("Generate(%+v) gave no error", o)
		}
	}
	bad := []*eval.Scene{{Name: "broken", Load: func() (*hsi.Cube, error) { return nil, os.ErrNotExist }}}
	if _, err := Generate(context.Background(), Options{Dir: t.TempDir(), Model: m, Scenes: bad, SkipBench: true}); err == nil {
		t.Error("a scene that fails to load gave no error")
	}
}

func TestPaperCounterpart(t *testing.T) {
	for _, c := range []struct{ name, sensor, want string }{
		{"balloons_ms", "CAVE", "CAVE (31)"},
		{"dataPavia_PaviaCenter_105x120x102", "ROSIS-03", "Pavia C (102)"},
		{"PaviaU", "ROSIS-03", "Pavia U (103)"},
		{"abu-urban-4", "AVIRIS", ""},
	} {
		if got := paper.Counterpart(c.name, c.sensor); got != c.want {
			t.Errorf("paper.Counterpart(%q, %q) = %q, want %q", c.name, c.sensor, got, c.want)
		}
	}
}

// The paper's numbers are transcribed: check a few against the gains the
// paper's text states.
func TestPaperNumbers(t *testing.T) {
	// "+2.78 and +1.06 on CAVE and Pavia C at x4" (the figures the README compares with).
	for _, p := range paper.Seven {
		g := p.PSNROurs[1] - p.PSNRBic[1]
		switch p.Dataset {
		case "CAVE (31)":
			if math.Abs(g-2.78) > 1e-9 {
				t.Errorf("CAVE x4 gain %v, want 2.78", g)
			}
		case "Pavia C (102)":
			if math.Abs(g-1.06) > 1e-9 {
				t.Errorf("Pavia C x4 gain %v, want 1.06", g)
			}
		}
	}
	if v := paper.Latency[145]; v != [2]float64{22.3, 135.1} {
		t.Errorf("paper latency B=145 = %v", v)
	}
	for _, p := range paper.Twelve {
		for k := range 12 {
			if p.PSNROurs[k] < p.PSNRBic[k] || p.SAMOurs[k] > p.SAMBic[k] {
				t.Errorf("%s factor %v: the paper's OmniHSR is never below bicubic", p.Dataset, eval.TwelveFactors[k])
			}
		}
	}
}

// renamed gives a method another table name (the run names of a study).
type renamed struct {
	eval.Method
	name string
}

func (r renamed) Name() string { return r.name }

func TestPositionsSection(t *testing.T) {
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	scenes := []*eval.Scene{eval.CubeScene("lab", "CAVE", synthScene(72, 72, 6, 0))}
	res, err := eval.Run(context.Background(), scenes, eval.Config{Protocol: eval.ProtocolSeven, Factors: []float64{4, 8},
		Methods: []eval.Method{renamed{eval.OmniHSR{M: m}, "omnihsr"}, renamed{eval.OmniHSR{M: m}, "m1"}, renamed{eval.OmniHSR{M: m}, "m8"}}})
	if err != nil {
		t.Fatal(err)
	}
	p := Positions{Command: "omnihsr ablation ...", Result: res}
	for _, n := range []string{"omnihsr", "m1", "m8"} {
		p.Runs = append(p.Runs, PositionsRun{Name: n})
	}
	var b md
	writePositionsStudy(&b, &p, "positions.json")
	out := b.String()
	// Rows sorted by M, the model's run read as M = 31; identical models
	// give a zero spread and a zero M = 1 difference.
	i1, i8, i31 := strings.Index(out, "\n| 1 |"), strings.Index(out, "\n| 8 |"), strings.Index(out, "\n| 31 |")
	if i1 < 0 || i8 < i1 || i31 < i8 {
		t.Fatalf("rows not in M order:\n%s", out)
	}
	if !strings.Contains(out, "spans 0.00 dB across M >= 8") || !strings.Contains(out, "M = 1 is +0.00 dB from M = 31") {
		t.Errorf("sentence:\n%s", out)
	}
	for _, c := range []struct {
		name string
		m    int
		ok   bool
	}{{"omnihsr", 31, true}, {"m62", 62, true}, {"m0", 0, false}, {"spectral", 0, false}, {"mx", 0, false}} {
		if m, ok := runM(c.name); m != c.m || ok != c.ok {
			t.Errorf("runM(%q) = %d, %v", c.name, m, ok)
		}
	}
}

// The model paragraph follows a fine-tune's lineage to the total steps.
func TestIntroLineage(t *testing.T) {
	m, err := model.New(model.DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	meta := []byte(`{"step":200,"batch":2,"patch":96,"patch_min":32,"scales":[1.5,8],"wall_seconds":10,
		"init":{"file":"b.omw","steps":300,"wall_seconds":20,"init":{"file":"a.omw","steps":500,"wall_seconds":30}}}`)
	opt := Options{Model: m, Weights: "w.omw", Meta: meta}
	var b md
	writeIntro(&b, &Results{Model: modelInfo(opt), Twelve: &eval.Result{}}, opt)
	for _, want := range []string{"trained for 200 steps of batch 2 (patch sides 32 to 96, factors 1.5 to 8) in 10 s",
		"starting from b.omw (300 steps, 20 s), starting from a.omw (500 steps, 30 s): 1000 steps in all"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("intro lacks %q:\n%s", want, b.String())
		}
	}
}

// The whole-scene row gives each factor's ratios to GDAL's wall time, and
// says when it was not run.
func TestWriteSceneRow(t *testing.T) {
	child := func(name string, s float64) bench.Child {
		return bench.Child{Name: name, Wall: time.Duration(s * float64(time.Second)), MaxRSS: 1 << 30}
	}
	rows := []bench.SceneRow{{Factor: 4, OutH: 2048, OutW: 2048, Children: []bench.Child{
		child(bench.ChildGDAL, 3.2), child(bench.ChildGDALSync, 4.0),
		child(bench.ChildBicubic, 2.88), child(bench.ChildModel, 6.4)}}}
	var b md
	writeSceneRow(&b, rows)
	for _, want := range []string{"| x4 | 2048 x 2048 | `omnihsr upscale` | 6.40 | 2.00 |", "at x4 bicubic takes 0.90 and the model 2.00 times GDAL's wall time"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in:\n%s", want, b.String())
		}
	}
	var none md
	writeSceneRow(&none, nil)
	if !strings.Contains(none.String(), "not run in this report") {
		t.Errorf("no rows:\n%s", none.String())
	}
}
