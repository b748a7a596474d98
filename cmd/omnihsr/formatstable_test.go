package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi/formats"
)

var updateReadme = flag.Bool("update", false, "rewrite the README's formats table from hsi/formats")

const (
	formatsBegin = "<!-- formats table: generated from hsi/formats by cmd/omnihsr (go test ./cmd/omnihsr -run TestFormatsTable -update) -->\n"
	formatsEnd   = "<!-- end of formats table -->"
)

// The README's formats table is the registry's (formatsMarkdown), and
// `omnihsr help formats` prints the same registry: every format's name,
// extensions and note appear in both.
func TestFormatsTable(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, formatsBegin)
	j := strings.Index(s, formatsEnd)
	if i < 0 || j < i {
		t.Fatalf("README has no formats table between %q and %q", strings.TrimSpace(formatsBegin), formatsEnd)
	}
	got := s[i+len(formatsBegin) : j]
	want := formatsMarkdown()
	if got != want {
		if *updateReadme {
			if err := os.WriteFile(path, []byte(s[:i+len(formatsBegin)]+want+s[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Log("README's formats table rewritten")
		} else {
			t.Errorf("README's formats table is not the registry's; run go test ./cmd/omnihsr -run TestFormatsTable -update\ngot:\n%s\nwant:\n%s", got, want)
		}
	}
	var out, errb strings.Builder
	if code := run([]string{"help", "formats"}, &out, &errb); code != 0 {
		t.Fatalf("help formats: exit %d: %s", code, errb.String())
	}
	for _, f := range formats.Formats() {
		for _, part := range append([]string{f.Name, f.Note}, f.Exts...) {
			if !strings.Contains(strings.Join(strings.Fields(out.String()), " "), part) || !strings.Contains(want, strings.ReplaceAll(part, "|", `\|`)) {
				t.Errorf("%s: %q is not in both help formats and the README's table", f.Name, part)
			}
		}
	}
	for _, level := range []string{"L2D", "L2C", "L2B", "L1"} {
		if !strings.Contains(want, "PRISMA") || !strings.Contains(want, level) {
			t.Errorf("the formats table does not name PRISMA %s, which hsi/products reads", level)
		}
	}
}
