package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/omnihsr/omnihsr/internal/atomicfile"
	"github.com/omnihsr/omnihsr/internal/sigctx"
)

// cleanup holds the local directories that a signal must not leave
// behind (the private temporary directory, scene scratch directories)
// should the work not have removed them by the time it returns.
var cleanup = struct {
	sync.Mutex
	dirs map[string]bool
}{dirs: map[string]bool{}}

// removeOnSignal registers dir for removal after a stop signal; the
// returned function removes it now and unregisters it.
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

// runSignals runs the command as run does, its context cancelled by
// SIGINT, SIGTERM or SIGHUP (sigctx.Notify): the scenes stop between
// bands of rows, their deferred Aborts and cleanups run, and once run has
// returned one line naming the signal and the unfinished outputs removed
// goes to stderr and the exit status is 128 + the signal number (130,
// 143, 129). The scenes finished before are complete (each output appears
// by a rename), so a rerun does the rest. A second signal ends the
// process at once.
func runSignals(args []string, stdout, stderr io.Writer) int {
	ctx, stop := sigctx.Notify(context.Background())
	defer stop()
	code := run(ctx, args, stdout, stderr)
	s := sigctx.Received(ctx)
	if s == nil {
		return code
	}
	dests := append(atomicfile.RemoveAll(), atomicfile.Aborted()...)
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
	fmt.Fprintf(stderr, "omnihsr-batch: interrupted by %s; %s; a rerun does what is left\n", s.Name, what)
	return s.Code
}
