package helptext

import (
	"strings"
	"testing"
)

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		width          int
	}{
		{"short lines are kept", "a  b\n\tc", "a  b\n\tc", 10},
		{"prose continues under its indentation",
			"  one two three four five six",
			"  one two three\n  four five six", 16},
		{"a bullet continues under its text",
			"- one two three four",
			"- one two\n  three four", 12},
		{"a flag's description continues under itself",
			"    \tone two three four five",
			"    \tone two\n    \tthree four\n    \tfive", 18},
		{"a table row continues under its description",
			"  name    one two three four five",
			"  name    one two\n          three four\n          five", 20},
		{"a usage line continues under its first argument, outside brackets",
			"Usage: prog cmd -in X (-a A | -b B) [-c C]",
			"Usage: prog cmd -in X\n                (-a A | -b B)\n                [-c C]", 28},
		{"a command line ends its broken lines with a backslash",
			"  omnihsr upscale -in a.tif -out b.tif -scale 4",
			"  omnihsr upscale -in a.tif \\\n      -out b.tif -scale 4", 30},
		{"a command line breaks before a flag, not before its value",
			"  omnihsr upscale -in a.tif -type same",
			"  omnihsr upscale -in a.tif \\\n      -type same", 36},
		{"a command line without a flag to break at breaks at a space",
			"  omnihsr info a.tif b.tif c.tif",
			"  omnihsr info a.tif \\\n      b.tif c.tif", 24},
		{"a table row whose first cell is omnihsr is a table row",
			"  omnihsr     the model, and what it is",
			"  omnihsr     the model, and\n              what it is", 30},
		{"a one-letter flag's description continues where the others' do",
			"  -v\talso print the detail",
			"  -v\talso print\n    \tthe detail", 20},
		{"a synopsis is prose, not a command",
			"omnihsr upscale: super-resolve a file",
			"omnihsr upscale:\nsuper-resolve a file", 20},
		{"a word longer than the width is kept whole",
			"ab averyveryverylongword cd",
			"ab\naveryveryverylongword\ncd", 10},
		{"an unbreakable line is kept", "averyveryverylongword", "averyveryverylongword", 10},
		{"a paragraph broken a little past the width reflows whole",
			"one two three four\nfive six seven\neight.\nNine ten",
			"one two three\nfour five six\nseven eight.\nNine ten", 14},
		{"a blank line ends a paragraph",
			"one two three\n\nfour five six seven",
			"one two three\n\nfour five six\nseven", 14},
		{"a paragraph within the width is kept",
			"one two\nthree",
			"one two\nthree", 14},
		{"a numbered item starts its own paragraph",
			"  1. one two three four\n  2. five",
			"  1. one two three\n  four\n  2. five", 18},
		{"a comment continues as a comment",
			"  # one two three four five\n  #   omnihsr info x",
			"  # one two three four\n  # five\n  #   omnihsr info x", 22},
		{"a second synopsis continues under its first argument",
			"   or: omnihsr bench -scene S [-runs N]",
			"   or: omnihsr bench -scene S\n                     [-runs N]", 30},
		{"tabs count to the next multiple of 8",
			"\tone two",
			"\tone\n\ttwo", 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Wrap(tc.in, tc.width); got != tc.want {
				t.Errorf("Wrap(%q, %d) =\n%s\nwant\n%s", tc.in, tc.width, got, tc.want)
			}
		})
	}
}

// Wrapping moves no word: the words of the result, less the commands'
// continuation marks, are the words of the input, in order; every line
// fits the width unless it is one word (after its indentation and mark).
func TestWrapKeepsWords(t *testing.T) {
	in := strings.Join([]string{
		"omnihsr upscale: super-resolve a hyperspectral file by any factor(s) (OmniHSR model or bicubic)",
		"Usage: omnihsr upscale -in LR -out SR (-scale S | -size HxW | -scales S1,S2,...) [-method M] [-weights FILE] [-adapt STEPS|auto] [-var NAME]",
		"  upscale    super-resolve a hyperspectral file by any factor(s) (OmniHSR model or bicubic)",
		"    \tper-scene adaptation: fine-tune the model on the input itself for STEPS steps, or auto, before rendering (default \"0\")",
		"  omnihsr upscale -in sample/L7_ETMs.tif -out out/sample_x2.tif -scale 2 -type same -of COG -co COMPRESS=ZSTD",
		"  - a bullet of prose that runs on well past the end of a terminal's eighty columns, to be wrapped",
	}, "\n")
	got := Wrap(in, Width)
	words := func(s string) []string {
		var w []string
		for _, f := range strings.Fields(s) {
			if f != `\` {
				w = append(w, f)
			}
		}
		return w
	}
	if a, b := strings.Join(words(in), " "), strings.Join(words(got), " "); a != b {
		t.Errorf("words changed:\n%s\n%s", a, b)
	}
	for _, line := range strings.Split(got, "\n") {
		if columns(line, 0) > Width && len(words(line)) > 1 {
			t.Errorf("line of %d columns: %q", columns(line, 0), line)
		}
	}
	if n := strings.Count(got, "\n"); n <= strings.Count(in, "\n")+6 {
		t.Errorf("%d lines from %d: every long line should have been broken:\n%s", n+1, strings.Count(in, "\n")+1, got)
	}
}

func TestColumns(t *testing.T) {
	for _, tc := range []struct {
		line string
		want int
	}{{"", 0}, {"abc", 3}, {"    \tx", 9}, {"  -v\tx", 9}, {"\t\t", 16}, {"é", 1}} {
		if got := Columns(tc.line); got != tc.want {
			t.Errorf("Columns(%q) = %d, want %d", tc.line, got, tc.want)
		}
	}
}
