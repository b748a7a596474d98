package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/scenes"
)

// writeTestCube writes a smooth 70x130x6 cube as .npy and returns its path.
func writeTestCube(t *testing.T, dir string) string {
	t.Helper()
	c := hsi.MustNew(70, 130, 6)
	for y := 0; y < c.H; y++ {
		for x := 0; x < c.W; x++ {
			for b := 0; b < c.B; b++ {
				c.Set(y, x, b, float32(500+200*math.Sin(0.2*float64(x)+0.1*float64(b))*math.Cos(0.15*float64(y))))
			}
		}
	}
	p := filepath.Join(dir, "scene.npy")
	if err := formats.Write(p, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEvalCommandOnFiles(t *testing.T) {
	dir := t.TempDir()
	in := writeTestCube(t, dir)
	out := filepath.Join(dir, "r_{protocol}.json")
	var so, se bytes.Buffer
	if code := run([]string{"eval", "-files", in, "-protocol", "seven,twelve", "-factors", "2,x4", "-out", out}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	for _, p := range []string{"seven", "twelve"} {
		res, err := eval.ReadJSON(filepath.Join(dir, "r_"+p+".json"))
		if err != nil {
			t.Fatal(err)
		}
		// seven: 2 tiles of 64x64 (remote sensing by default); twelve: one 70x70 crop.
		want := map[string]int{"seven": 2 * 2, "twelve": 2}[p]
		if len(res.Records) != want || res.Config.Protocol != p || res.Scenes[0].Name != "scene" {
			t.Errorf("%s: %d records, config %+v", p, len(res.Records), res.Config)
		}
		md, err := os.ReadFile(filepath.Join(dir, "r_"+p+".md"))
		if err != nil || !bytes.Contains(md, []byte("| Bicubic |")) || !bytes.Contains(md, []byte("-files")) {
			t.Errorf("%s markdown: %v\n%s", p, err, md)
		}
	}
	// A close-range sensor turns the tiles into one centred crop.
	if code := run([]string{"eval", "-files", in, "-sensor", "CAVE", "-protocol", "seven", "-factors", "2", "-out", filepath.Join(dir, "c.json"), "-md", filepath.Join(dir, "c.md")}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	res, err := eval.ReadJSON(filepath.Join(dir, "c.json"))
	if err != nil || res.Scenes[0].Geometry != "crop" || res.Scenes[0].Regions[0].H != 70 {
		t.Errorf("close-range scene: %v %+v", err, res)
	}
}

func TestPriorCommandOnFiles(t *testing.T) {
	dir := t.TempDir()
	in := writeTestCube(t, dir)
	var so, se bytes.Buffer
	if code := run([]string{"prior", "-files", in, "-out", filepath.Join(dir, "p.json")}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "p.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res eval.PriorResult
	if err := json.Unmarshal(b, &res); err != nil || len(res.Rows) != 2 || res.Rows[0].Images != 2 {
		t.Fatalf("prior JSON: %v %+v", err, res.Rows)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "p.md"))
	if !bytes.Contains(md, []byte("| scene (6) |")) || !bytes.Contains(md, []byte("## Comparison")) {
		t.Errorf("prior markdown:\n%s", md)
	}
}

func TestEvalCommandErrors(t *testing.T) {
	dir := t.TempDir()
	in := writeTestCube(t, dir)
	for _, args := range [][]string{
		{"eval", "-files", in, "-protocol", "nine"},
		{"eval", "-files", in, "-factors", "0"},
		{"eval", "-files", in, "-factors", "two"},
		{"eval", "-files", in, "-methods", "nosuch"},
		{"eval", "-files", in, "-noise", "-1"},
		{"eval", "-files", in, "-geometry", "hex"},
		{"eval", "-files", in, "stray"},
		{"prior", "-files", in, "-ridge", "0"},
		{"train", "-out", filepath.Join(dir, "t"), "-steps", "10", "-stop-at", "11"},
		{"train", "-out", filepath.Join(dir, "t"), "-stop-at", "-1"},
		{"train", "-out", filepath.Join(dir, "t"), "-snapshot-every", "-5"},
	} {
		var so, se bytes.Buffer
		if code := run(args, &so, &se); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, se.String())
		}
	}
	// A missing file is an error naming it, not a usage error.
	var so, se bytes.Buffer
	missing := filepath.Join(dir, "missing.npy")
	if code := run([]string{"eval", "-files", missing, "-out", filepath.Join(dir, "m.json")}, &so, &se); code != 1 || !strings.Contains(se.String(), "missing.npy") {
		t.Errorf("missing file: exit %d, %q", code, se.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "m.json")); err == nil {
		t.Error("an output was written for a failed run")
	}
}

func TestOutputPath(t *testing.T) {
	for _, tc := range []struct {
		pattern, protocol string
		several           bool
		want              string
	}{
		{"docs/b_{protocol}.json", "seven", true, "docs/b_seven.json"},
		{"r.json", "twelve", true, "r_twelve.json"},
		{"r.json", "twelve", false, "r.json"},
	} {
		if got := evalOutputPath(tc.pattern, tc.protocol, tc.several); got != tc.want {
			t.Errorf("evalOutputPath(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
	}
}

// The committed bicubic tables regenerate byte-identically (timing aside)
// from the shared data.
func TestEvalSharedSevenMatchesDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	list, ok := scenes.DefaultList()
	if !ok {
		t.Skip("../shared/data/hsi/scenes.tsv not found; set OMNIHSR_SHARED")
	}
	committed, err := os.ReadFile("../../docs/bicubic_seven.md")
	if err != nil {
		t.Skip("docs/bicubic_seven.md not present")
	}
	dir := t.TempDir()
	var so, se bytes.Buffer
	if code := run([]string{"eval", "-scenes", list, "-methods", "bicubic", "-protocol", "seven", "-out", filepath.Join(dir, "s.json")}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	got, _ := os.ReadFile(filepath.Join(dir, "s.md"))
	strip := func(b []byte) string {
		s := string(b)
		if i := strings.Index(s, "## Time per image"); i >= 0 {
			s = s[:i]
		}
		// The recorded command differs (paths); compare everything else.
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "Regenerate with") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if strip(got) != strip(committed) {
		t.Errorf("docs/bicubic_seven.md is stale; regenerate it with the command it names.\ngot:\n%s", strip(got))
	}
}

func TestEvalReportCommand(t *testing.T) {
	dir := t.TempDir()
	in := writeTestCube(t, dir)
	var so, se bytes.Buffer
	// -report runs its own experiments: a single-table flag is refused.
	if code := run([]string{"eval", "-files", in, "-report", dir, "-methods", "bicubic"}, &so, &se); code != 2 || !strings.Contains(se.String(), "-methods") {
		t.Fatalf("-report with -methods: exit %d, %s", code, se.String())
	}
	se.Reset()
	rep := filepath.Join(dir, "rep")
	if code := run([]string{"eval", "-files", in, "-report", rep, "-no-bench"}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	md, err := os.ReadFile(filepath.Join(rep, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Regenerate with `omnihsr eval -files", "-no-bench -report", "| scene (6) | Bicubic |", "results/fig_scene_x4.png"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("results.md lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(rep, "results", "fig_scene_x4.png")); err != nil {
		t.Error(err)
	}
}

// TestReportRegenerates regenerates docs/results.md with the embedded model
// and compares it with the committed one, except the latency section (timing)
// and the output folder in the "Regenerate with" line; the figures must be
// byte-identical. Opt-in (OMNIHSR_REPORT_CHECK=1, needs ../shared, about a
// minute): a different CPU's BLAS kernels may round a last digit differently.
func TestReportRegenerates(t *testing.T) {
	if os.Getenv("OMNIHSR_REPORT_CHECK") == "" {
		t.Skip("set OMNIHSR_REPORT_CHECK=1 to regenerate docs/results.md and compare (needs ../shared)")
	}
	if eval.DefaultScenesTSV() == "" {
		t.Skip("../shared/data/hsi/scenes.tsv not found")
	}
	docs := filepath.Join("..", "..", "docs")
	dir := t.TempDir()
	if b, err := os.ReadFile(filepath.Join(docs, "positions.json")); err == nil {
		if err := os.WriteFile(filepath.Join(dir, "positions.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var so, se bytes.Buffer
	if code := run([]string{"eval", "-report", dir}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	strip := func(b []byte) string {
		s := string(b)
		if i, j := strings.Index(s, "\n## 7. "), strings.Index(s, "\n## 8. "); i >= 0 && j > i {
			s = s[:i] + s[j:]
		}
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "Regenerate with `omnihsr eval -report ") {
				out = append(out, l)
			}
		}
		return strings.Join(out, "\n")
	}
	want, err := os.ReadFile(filepath.Join(docs, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	if g, w := strip(got), strip(want); g != w {
		gl, wl := strings.Split(g, "\n"), strings.Split(w, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("results.md differs from the committed one at line %d:\n got: %s\nwant: %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("results.md differs from the committed one (%d vs %d lines)", len(gl), len(wl))
	}
	ents, err := os.ReadDir(filepath.Join(docs, "results"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".png") {
			continue
		}
		a, _ := os.ReadFile(filepath.Join(docs, "results", e.Name()))
		b, err := os.ReadFile(filepath.Join(dir, "results", e.Name()))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s is not byte-identical to the committed figure (%v)", e.Name(), err)
		}
	}
}
