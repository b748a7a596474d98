package main

import (
	"fmt"
	"strings"

	"github.com/omnihsr/omnihsr/hsi/formats"
)

// formatsHelp is the formats table of the commands' help: for each format
// of the registry (hsi/formats) a line with its extensions and whether it
// is written, and an indented line of what it keeps (which the help's
// wrapping breaks to 80 columns).
func formatsHelp() string {
	fs := formats.Formats()
	wExt := 0
	for _, f := range fs {
		wExt = max(wExt, len(strings.Join(f.Exts, " ")))
	}
	var b strings.Builder
	for _, f := range fs {
		mode := "read, write"
		if f.Write == nil {
			mode = "read only"
		}
		fmt.Fprintf(&b, "  %-5s %-*s  %s\n        %s\n", f.Name, wExt, strings.Join(f.Exts, " "), mode, f.Note)
	}
	return b.String()
}

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
