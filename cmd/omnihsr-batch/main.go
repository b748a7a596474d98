package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/direct"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
	"github.com/omnihsr/omnihsr/internal/helptext"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/opttext"
)

const usage = `Usage: omnihsr-batch (-in GLOB | -manifest FILE) -out DIR (-scale S | -scales S1,S2,...)
                     [-method M] [-weights FILE] [-adapt STEPS|auto] [-type T] [-ext .EXT] [-scratch DIR] [-runner R] [-v]
                     [-- BEAM FLAGS...]

Super-resolves every scene that GLOB matches or FILE lists (one path a line;
blank lines and lines starting with # are skipped; relative paths are
relative to FILE's directory) with an Apache Beam pipeline, one scene per
element, by the same library code as omnihsr upscale: DIR/STEM_xS.EXT equals
"omnihsr upscale -in SCENE -scales S... -out DIR/" for each scene. Outputs
are published only when complete; a scene whose outputs are all
complete is skipped, so a rerun does only what is left. A scene that fails
does not stop the others: it is listed with its error in DIR/failed.tsv and
the job exits with status 1 naming how many failed (a job that fails or is
cancelled lists every scene it did not finish).

GLOB, FILE, the paths FILE lists and DIR may be local paths (visible to every
worker under the same name) or URLs of any file system Beam registers:
gs://BUCKET/..., s3://BUCKET/... (memfs://... for tests). A remote scene is
copied to a local scratch directory (-scratch), its outputs are written there
and copied to DIR, each appearing whole or not at all; see docs/BATCH.md.

-runner direct (the default) runs the pipeline inside this process, with no
job server and no listening socket; -runner prism needs a Prism job server's
address (-- --endpoint=HOST:PORT). Flags after "--" go to Beam (its
--endpoint, --environment_type, --project, ...): see docs/BATCH.md for Flink,
Spark and Dataflow.

A scene that fails (an error or a panic) is listed in DIR/failed.tsv and
never stops the others; an output that would replace an input scene is
refused. SIGINT and SIGTERM remove the unfinished outputs and temporary
files and exit 130 and 143.

Flags:
`

// opts are the command-line flags.
type opts struct {
	in, manifest, out, scales, method, weights, typ, ext, runner, scratch string
	adapt                                                                 string
	scale                                                                 float64
	scaleSet, verbose                                                     bool
}

// check validates the flags that need no file, each error naming its
// flag: the runner, the sample type, the factors (parsed again by job)
// and the weight file (read: a bad one stops the job before it starts).
func (o *opts) check(beamArgs []string) error {
	if !slices.Contains(runners, o.runner) {
		return fmt.Errorf("-runner %q: unknown; have %s", o.runner, strings.Join(runners, ", "))
	}
	if o.runner == "prism" && !hasBeamFlag(beamArgs, "endpoint") {
		return errors.New("-runner prism needs the address of a Prism job server (-- --endpoint=HOST:PORT): " +
			"an in-process Prism job server of Beam v2.77.0 listens on every network interface with no authentication, " +
			"so this command does not start one; -runner direct (the default) runs the job in this process with no server")
	}
	if _, _, err := hsi.ParseDataType(o.typ); err != nil {
		return fmt.Errorf("-type %q: %v", o.typ, err)
	}
	if _, err := o.factors(); err != nil {
		return err
	}
	if o.weights != "" {
		if _, err := model.Load(o.weights); err != nil {
			return fmt.Errorf("-weights %s: %v", o.weights, err)
		}
	}
	return nil
}

// factors returns the factors of -scale or -scales, each finite, > 0 and
// given once.
func (o *opts) factors() ([]float64, error) {
	if o.scaleSet == (o.scales != "") {
		return nil, errors.New("give exactly one of -scale and -scales")
	}
	if o.scaleSet {
		if !(o.scale > 0) || o.scale > 1e6 {
			return nil, fmt.Errorf("-scale %v: want a finite number > 0", o.scale)
		}
		return []float64{o.scale}, nil
	}
	factors, err := opttext.Factors(o.scales)
	if err != nil {
		return nil, fmt.Errorf("-scales %q: %v", o.scales, err)
	}
	for _, v := range factors {
		if v > 1e6 {
			return nil, fmt.Errorf("-scales %q: factor %v: want a finite number > 0", o.scales, v)
		}
	}
	return factors, nil
}

func main() {
	if workerMode(os.Args[1:]) {
		// Started by a runner as an SDK worker: Beam's flags, Beam's harness.
		flag.Parse()
		beam.Init()
		return
	}
	os.Exit(runSignals(os.Args[1:], os.Stdout, os.Stderr))
}

