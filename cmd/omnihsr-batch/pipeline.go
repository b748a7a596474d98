package main

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// metricNS is the namespace of the job's Beam metrics.
const metricNS = "omnihsr"

// The job's counters: scenes written, skipped (complete already) and
// failed, output pixels and bytes written, and the milliseconds the scenes
// took (summed over workers).
var (
	cScenes  = beam.NewCounter(metricNS, "scenes")
	cSkipped = beam.NewCounter(metricNS, "skipped")
	cFailed  = beam.NewCounter(metricNS, "failed")
	cPixels  = beam.NewCounter(metricNS, "pixels")
	cBytes   = beam.NewCounter(metricNS, "bytes")
	cMillis  = beam.NewCounter(metricNS, "milliseconds")
)

// deadLetterName is the file in the output directory that lists the
// scenes that failed, one "PATH<TAB>ERROR" line each.
const deadLetterName = "failed.tsv"

// A status record is the line the pipeline writes for each scene it
// processed, read back by the command for its summary and its dead-letter
// list (exact whatever the runner reports as metrics):
//
//	written<TAB>PATH<TAB>PIXELS<TAB>BYTES<TAB>MILLISECONDS
//	skipped<TAB>PATH
//	failed<TAB>PATH<TAB>ERROR
const (
	stWritten = "written"
	stSkipped = "skipped"
	stFailed  = "failed"
)

// status is one scene's status record.
type status struct {
	kind, path, err string
	pixels, bytes   int64
	millis          int64
}

func (s status) line() string {
	switch s.kind {
	case stWritten:
		return strings.Join([]string{stWritten, oneLine(s.path), strconv.FormatInt(s.pixels, 10),
			strconv.FormatInt(s.bytes, 10), strconv.FormatInt(s.millis, 10)}, "\t")
	case stSkipped:
		return stSkipped + "\t" + oneLine(s.path)
	}
	return stFailed + "\t" + oneLine(s.path) + "\t" + oneLine(s.err)
}

// parseStatus reads a status record (ok false for a line that is not one).
func parseStatus(line string) (status, bool) {
	f := strings.Split(line, "\t")
	switch {
	case len(f) == 5 && f[0] == stWritten:
		st := status{kind: stWritten, path: f[1]}
		var err1, err2, err3 error
		st.pixels, err1 = strconv.ParseInt(f[2], 10, 64)
		st.bytes, err2 = strconv.ParseInt(f[3], 10, 64)
		st.millis, err3 = strconv.ParseInt(f[4], 10, 64)
		return st, err1 == nil && err2 == nil && err3 == nil
	case len(f) == 2 && f[0] == stSkipped:
		return status{kind: stSkipped, path: f[1]}, true
	case len(f) == 3 && f[0] == stFailed:
		return status{kind: stFailed, path: f[1], err: f[2]}, true
	}
	return status{}, false
}
func init() {
	register.DoFn3x1[context.Context, string, func(string), error](&sceneFn{})
	register.Emitter1[string]()
	beam.RegisterType(reflect.TypeOf((*Options)(nil)).Elem())
}

// sceneFn super-resolves one scene per element and emits its status
// record. A scene that fails, with an error or a panic, is emitted as
// failed rather than failing the bundle, so that one bad scene never stops
// the others.
type sceneFn struct {
	Opts Options
}

func (f *sceneFn) ProcessElement(ctx context.Context, path string, emit func(string)) error {
	st := f.scene(ctx, path)
	switch st.kind {
	case stFailed:
		cFailed.Inc(ctx, 1)
	case stSkipped:
		cSkipped.Inc(ctx, 1)
	default:
		cScenes.Inc(ctx, 1)
		cPixels.Inc(ctx, st.pixels)
		cBytes.Inc(ctx, st.bytes)
		cMillis.Inc(ctx, st.millis)
	}
	emit(st.line())
	return nil
}

// scene processes one scene and returns its status: failed on an error or
// a panic (its value and the panicking goroutine's stack trimmed to one
// line), and when ctx is done before the scene starts.
func (f *sceneFn) scene(ctx context.Context, path string) (st status) {
	defer func() {
		if r := recover(); r != nil {
			st = status{kind: stFailed, path: path, err: fmt.Sprintf("%s: panic: %v (%s)", path, r, panicSite(debug.Stack()))}
		}
	}()
	if err := ctx.Err(); err != nil {
		return status{kind: stFailed, path: path, err: fmt.Sprintf("%s: not processed: %v", path, err)}
	}
	if beforeScene != nil {
		beforeScene(path)
	}
	res, err := processScene(ctx, path, f.Opts)
	if err != nil {
		// The edge: a status record is a line of text that Beam carries
		// between workers, so the error becomes its message here.
		return status{kind: stFailed, path: path, err: err.Error()}
	}
	for _, f := range res.Files {
		for _, w := range f.Warnings() {
			log.Warn(ctx, w)
		}
	}
	if res.Skipped {
		return status{kind: stSkipped, path: path}
	}
	return status{kind: stWritten, path: path, pixels: res.Pixels, bytes: res.Bytes, millis: res.Elapsed.Milliseconds()}
}

// beforeScene, when set (by tests), is called with each scene's path
// before it is processed, inside the scene's recovery.
var beforeScene func(path string)

// panicSite returns the first frame of a stack trace below the panic
// itself: the function that panicked and its file and line.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") && i+3 < len(lines) {
			return strings.TrimSpace(lines[i+2]) + " " + strings.Fields(strings.TrimSpace(lines[i+3]))[0]
		}
	}
	return "stack unknown"
}

// oneLine makes a message fit one line of the dead-letter list.
func oneLine(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ", "\t", " ").Replace(s)
}

// buildPipeline returns the pipeline over the scene paths: Reshuffle (so
// that the runner spreads the scenes over its workers instead of fusing
// everything into one bundle), one scene per element, and the scenes'
// status records written to statusPath (the command reads them back and
// writes the dead-letter list).
func buildPipeline(paths []string, o Options, statusPath string) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	scenes := beam.Reshuffle(s, beam.CreateList(s, paths))
	st := beam.ParDo(s, &sceneFn{Opts: o}, scenes)
	textio.Write(s.Scope("status"), statusPath, st)
	return p
}
