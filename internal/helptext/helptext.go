package helptext

import (
	"io"
	"strings"
	"unicode/utf8"
)

// Width is the width help is wrapped to: the 80 columns of a terminal that
// a user has not widened.
const Width = 80

// tableColumn is the furthest column a table row's description may start at
// for its continuation lines to be indented under it; a row whose
// description starts further right continues under its own indentation.
const tableColumn = 32

// Fprint writes text to w wrapped to Width, as every command's help is
// printed.
func Fprint(w io.Writer, text string) error {
	_, err := io.WriteString(w, Wrap(text, Width))
	return err
}

// Wrap returns text with its long lines broken to width columns as the
// package's documentation says; a tab counts to the next multiple of 8
// columns. A paragraph broken by hand (lines that continue one another: the
// same indentation as the first line's continuation, no sentence ended and
// no list item started between them) that has a line past the width is
// reflowed whole, so that no short line is left in its middle; text within
// the width is kept as it is.
func Wrap(text string, width int) string {
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); {
		line := lines[i]
		body := strings.TrimLeft(line, " \t")
		if body == "" {
			out = append(out, line)
			i++
			continue
		}
		sh := classify(line[:len(line)-len(body)], body)
		j := i + 1
		long := columns(line, 0) > width
		for j < len(lines) && continues(sh, lines[j-1], lines[j]) {
			long = long || columns(lines[j], 0) > width
			j++
		}
		if !long {
			out = append(out, lines[i:j]...)
			i = j
			continue
		}
		para := line
		for _, l := range lines[i+1 : j] {
			l = strings.TrimLeft(l, " \t")
			if sh.k == comment {
				l = strings.TrimLeft(strings.TrimPrefix(l, "#"), " ")
			}
			para += " " + l
		}
		out = append(out, wrapLine(para, width, sh)...)
		i = j
	}
	return strings.Join(out, "\n")
}

// kind is how a line's continuation lines are made.
type kind int

const (
	prose   kind = iota // under the line's indentation
	comment             // a shell comment: under it, after "# "
	flagDoc             // under the tab-indented description
	table               // under the row's description
	usage               // under the first argument, breaking outside brackets
	command             // a shell command: " \" ends each broken line
)

// shape is how a line is broken: its kind, the indentation of its
// continuation lines, and the first byte of the line a break may come after
// (the start of a table row's description, of a usage line's arguments).
type shape struct {
	k      kind
	cont   string
	minCut int
}

// continues tells whether next continues prev, a line of a paragraph of
// shape sh: prose, a comment, a table's description or a usage line's
// arguments, at the indentation of sh's continuation lines, with no
// sentence ended and no list item started between them.
func continues(sh shape, prev, next string) bool {
	switch sh.k {
	case command, flagDoc:
		return false
	}
	body := strings.TrimLeft(next, " \t")
	lead := next[:len(next)-len(body)]
	want := sh.cont
	if sh.k == comment {
		want = strings.TrimSuffix(want, "# ")
	}
	if body == "" || lead != want {
		return false
	}
	own := classify(lead, body).k // what next would be on its own
	switch sh.k {
	case usage:
		return own == usage || strings.HasPrefix(body, "-")
	case comment:
		if own != comment {
			return false
		}
		body = strings.TrimLeft(body[2:], " ")
		if strings.HasPrefix(body, "omnihsr") {
			return false // a command shown in a comment
		}
	default:
		if own != prose {
			return false
		}
	}
	if strings.HasSuffix(prev, ".") || strings.HasSuffix(prev, ":") || strings.HasPrefix(body, "- ") || strings.HasPrefix(body, "* ") {
		return false
	}
	if n, _, ok := strings.Cut(body, " "); ok && len(n) > 1 && (n[len(n)-1] == '.' || n[len(n)-1] == ')') && strings.Trim(n[:len(n)-1], "0123456789") == "" {
		return false // a numbered item
	}
	return true
}

// Columns is the display width of line on a terminal: tabs advance to the
// next multiple of 8 columns, other runes count one.
func Columns(line string) int { return columns(line, 0) }

// columns is the display width of s from column start: tabs advance to the
// next multiple of 8, other runes count one.
func columns(s string, start int) int {
	c := start
	for _, r := range s {
		if r == '\t' {
			c = (c/8 + 1) * 8
		} else {
			c++
		}
	}
	return c - start
}