// workerMode reports whether the arguments are those a runner gives an SDK
// worker binary (--worker).
func workerMode(args []string) bool {
	for _, a := range args {
		if a == "--worker" || a == "-worker" || strings.HasPrefix(a, "--worker=") || strings.HasPrefix(a, "-worker=") {
			return true
		}
	}
	return false
}

// run runs the command and returns the exit status: 0, 1 when a scene or
// the job failed, 2 for a usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	ours, beamArgs := args, []string(nil)
	if i := slices.Index(args, "--"); i >= 0 {
		ours, beamArgs = args[:i], args[i+1:]
	}
	fs := flag.NewFlagSet("omnihsr-batch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o opts
	fs.StringVar(&o.in, "in", "", "glob of the input scenes (quote it), e.g. 'archive/*.hdr'")
	fs.StringVar(&o.manifest, "manifest", "", "file listing the input scenes, one path a line")
	fs.StringVar(&o.out, "out", "", "output directory (required)")
	fs.Float64Var(&o.scale, "scale", 0, "upscaling factor S > 0: output side round(S*side)")
	fs.StringVar(&o.scales, "scales", "", "several factors, comma-separated, rendered from one encoding")
	fs.StringVar(&o.method, "method", "", "upscaling method (default "+method.Default+"): "+strings.Join(method.Names(), ", "))
	fs.StringVar(&o.weights, "weights", "", "OmniHSR weight file (*.omw; default: the model embedded in the binary)")
	fs.StringVar(&o.adapt, "adapt", "0", "per-scene adaptation of each scene, as omnihsr upscale -adapt: auto, or a step count (0 = off)")
	fs.StringVar(&o.typ, "type", "", "output sample type (default float32; \"same\": the input's)")
	fs.StringVar(&o.ext, "ext", "", "output format by extension, e.g. .tif (default: the input's; .hdr for ENVI)")
	fs.StringVar(&o.scratch, "scratch", "", "local directory for the copies of remote scenes and their outputs (default $TMPDIR)")
	fs.StringVar(&o.runner, "runner", "direct", "Beam runner: direct (in process, no job server), prism (a Prism job server at --endpoint), flink, spark, universal, dataflow")
	fs.BoolVar(&o.verbose, "v", false, "keep Beam's log lines (INFO and up)")
	fs.Usage = func() { // the usage and the flags, wrapped to 80 columns
		var b strings.Builder
		fs.SetOutput(&b)
		b.WriteString(usage)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
		helptext.Fprint(stderr, b.String())
	}
	if err := fs.Parse(ours); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "omnihsr-batch: unexpected arguments %q (Beam's flags go after \"--\")\n", fs.Args())
		return 2
	}
	fs.Visit(func(f *flag.Flag) { o.scaleSet = o.scaleSet || f.Name == "scale" })
	if err := o.check(beamArgs); err != nil {
		fmt.Fprintf(stderr, "omnihsr-batch: %v\n", err)
		return 2
	}
	jo, paths, err := o.job(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "omnihsr-batch: %v\n", err)
		return 2
	}
	if err := beamFlags(o.runner, beamArgs); err != nil {
		fmt.Fprintf(stderr, "omnihsr-batch: %v\n", err)
		return 2
	}
	level := slog.LevelWarn
	if o.verbose {
		level = slog.LevelInfo
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})))
	if !isRemote(jo.OutDir) {
		if err := os.MkdirAll(jo.OutDir, 0o755); err != nil {
			fmt.Fprintf(stderr, "omnihsr-batch: %v\n", err)
			return 1
		}
	}
	dead := joinPath(jo.OutDir, deadLetterName)
	if err := removeIfExists(ctx, dead); err != nil {
		fmt.Fprintf(stderr, "omnihsr-batch: %v\n", err)
		return 1
	}
	// A private temporary directory, removed on every way out (a signal
	// included): Beam's and the scenes' temporary files go there, and so do
	// the status records of a job run in this process.
	tmp, err := os.MkdirTemp("", "omnihsr-batch-")
	if err != nil {
		fmt.Fprintf(stderr, "omnihsr-batch: %v\n", err)
		return 1
	}
	defer removeOnSignal(tmp)()
	defer os.Setenv("TMPDIR", os.Getenv("TMPDIR"))
	os.Setenv("TMPDIR", tmp)
	statusPath := filepath.Join(tmp, "status.txt")
	if !inProcess(o.runner, beamArgs) {
		// Remote workers write the records where the command can read them.
		var nonce [6]byte
		rand.Read(nonce[:])
		statusPath = joinPath(jo.OutDir, ".omnihsr-batch-status-"+hex.EncodeToString(nonce[:])+".txt")
		defer removeIfExists(context.WithoutCancel(ctx), statusPath)
	}

	start := time.Now()
	_, jobErr := runJob(ctx, o.runner, buildPipeline(paths, jo, statusPath))
	sts, readErr := readStatus(ctx, statusPath)
	c := summarise(paths, sts, jobErr, readErr)
	fmt.Fprintf(stdout, "omnihsr-batch: %d scenes: %d written, %d skipped (complete), %d failed; %d output pixels, %.1f MB written; %.1f s in scenes, %.1f s wall\n",
		len(paths), c.written, c.skipped, len(c.failed), c.pixels, float64(c.bytes)/1e6,
		float64(c.millis)/1e3, time.Since(start).Seconds())
	if jobErr != nil {
		fmt.Fprintf(stderr, "omnihsr-batch: the job failed: %v\n", jobErr)
	}
	if len(c.failed) == 0 {
		if jobErr != nil {
			return 1
		}
		return 0
	}
	list := strings.Join(c.failed, "\n") + "\n"
	if err := writeDeadLetters(ctx, dead, list); err != nil {
		fmt.Fprintf(stderr, "omnihsr-batch: writing the dead-letter list: %v; the scenes that failed:\n%s", err, list)
	} else {
		fmt.Fprint(stderr, list)
	}
	fmt.Fprintf(stderr, "omnihsr-batch: %d of %d scenes failed (listed in %s)\n", len(c.failed), len(paths), dead)
	return 1
}

