// Package mdtab writes the Markdown tables of the project's reports (eval's
// tables, the evaluation report) with one fixed formatting of numbers, so
// that regenerated files differ only where the figures do.
package mdtab

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// Header writes a header row and its rule: the first left columns
// left-aligned, the others right-aligned (numbers).
func Header(w io.Writer, cols []string, left int) {
	var b strings.Builder
	b.WriteString("| " + strings.Join(cols, " | ") + " |\n|")
	for i := range cols {
		if i < left {
			b.WriteString(" --- |")
		} else {
			b.WriteString(" ---: |")
		}
	}
	b.WriteString("\n")
	io.WriteString(w, b.String())
}

// Row writes one table row.
func Row(w io.Writer, cells ...string) {
	io.WriteString(w, "| "+strings.Join(cells, " | ")+" |\n")
}

// Num prints v with prec decimals; NaN as "n/a", infinities as "inf" and "-inf".
func Num(v float64, prec int) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return fmt.Sprintf("%.*f", prec, v)
}

// Signed prints v with its sign and prec decimals; a value that rounds to
// zero prints as +0.00 (never -0.00).
func Signed(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Num(v, prec)
	}
	s := fmt.Sprintf("%+.*f", prec, v)
	if s == fmt.Sprintf("-%.*f", prec, 0.0) {
		s = fmt.Sprintf("+%.*f", prec, 0.0)
	}
	return s
}
