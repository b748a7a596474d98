package main

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/omnihsr/omnihsr/model"
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

func init() {
	register.DoFn3x1[context.Context, string, func(string), error](&sceneFn{})
	register.Emitter1[string]()
	beam.RegisterType(reflect.TypeOf((*Options)(nil)).Elem())
}

// sceneFn super-resolves one scene per element. An element that fails is
// emitted as a dead letter ("PATH<TAB>ERROR") rather than failing the
// bundle, so that one unreadable scene never stops the others.
type sceneFn struct {
	Opts Options

	mod *model.Model
}

// Setup loads the model once per worker instance.
func (f *sceneFn) Setup() error {
	mod, err := loadModel(f.Opts)
	if err != nil {
		return fmt.Errorf("omnihsr-batch: loading the model: %w", err)
	}
	f.mod = mod
	return nil
}

func (f *sceneFn) ProcessElement(ctx context.Context, path string, dead func(string)) error {
	res, err := processScene(ctx, path, f.Opts, f.mod)
	if err != nil {
		cFailed.Inc(ctx, 1)
		dead(path + "\t" + oneLine(err.Error()))
		return nil
	}
	for _, w := range res.Warnings {
		log.Warn(ctx, w)
	}
	if res.Skipped {
		cSkipped.Inc(ctx, 1)
		return nil
	}
	cScenes.Inc(ctx, 1)
	cPixels.Inc(ctx, res.Pixels)
	cBytes.Inc(ctx, res.Bytes)
	cMillis.Inc(ctx, res.Elapsed.Milliseconds())
	return nil
}

// oneLine makes a message fit one line of the dead-letter list.
func oneLine(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ", "\t", " ").Replace(s)
}

// buildPipeline returns the pipeline over the scene paths: Reshuffle (so
// that the runner spreads the scenes over its workers instead of fusing
// everything into one bundle), one scene per element, and the dead letters
// written to OUTDIR/failed.tsv.
func buildPipeline(paths []string, o Options) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	scenes := beam.Reshuffle(s, beam.CreateList(s, paths))
	dead := beam.ParDo(s, &sceneFn{Opts: o}, scenes)
	textio.Write(s.Scope("deadletters"), joinPath(o.OutDir, deadLetterName), dead)
	return p
}
