package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// stopSignals are the signals after which a command removes its
// temporary files and exits with 128 + the signal number.
var stopSignals = map[os.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}

// catchSignals stops the process on SIGINT, SIGTERM or SIGHUP: it removes
// every temporary file of an unfinished output (atomicfile.RemoveAll),
// prints one line naming the command, the signal and those outputs to
// stderr, and exits with 128 + the signal number (130, 143, 129).
func catchSignals(name string, stderr io.Writer) {
	ch := make(chan os.Signal, 1)
	for s := range stopSignals {
		signal.Notify(ch, s)
	}
	go func() {
		sig := <-ch
		dests := atomicfile.RemoveAll()
		slices.Sort(dests)
		dests = slices.Compact(dests)
		what := "no output was being written"
		if len(dests) > 0 {
			what = "removed the unfinished " + strings.Join(dests, ", ")
		}
		fmt.Fprintf(stderr, "omnihsr %s: interrupted by %s; %s\n", name, stopSignals[sig], what)
		code := 1
		if n, ok := sig.(syscall.Signal); ok {
			code = 128 + int(n)
		}
		os.Exit(code)
	}()
}
