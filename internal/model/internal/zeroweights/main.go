// Command zeroweights writes an untrained OmniHSR model whose operator
// layer is zero-initialised, so that it renders bicubic exactly: the file
// the embedded default model was before training, and a baseline for
// checking the rendering path without trained weights.
//
//	go run ./model/internal/zeroweights -out /tmp/zero.omw
//
// It never picks a path itself: -out must be given, and an existing file
// is only replaced with -force. Overwriting internal/model/weights/default.omw
// replaces the shipped, trained weights.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/omnihsr/omnihsr/internal/model"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "zeroweights:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("zeroweights", flag.ContinueOnError)
	out := fs.String("out", "", "weights file to write (required)")
	seed := fs.Uint64("seed", 2026, "seed of the randomly initialised layers")
	force := fs.Bool("force", false, "replace an existing file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		return errors.New("give -out FILE and nothing else")
	}
	if _, err := os.Stat(*out); err == nil && !*force {
		return fmt.Errorf("%s exists; add -force to replace it", *out)
	}
	m, err := model.New(model.DefaultConfig(), *seed)
	if err != nil {
		return err
	}
	return m.Save(*out, []byte(`{"trained":false,"note":"zero-initialised operator layer: renders bicubic exactly"}`))
}
