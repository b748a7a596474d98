package main

import (
	"fmt"
	"io"
	"os"

	"github.com/omnihsr/omnihsr/internal/progress"
)

// progressEnv is the environment variable that makes upscale and degrade
// print machine-readable progress on stderr: with OMNIHSR_PROGRESS=1, lines
// "progress F" (F the fraction done, 0.000 to 1.000) among the command's
// other stderr lines, for a program that runs omnihsr through a pipe (the
// QGIS provider under qgis/); the ETA line is for terminals only.
const progressEnv = "OMNIHSR_PROGRESS"

// printsProgress are the commands that print progress (newBar): only
// they read OMNIHSR_PROGRESS, so that a bad value does not fail the others.
var printsProgress = map[string]bool{"upscale": true, "degrade": true}

// machineProgress reports whether OMNIHSR_PROGRESS asks for "progress F"
// lines: "1" yes, unset, "" or "0" no, anything else an error.
func machineProgress() (bool, error) {
	switch v := os.Getenv(progressEnv); v {
	case "", "0":
		return false, nil
	case "1":
		return true, nil
	default:
		return false, fmt.Errorf("%s=%q: want 1 (print \"progress F\" lines on stderr) or 0", progressEnv, v)
	}
}

// newBar returns the progress bar of total units of a command's work:
// "progress F" lines on stderr with OMNIHSR_PROGRESS=1, else a line with
// an ETA when stderr is a terminal, else nothing.
func newBar(stderr io.Writer, label string, total int64) *progress.Bar {
	if on, _ := machineProgress(); on { // checked in runContext
		return progress.NewMachine(stderr, total)
	}
	tty := terminal(stderr)
	return progress.NewTo(tty, label, total, tty != nil)
}
