package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/internal/ablation"
	"github.com/omnihsr/omnihsr/internal/model"
)

// writeVariantWeights saves a small randomised model of the given variant
// with training metadata.
func writeVariantWeights(t *testing.T, dir, variant string, meta string) string {
	t.Helper()
	cfg := model.DefaultConfig()
	cfg.Encoder.C, cfg.Encoder.Blocks, cfg.Encoder.FFNRatio, cfg.FiLMHidden = 8, 1, 2, 8
	cfg.Variant = variant
	m, err := model.New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 3))
	for _, p := range m.Params() {
		for i := range p.T.Data {
			p.T.Data[i] += 0.02 * float32(r.NormFloat64())
		}
	}
	p := filepath.Join(dir, model.VariantLabel(variant)+".omw")
	if err := m.Save(p, []byte(meta)); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAblationCommand(t *testing.T) {
	dir := t.TempDir()
	in := writeTestCube(t, dir)
	meta := `{"trained":true,"step":20,"steps":20,"batch":2,"patch":128,"scales":[1.5,8],"hsi_prob":0.3,"band_subset":0.5,"seed":2026,"lr":0.0002,"wall_seconds":61}`
	var ws []string
	for _, v := range model.Variants {
		ws = append(ws, model.VariantLabel(v)+"="+writeVariantWeights(t, dir, v, meta))
	}
	notes := filepath.Join(dir, "notes.md")
	os.WriteFile(notes, []byte("\nOur spectral run trails bicubic.\n\n"), 0o644)
	args := func(out, md string) []string {
		return []string{"ablation", "-files", in, "-factors", "2,4", "-weights", strings.Join(ws, ","), "-out", out, "-md", md, "-notes", notes}
	}
	var so, se bytes.Buffer
	out, md := filepath.Join(dir, "a.json"), filepath.Join(dir, "a.md")
	if code := run(args(out, md), &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{
		"| Factor | Scene | Bicubic | omnihsr | free-kernel | lowres | spectral |",
		"| x2 | scene (6) |", "| x4 | scene (6) |",
		"| spectral | spectral |", "20 of 20", "natural images + HSI training scenes",
		"All runs share", "tab:ablation_full", "Reference run: omnihsr",
		"## Discussion\n\nOur spectral run trails bicubic.\n\n## The paper's figures",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("markdown lacks %q:\n%s", want, text)
		}
	}
	if strings.Count(text, "**") < 4 {
		t.Errorf("no best value marked:\n%s", text)
	}
	var js ablation.Result
	jb, _ := os.ReadFile(out)
	if err := json.Unmarshal(jb, &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Runs) != 4 || js.Runs[3].Variant != "spectral" || js.Runs[0].Meta.Patch != 128 || len(js.Result.Config.Methods) != 5 {
		t.Fatalf("JSON: %+v", js.Runs)
	}
	// Deterministic: a second run writes the same bytes.
	out2, md2 := filepath.Join(dir, "b.json"), filepath.Join(dir, "b.md")
	if code := run(args(out2, md2), &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	for _, p := range [][2]string{{out, out2}, {md, md2}} {
		x, _ := os.ReadFile(p[0])
		y, _ := os.ReadFile(p[1])
		for _, n := range []string{"a.json", "b.json", "a.md", "b.md"} {
			x = bytes.ReplaceAll(x, []byte(n), nil)
			y = bytes.ReplaceAll(y, []byte(n), nil)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s and %s differ", p[0], p[1])
		}
	}
	// Bad arguments.
	for _, bad := range [][]string{
		{"ablation", "-files", in},
		{"ablation", "-files", in, "-weights", "x"},
		{"ablation", "-files", in, "-weights", "bicubic=" + filepath.Join(dir, "omnihsr.omw")},
		{"ablation", "-files", in, "-weights", "a=" + filepath.Join(dir, "omnihsr.omw") + ",a=" + filepath.Join(dir, "lowres.omw")},
	} {
		if code := run(bad, &so, &se); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	if code := run([]string{"ablation", "-files", in, "-weights", "a=" + filepath.Join(dir, "missing.omw"), "-out", out, "-md", md}, &so, &se); code != 1 {
		t.Errorf("missing weight file: exit %d, want 1", code)
	}
}
