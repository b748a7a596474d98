package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/method"
)

const usage = `Usage: omnihsr-batch (-in GLOB | -manifest FILE) -out DIR (-scale S | -scales S1,S2,...)
       [-method M] [-weights FILE] [-type T] [-ext .EXT] [-scratch DIR] [-runner R] [-v]
       [-- BEAM FLAGS...]

Super-resolves every scene that GLOB matches or FILE lists (one path a line;
blank lines and lines starting with # are skipped; relative paths are
relative to FILE's directory) with an Apache Beam pipeline, one scene per
element, by the same library code as omnihsr upscale: DIR/STEM_xS.EXT equals
"omnihsr upscale -in SCENE -scales S... -out DIR/" for each scene. Outputs
are published only when complete; a scene whose outputs are all
complete is skipped, so a rerun does only what is left. A scene that fails
does not stop the others: it is listed with its error in DIR/failed.tsv and
the job exits with status 1 naming how many failed.

GLOB, FILE, the paths FILE lists and DIR may be local paths (visible to every
worker under the same name) or URLs of any file system Beam registers:
gs://BUCKET/..., s3://BUCKET/... (memfs://... for tests). A remote scene is
copied to a local scratch directory (-scratch), its outputs are written there
and copied to DIR, each appearing whole or not at all; see docs/BATCH.md.

-runner prism (the default) runs the pipeline inside this process. Flags
after "--" go to Beam (its --endpoint, --environment_type, --project, ...):
see docs/BATCH.md for Flink, Spark and Dataflow.

Flags:
`

// opts are the command-line flags.
type opts struct {
	in, manifest, out, scales, method, weights, typ, ext, runner, scratch string
	scale                                                                 float64
	verbose                                                               bool
}

func main() {
	if workerMode(os.Args[1:]) {
		// Started by a runner as an SDK worker: Beam's flags, Beam's harness.
		flag.Parse()
		beam.Init()
		return
	}
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
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
	fs.StringVar(&o.typ, "type", "", "output sample type (default float32; \"same\": the input's)")
	fs.StringVar(&o.ext, "ext", "", "output format by extension, e.g. .tif (default: the input's; .hdr for ENVI)")
	fs.StringVar(&o.scratch, "scratch", "", "local directory for the copies of remote scenes and their outputs (default $TMPDIR)")
	fs.StringVar(&o.runner, "runner", "prism", "Beam runner: prism (in process), flink, spark, universal, dataflow")
	fs.BoolVar(&o.verbose, "v", false, "keep Beam's and Prism's log lines (INFO and up)")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
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
	if o.runner == "prism" {
		// Prism's loopback worker leaves an empty file in $TMPDIR at every
		// run: give it a private directory, removed at the end.
		tmp, err := os.MkdirTemp("", "omnihsr-batch-")
		if err != nil {
			fmt.Fprintf(stderr, "omnihsr-batch: %v\n", err)
			return 1
		}
		defer os.RemoveAll(tmp)
		defer os.Setenv("TMPDIR", os.Getenv("TMPDIR"))
		os.Setenv("TMPDIR", tmp)
	}
	start := time.Now()
	res, err := beam.Run(ctx, o.runner, buildPipeline(paths, jo))
	if err != nil {
		fmt.Fprintf(stderr, "omnihsr-batch: the job failed: %v\n", err)
		return 1
	}
	c := counters(res)
	fmt.Fprintf(stdout, "omnihsr-batch: %d scenes: %d written, %d skipped (complete), %d failed; %d output pixels, %.1f MB written; %.1f s in scenes, %.1f s wall\n",
		len(paths), c["scenes"], c["skipped"], c["failed"], c["pixels"], float64(c["bytes"])/1e6,
		float64(c["milliseconds"])/1e3, time.Since(start).Seconds())
	if c["failed"] > 0 {
		b, _ := readAll(ctx, dead)
		stderr.Write(b)
		fmt.Fprintf(stderr, "omnihsr-batch: %d of %d scenes failed (listed in %s)\n", c["failed"], len(paths), dead)
		return 1
	}
	return 0
}

// counters returns the job's counters by name (0 for a runner that
// reports no metrics).
func counters(res beam.PipelineResult) map[string]int64 {
	c := map[string]int64{}
	if res == nil {
		return c
	}
	for _, r := range res.Metrics().AllMetrics().Counters() {
		if r.Key.Namespace == metricNS {
			c[r.Key.Name] += r.Result()
		}
	}
	return c
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
	if (o.scale != 0) == (o.scales != "") {
		return Options{}, nil, errors.New("give exactly one of -scale and -scales")
	}
	factors := []float64{o.scale}
	if o.scales != "" {
		factors = nil
		for f := range strings.SplitSeq(o.scales, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				return Options{}, nil, fmt.Errorf("-scales %q: %q is not a number", o.scales, f)
			}
			factors = append(factors, v)
		}
	}
	for _, f := range factors {
		if !(f > 0) || f > 1e6 {
			return Options{}, nil, fmt.Errorf("factor %v: want a finite number > 0", f)
		}
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
		for _, q := range outputPaths(jo, paths[i]) {
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