// wrapLine breaks line as sh says into lines of at most width columns
// (a word longer than the room stays whole).
func wrapLine(line string, width int, sh shape) []string {
	budget := width
	if sh.k == command {
		budget = width - 2 // room for " \"
	}
	var out []string
	first := true
	rest := line
	for {
		prefixCols := 0
		if !first {
			prefixCols = columns(sh.cont, 0)
		}
		if prefixCols+columns(rest, prefixCols) <= width {
			break
		}
		lo := 0
		if first {
			lo = sh.minCut
		}
		cut := -1
		if sh.k == command { // before a flag, not between a flag and its value
			cut = breakAt(rest, prefixCols, budget, false, lo, true)
		}
		if cut < 0 {
			cut = breakAt(rest, prefixCols, budget, sh.k == usage, lo, false)
		}
		if cut < 0 {
			break
		}
		head := strings.TrimRight(rest[:cut], " ")
		if sh.k == command {
			head += " \\"
		}
		if first {
			out = append(out, head)
		} else {
			out = append(out, sh.cont+head)
		}
		rest = strings.TrimLeft(rest[cut:], " ")
		first = false
	}
	if first {
		return []string{line}
	}
	return append(out, sh.cont+rest)
}

// classify tells a line's shape from its indentation lead and the text
// after it.
func classify(lead, body string) shape {
	leadCols := columns(lead, 0)
	under := func(col int) string { return strings.Repeat(" ", col) }
	if strings.Contains(lead, "\t") {
		return shape{flagDoc, lead, len(lead)}
	}
	f := strings.Fields(body)
	for _, p := range []string{"Usage: ", "or: "} {
		if !strings.HasPrefix(body, p) || len(f) < 2 {
			continue
		}
		at := len(p)
		for _, w := range f[1:] {
			if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "(") || strings.HasPrefix(w, "[") || w == strings.ToUpper(w) {
				break
			}
			at += len(w) + 1
		}
		if at >= len(body) {
			at = len(p)
		}
		return shape{usage, under(leadCols + utf8.RuneCountInString(body[:at])), len(lead) + at}
	}
	// A one-letter boolean flag: the flag package puts its description on
	// the flag's line after a tab, and the others' under it.
	if name, _, ok := strings.Cut(body, "\t"); ok && strings.HasPrefix(name, "-") && !strings.Contains(name, " ") {
		return shape{flagDoc, "    \t", len(lead) + len(name) + 1}
	}
	// A usage line's own continuation.
	if leadCols > 0 && (strings.HasPrefix(body, "[") || strings.HasPrefix(body, "(")) {
		return shape{usage, lead, len(lead)}
	}
	if strings.HasPrefix(body, "# ") {
		return shape{comment, lead + "# ", len(lead) + 2}
	}
	if strings.HasPrefix(body, "- ") || strings.HasPrefix(body, "* ") {
		return shape{prose, under(leadCols + 2), len(lead) + 2}
	}
	// A table row: its first cell, then two spaces or more, then text.
	if i := strings.Index(body, "  "); i > 0 {
		j := i
		for j < len(body) && body[j] == ' ' {
			j++
		}
		if col := leadCols + utf8.RuneCountInString(body[:j]); j < len(body) && col <= tableColumn {
			return shape{table, under(col), len(lead) + j}
		}
	}
	if len(f) >= 2 && (f[0] == "omnihsr" || f[0] == "omnihsr-batch") && !strings.HasSuffix(f[0], ":") && !strings.HasSuffix(f[1], ":") {
		return shape{command, lead + "    ", len(lead)}
	}
	return shape{prose, lead, len(lead)}
}

// breakAt is the byte index in s to break it at: the last space at or
// after byte lo whose text before it fits in budget columns (s starting
// at column start), outside brackets when brackets is set; or, when no
// such space exists, the first such space past the budget (a word longer
// than the room is kept whole); -1 when s cannot be broken. With dash, only
// spaces before a word starting with '-' count, and none past the budget.
func breakAt(s string, start, budget int, brackets bool, lo int, dash bool) int {
	depth := 0
	best, over := -1, -1
	col := start
	for i, r := range s {
		switch {
		case r == '[' || r == '(':
			depth++
		case (r == ']' || r == ')') && depth > 0:
			depth--
		case r == ' ' && i > 0 && s[i-1] != ' ' && i >= lo && (!brackets || depth == 0) && (!dash || strings.HasPrefix(s[i+1:], "-")):
			if col <= budget {
				best = i
			} else if over < 0 {
				over = i
			}
		}
		if r == '\t' {
			col = (col/8 + 1) * 8
		} else {
			col++
		}
		if col > budget && best >= 0 {
			return best
		}
	}
	if best >= 0 || dash {
		return best
	}
	return over
}
