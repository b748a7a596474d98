// Command adapteval runs the adaptation pass of the evaluation report
// (report.RunAdapt: the seven-dataset and twelve-factor protocols and the
// noisy rows of the degradation tables, each with and without `-adapt
// auto`) on its own, writes DIR/results/adapt.json and renders
// DIR/results.md again from the committed JSON beside it. `omnihsr eval
// -report` runs the same pass with everything else; this runs the pass,
// or the named parts of it, without the rest. A pass stopped part-way
// keeps the runs it finished in adapt.json, and a second call skips them.
//
//	go run ./scripts/adapteval                      # every part
//	go run ./scripts/adapteval -parts seven,noise   # some parts
//	go run ./scripts/adapteval -render              # results.md only
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/report"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "adapteval:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("adapteval", flag.ContinueOnError)
	dir := fs.String("dir", "docs", "the report's folder (results.md and results/)")
	parts := fs.String("parts", strings.Join(report.AdaptParts, ","), "parts of the pass to run: "+strings.Join(report.AdaptParts, ", "))
	render := fs.Bool("render", false, "only render results.md again from the JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	sub := filepath.Join(*dir, "results")
	res, err := report.ReadResults(sub)
	if err != nil {
		return err
	}
	m, err := model.Default()
	if err != nil {
		return err
	}
	opt := report.Options{Dir: *dir, Model: m, Weights: report.EmbeddedWeights, Meta: json.RawMessage(model.DefaultMeta()),
		Positions: filepath.Join(*dir, "positions.json"), Log: os.Stderr, Progress: os.Stderr}
	if res.Twelve != nil {
		opt.Command = res.Twelve.Config.Command
	}
	if _, err := os.Stat(opt.Positions); err != nil {
		opt.Positions = ""
	}
	write := func(a *report.AdaptRuns) error {
		res.Adapt = a
		if err := report.WriteAdapt(sub, a); err != nil {
			return err
		}
		return renderMD(res, opt)
	}
	if *render {
		return renderMD(res, opt)
	}
	tsv := eval.DefaultScenesTSV()
	if tsv == "" {
		return errors.New("../shared/data/hsi/scenes.tsv not found (set OMNIHSR_SHARED)")
	}
	scenes, err := eval.TSVScenes(tsv, "eval")
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ro := opt
	ro.Scenes = scenes
	ro.Command = "go run ./scripts/adapteval " + strings.Join(args, " ")
	ro.Command = strings.TrimSpace(ro.Command)
	a, err := report.RunAdapt(ctx, ro, strings.Split(*parts, ","), res.Adapt, write)
	if err != nil {
		return err
	}
	return write(a)
}

func renderMD(res *report.Results, opt report.Options) error {
	return report.WriteMarkdown(opt.Dir, res, opt)
}