// runners are the values -runner takes.
var runners = []string{"direct", "prism", "flink", "spark", "universal", "dataflow"}

// inProcess reports whether the job runs in this process: the direct
// runner, or a runner whose --environment_type is LOOPBACK.
func inProcess(runner string, beamArgs []string) bool {
	if runner == "direct" {
		return true
	}
	for i, a := range beamArgs {
		a = strings.TrimLeft(a, "-")
		if v, ok := strings.CutPrefix(a, "environment_type="); ok && strings.EqualFold(v, "loopback") {
			return true
		}
		if a == "environment_type" && i+1 < len(beamArgs) && strings.EqualFold(beamArgs[i+1], "loopback") {
			return true
		}
	}
	return false
}

// hasBeamFlag reports whether the arguments after "--" set Beam flag name.
func hasBeamFlag(beamArgs []string, name string) bool {
	for _, a := range beamArgs {
		a = strings.TrimLeft(a, "-")
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// runJob runs the pipeline, a panic of the runner becoming an error.
func runJob(ctx context.Context, runner string, p *beam.Pipeline) (res beam.PipelineResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return beam.Run(ctx, runner, p)
}

// readStatus reads the status records the job wrote.
func readStatus(ctx context.Context, path string) ([]status, error) {
	b, err := readAll(ctx, path)
	if err != nil {
		return nil, err
	}
	var out []status
	for line := range strings.SplitSeq(string(b), "\n") {
		if st, ok := parseStatus(line); ok {
			out = append(out, st)
		}
	}
	return out, nil
}

// summary is what the job did, from its status records.
type summary struct {
	written, skipped      int
	pixels, bytes, millis int64
	failed                []string // dead letters, PATH<TAB>ERROR, in the order of the scenes
}

// summarise counts the status records of the scenes (one each, the last
// where a retried element wrote several); a scene without one failed,
// with the job's error, or the status file's, as its reason.
func summarise(paths []string, sts []status, jobErr, readErr error) summary {
	byPath := map[string]status{}
	for _, st := range sts {
		if prev, ok := byPath[st.path]; !ok || prev.kind == stFailed {
			byPath[st.path] = st // a success after a failed try wins
		}
	}
	why := "the job ended without reporting it"
	switch {
	case jobErr != nil:
		why = "the job failed: " + jobErr.Error()
	case readErr != nil:
		why = "its status was lost: " + readErr.Error()
	}
	var c summary
	for _, p := range paths {
		st, ok := byPath[oneLine(p)]
		switch {
		case !ok:
			c.failed = append(c.failed, oneLine(p)+"\t"+oneLine(p+": not processed: "+why))
		case st.kind == stWritten:
			c.written++
			c.pixels += st.pixels
			c.bytes += st.bytes
			c.millis += st.millis
		case st.kind == stSkipped:
			c.skipped++
		default:
			c.failed = append(c.failed, st.path+"\t"+st.err)
		}
	}
	return c
}

// writeDeadLetters writes the dead-letter list to path, whole or not at
// all.
func writeDeadLetters(ctx context.Context, path, list string) error {
	if isRemote(path) {
		return publishFrom(ctx, strings.NewReader(list), path)
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, list)
		return err
	})
}

