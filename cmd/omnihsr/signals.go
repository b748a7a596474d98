package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/omnihsr/omnihsr/internal/atomicfile"
	"github.com/omnihsr/omnihsr/internal/sigctx"
)

// runSignals runs the command line args as run does, its context
// cancelled by SIGINT, SIGTERM or SIGHUP (sigctx.Notify): the work stops,
// its deferred Aborts remove the temporary files of unfinished outputs,
// and once it has returned one line naming the command, the signal and
// those outputs goes to stderr and the exit status is 128 + the signal
// number (130, 143, 129). A second signal ends the process at once.
// Only the commands that stop at their context's end (command.stops) are
// run so; train handles its own signals (it saves a checkpoint), and the
// reproduction tools (bench, ablation, prior, banddef) and info keep the
// signals' default action, ending at once (a temporary file left is
// removed by the next run writing the same output).
func runSignals(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || lookup(args[0]) == nil || !lookup(args[0]).stops {
		return run(args, stdout, stderr)
	}
	ctx, stop := sigctx.Notify(context.Background())
	defer stop()
	code := runContext(ctx, args, stdout, stderr)
	if s := sigctx.Received(ctx); s != nil {
		fmt.Fprintf(stderr, "omnihsr %s: interrupted by %s; %s\n", args[0], s.Name, removedOutputs())
		return s.Code
	}
	return code
}

// removedOutputs removes what temporary files are still open
// (atomicfile.RemoveAll: work that did not stop by itself) and says which
// unfinished outputs were removed.
func removedOutputs() string {
	dests := append(atomicfile.RemoveAll(), atomicfile.Aborted()...)
	slices.Sort(dests)
	dests = slices.Compact(dests)
	if len(dests) == 0 {
		return "no output was being written"
	}
	return "removed the unfinished " + strings.Join(dests, ", ")
}
