package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// cleanup holds the local directories to remove when a signal stops the
// process (the private temporary directory, scene scratch directories).
var cleanup = struct {
	sync.Mutex
	dirs map[string]bool
}{dirs: map[string]bool{}}

// removeOnSignal registers dir for removal on a stop signal; the returned
// function removes it now and unregisters it.
func removeOnSignal(dir string) func() {
	cleanup.Lock()
	cleanup.dirs[dir] = true
	cleanup.Unlock()
	return func() {
		cleanup.Lock()
		delete(cleanup.dirs, dir)
		cleanup.Unlock()
		os.RemoveAll(dir)
	}
}

// stopSignals are the signals after which the command cleans up and exits
// with 128 + the signal number.
var stopSignals = map[os.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}

// catchSignals stops the process on SIGINT, SIGTERM or SIGHUP: it removes
// the temporary file of every unfinished output (atomicfile.RemoveAll) and
// the registered directories, prints one line naming the signal and those
// outputs, and exits with 128 + the signal number (130, 143, 129). The
// scenes finished before are complete (each output appears by a rename),
// so a rerun does the rest.
func catchSignals(stderr io.Writer) {
	ch := make(chan os.Signal, 1)
	for s := range stopSignals {
		signal.Notify(ch, s)
	}
	go func() {
		sig := <-ch
		dests := atomicfile.RemoveAll()
		cleanup.Lock()
		for d := range cleanup.dirs {
			os.RemoveAll(d)
		}
		cleanup.Unlock()
		slices.Sort(dests)
		dests = slices.Compact(dests)
		what := "no output was being written"
		if len(dests) > 0 {
			what = "removed the unfinished " + strings.Join(dests, ", ")
		}
		fmt.Fprintf(stderr, "omnihsr-batch: interrupted by %s; %s; a rerun does what is left\n", stopSignals[sig], what)
		code := 1
		if n, ok := sig.(syscall.Signal); ok {
			code = 128 + int(n)
		}
		os.Exit(code)
	}()
}
