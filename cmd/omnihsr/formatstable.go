package main

import (
	"fmt"
	"strings"

	"github.com/omnihsr/omnihsr/hsi/formats"
)

// formatsMarkdown is the formats table of the README, made from the same
// registry (hsi/formats) as the table in `omnihsr help formats`: a test
// keeps the README's copy equal to it.
func formatsMarkdown() string {
	var b strings.Builder
	b.WriteString("| format | extensions | read, write | what it keeps, what it reads |\n|---|---|---|---|\n")
	for _, f := range formats.Formats() {
		mode := "read, write"
		if f.Write == nil {
			mode = "read only"
		}
		exts := make([]string, len(f.Exts))
		for i, e := range f.Exts {
			exts[i] = "`" + e + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", f.Name, strings.Join(exts, " "), mode, strings.ReplaceAll(f.Note, "|", `\|`))
	}
	return b.String()
}
