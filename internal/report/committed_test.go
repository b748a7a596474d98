package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/internal/model"
)

// TestCommittedReport renders docs/results.md again from the committed
// JSON of docs/results/ (every figure of the report's run, the latency
// table included) with the embedded model's description, and wants the
// committed bytes: every table, quote of the paper (package paper) and
// sentence comes from the code.
func TestCommittedReport(t *testing.T) {
	dir := "../../docs"
	r, err := ReadResults(filepath.Join(dir, "results"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Bench == nil || r.Scene == nil || r.Adapt == nil {
		t.Fatal("docs/results/ lacks bench.json, scene.json or adapt.json")
	}
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Dir: dir, Model: m, Weights: EmbeddedWeights, Meta: json.RawMessage(model.DefaultMeta()),
		Positions: filepath.Join(dir, "positions.json"), Command: r.Twelve.Config.Command}
	r.Model = modelInfo(opt)
	want, err := os.ReadFile(filepath.Join(dir, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got := Markdown(r, opt); !bytes.Equal(got, want) {
		g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("docs/results.md line %d:\n got: %s\nwant: %s", i+1, g[i], w[i])
			}
		}
		t.Fatalf("docs/results.md: %d lines rendered, %d committed", len(g), len(w))
	}
}
