package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeBlocks returns the ```sh blocks of the repository's README, in order.
func readmeBlocks(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	rest := string(b)
	for {
		i := strings.Index(rest, "```sh\n")
		if i < 0 {
			return blocks
		}
		rest = rest[i+len("```sh\n"):]
		j := strings.Index(rest, "```")
		if j < 0 {
			t.Fatal("README: unterminated ```sh block")
		}
		blocks = append(blocks, rest[:j])
		rest = rest[j:]
	}
}

// The README's first block builds the binary and runs on the bundled sample
// only (no ../shared): its omnihsr commands, run here in a temporary output
// folder, succeed and leave a PNG preview of the x4 result. Its second block
// runs the tests.
func TestReadmeFirstBlockRunsOnTheSample(t *testing.T) {
	blocks := readmeBlocks(t)
	if len(blocks) < 2 {
		t.Fatalf("README has %d sh blocks, want the main job and the tests first", len(blocks))
	}
	if got := strings.TrimSpace(blocks[1]); got != "go test ./..." {
		t.Errorf("README's second block is %q, want go test ./...", got)
	}
	first := strings.ReplaceAll(blocks[0], "\\\n", " ")
	if strings.Contains(first, "shared") {
		t.Errorf("README's first block reads ../shared, which a fresh clone does not have:\n%s", first)
	}
	cmds := strings.Split(strings.TrimSpace(first), "&&")
	if !strings.HasPrefix(strings.TrimSpace(cmds[0]), "go build -o omnihsr ./cmd/omnihsr") {
		t.Errorf("README's first block starts with %q, want the build", cmds[0])
	}
	dir := t.TempDir()
	var lastPNG string
	var infoOut string
	ran := 0
	for _, c := range cmds[1:] {
		f := strings.Fields(c)
		if len(f) == 0 || f[0] != "./omnihsr" {
			t.Fatalf("README's first block runs %q, not an omnihsr command", strings.TrimSpace(c))
		}
		args := exampleArgs(f[1:], dir, "")
		for _, a := range args {
			if strings.HasSuffix(a, ".png") {
				lastPNG = a
			}
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.TrimSpace(c), code, stderr.String())
		}
		if args[0] == "info" {
			infoOut += stdout.String()
		}
		// What a first reader sees: the model's choice in plain words,
		// the paper's and the code's terms only under -v.
		if args[0] == "upscale" {
			for _, word := range []string{"gate", "feature", "operator field", "field gain", "routing"} {
				if strings.Contains(stderr.String(), word) {
					t.Errorf("README's main job prints %q on stderr without -v:\n%s", word, stderr.String())
				}
			}
			if !strings.Contains(stderr.String(), "% of the signal") || !strings.Contains(stderr.String(), "% limit") {
				t.Errorf("README's main job does not compare the noise with the limit in plain words:\n%s", stderr.String())
			}
		}
		ran++
	}
	// The first block shows that the sample's georeferencing reaches the
	// output: its CRS, and the pixel size divided by the factor.
	if !strings.Contains(infoOut, "(EPSG:31985)") || !strings.Contains(infoOut, "pixel size:     7.125 x 7.125 (x, y)\n") {
		t.Errorf("README's first block does not show the output's CRS (EPSG:31985) and 7.125 m pixels; info printed:\n%s", infoOut)
	}
	if ran < 2 || lastPNG == "" {
		t.Fatalf("README's first block runs %d omnihsr commands and writes no PNG preview", ran)
	}
	fh, err := os.Open(lastPNG)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	cfg, err := png.DecodeConfig(fh)
	if err != nil {
		t.Fatalf("%s: %v", lastPNG, err)
	}
	// The sample is 352 x 349 pixels; the README upscales it x4.
	if cfg.Width != 1396 || cfg.Height != 1408 {
		t.Errorf("preview is %d x %d, want the x4 result of the 349 x 352 sample, 1396 x 1408", cfg.Width, cfg.Height)
	}
}

// Every other README command on the bundled sample (an sh block's line
// that runs ./omnihsr on sample/) runs as printed, its outputs in a
// temporary folder: the examples a reader copies work.
func TestReadmeSampleCommandsRun(t *testing.T) {
	blocks := readmeBlocks(t)
	dir := t.TempDir()
	ran := 0
	for _, b := range blocks[1:] {
		for _, line := range strings.Split(strings.ReplaceAll(b, "\\\n", " "), "\n") {
			if i := strings.Index(line, "#"); i >= 0 {
				line = line[:i]
			}
			f := strings.Fields(line)
			if len(f) < 2 || f[0] != "./omnihsr" || !strings.Contains(line, "sample/") {
				continue
			}
			args := exampleArgs(f[1:], dir, "")
			var stdout, stderr bytes.Buffer
			if code := run(args, &stdout, &stderr); code != 0 {
				t.Errorf("README: %s: exit %d: %s", strings.TrimSpace(line), code, stderr.String())
			}
			ran++
		}
	}
	if ran == 0 {
		t.Fatal("README has no command on the sample besides the main job (the COG example)")
	}
}

// listItem matches the first line of a Markdown list item.
var listItem = regexp.MustCompile(`^\s*([-*+]|[0-9]+[.)])\s`)

// The README reads as an introduction: the quick start (the main job and
// the tests) within its first 40 lines, no paragraph over 800 characters,
// an example of a compressed COG output, and ../shared explained where
// commands need it.
func TestReadmeShape(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	lines := strings.Split(text, "\n")
	first := strings.Join(lines[:min(40, len(lines))], "\n")
	for _, want := range []string{"## Quick start", "./omnihsr upscale -in sample/", "go test ./..."} {
		if !strings.Contains(first, want) {
			t.Errorf("README's first 40 lines lack %q (the quick start)", want)
		}
	}
	inFence := false
	var para []string
	flush := func() {
		p := strings.Join(para, " ")
		para = para[:0]
		if len(p) > 800 {
			t.Errorf("README paragraph of %d characters (at most 800): %.120s...", len(p), p)
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
			flush()
			continue
		}
		if inFence || strings.HasPrefix(l, "|") || strings.HasPrefix(l, "<!--") {
			flush()
			continue
		}
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			flush()
			continue
		}
		if listItem.MatchString(l) { // a list item is a paragraph of its own
			flush()
		}
		para = append(para, strings.TrimSpace(l))
	}
	flush()
	if !strings.Contains(text, "-of COG -co COMPRESS=ZSTD") {
		t.Error("README shows no example with -of COG -co COMPRESS=ZSTD")
	}
	if !strings.Contains(text, "`../shared`: the project's development data") || !strings.Contains(text, "not shipped") {
		t.Error("README does not say what ../shared is (development data, not shipped)")
	}
}