// beamFlags sets Beam's flags (on the global flag set, which only Beam
// uses in this binary) from the arguments after "--" and -runner.
func beamFlags(runner string, args []string) error {
	beamFS := flag.CommandLine
	beamFS.Init("omnihsr-batch -- (Beam flags)", flag.ContinueOnError)
	beamFS.SetOutput(io.Discard) // the error names the flag; Beam's 63 flags are not listed
	beamFS.Usage = func() {}
	if err := beamFS.Parse(args); err != nil {
		return fmt.Errorf("Beam flags: %w", err)
	}
	if beamFS.NArg() > 0 {
		return fmt.Errorf("Beam flags: unexpected arguments %q", beamFS.Args())
	}
	if f := beamFS.Lookup("runner"); f != nil {
		if err := f.Value.Set(runner); err != nil {
			return err
		}
	}
	beam.Init()
	return nil
}

// job checks the flags and returns the job's options and the paths of its
// scenes (absolute where local).
func (o *opts) job(ctx context.Context) (Options, []string, error) {
	if (o.in == "") == (o.manifest == "") {
		return Options{}, nil, errors.New("give exactly one of -in and -manifest")
	}
	if o.out == "" {
		return Options{}, nil, errors.New("-out is required")
	}
	factors, err := o.factors()
	if err != nil {
		return Options{}, nil, err
	}
	m, err := method.Lookup(cmp.Or(o.method, method.Default))
	if err != nil {
		return Options{}, nil, fmt.Errorf("-method %q: unknown; have %s", o.method, strings.Join(method.Names(), ", "))
	}
	if o.weights != "" && !m.Model {
		return Options{}, nil, errors.New("-weights applies to the OmniHSR methods only")
	}
	out, err := absPath(o.out)
	if err != nil {
		return Options{}, nil, err
	}
	jo := Options{OutDir: out, Factors: factors, Method: o.method, Type: o.typ, Ext: o.ext}
	steps, auto, ok := opttext.Adapt(o.adapt)
	jo.Adapt = steps
	if auto {
		jo.Adapt = omnihsr.AdaptAuto
	} else if !ok {
		return Options{}, nil, fmt.Errorf("-adapt %q: want auto, 0 (off) or a step count", o.adapt)
	}
	if jo.Adapt != 0 && !m.Model {
		return Options{}, nil, errors.New("-adapt applies to the OmniHSR methods only")
	}
	if o.scratch != "" {
		if jo.Scratch, err = filepath.Abs(o.scratch); err != nil {
			return Options{}, nil, err
		}
	}
	if o.weights != "" {
		if jo.Weights, err = filepath.Abs(o.weights); err != nil {
			return Options{}, nil, err
		}
	}
	var paths []string
	if o.in != "" {
		if paths, err = listGlob(ctx, o.in); err != nil {
			return Options{}, nil, fmt.Errorf("-in %q: %w", o.in, err)
		}
		if len(paths) == 0 {
			return Options{}, nil, fmt.Errorf("-in %q matches no file", o.in)
		}
	} else if paths, err = readManifest(ctx, o.manifest); err != nil {
		return Options{}, nil, err
	}
	seen := map[string]string{}
	for i, p := range paths {
		if paths[i], err = absPath(p); err != nil {
			return Options{}, nil, err
		}
	}
	inputs := newInputSet(paths)
	for i := range paths {
		for _, q := range outputPaths(jo, paths[i]) {
			if in, ok := inputs.holds(q); ok {
				return Options{}, nil, fmt.Errorf("%s: the output of %s would replace the input %s: %w", q, paths[i], in, formats.ErrSameFile)
			}
			if _, err := formats.ForWrite(q); err != nil {
				return Options{}, nil, err
			}
			if prev, dup := seen[q]; dup {
				return Options{}, nil, fmt.Errorf("%s and %s would both be written to %s", prev, paths[i], q)
			}
			seen[q] = paths[i]
		}
	}
	return jo, paths, nil
}

// absPath returns a local path made absolute, a remote one unchanged.
func absPath(p string) (string, error) {
	if isRemote(p) {
		return p, nil
	}
	return filepath.Abs(p)
}

// readManifest returns the scene paths that the manifest lists.
func readManifest(ctx context.Context, path string) ([]string, error) {
	b, err := readAll(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("-manifest: %w", err)
	}
	var paths []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !isRemote(line) && !filepath.IsAbs(line) {
			line = joinPath(dirOf(path), line)
		}
		paths = append(paths, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("-manifest %s: %w", path, err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("-manifest %s lists no scene", path)
	}
	return paths, nil
}
