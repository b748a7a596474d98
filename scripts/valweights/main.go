// Command valweights scores weight files with the Go code on the Go
// trainer's fixed validation samples (train.LoadDataset: one centred patch
// of every held-out natural image and of the held-out bottom rows of every
// hsi/train scene, 40 samples at x2-x8; never hsi/eval), as the trainer's
// validation does (train.Validate): mean PSNR and SAM of the model and of
// bicubic, and the PSNR gain. A weight file whose model takes the noise
// feature is also scored on the same samples with the trainer's fixed
// noise (train.Dataset.NoisyVal). It is how weights trained elsewhere (the
// PyTorch port, internal/train/torch) are judged with the code that ships them.
//
//	go run ./scripts/valweights internal/model/weights/default.omw runs/torch1/last.omw
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/train"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("valweights", flag.ContinueOnError)
	fs.SetOutput(stderr)
	shared := fs.String("shared", "../shared", "shared directory (holds data/rgb and data/hsi)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "valweights: name one or more weight files (*.omw or *.ckpt)")
		return 2
	}
	var ms []*model.Model
	noisy := false
	for _, p := range fs.Args() {
		m, err := model.Load(p)
		if err != nil {
			fmt.Fprintf(stderr, "valweights: %v\n", err)
			return 1
		}
		ms = append(ms, m)
		noisy = noisy || m.Cfg.NoiseInput
	}
	opt := train.DefaultDataOptions(*shared)
	opt.NoisyVal = noisy
	ds, err := train.LoadDataset(opt)
	if err != nil {
		fmt.Fprintf(stderr, "valweights: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%-40s %8s %8s %8s %7s %7s  (%d samples)\n", "weights", "psnr", "bicubic", "gain", "sam", "bic.sam", len(ds.Val))
	for k, m := range ms {
		name := filepath.Clean(fs.Arg(k))
		v, err := train.Validate(m, ds.Val)
		if err != nil {
			fmt.Fprintf(stderr, "valweights: %s: %v\n", name, err)
			return 1
		}
		fmt.Fprintf(stdout, "%-40s %8.4f %8.4f %+8.4f %7.4f %7.4f\n", name, v.PSNR, v.BicubicPSNR, v.Gain, v.SAM, v.BicubicSAM)
		if m.Cfg.NoiseInput {
			nv, err := train.Validate(m, ds.NoisyVal)
			if err != nil {
				fmt.Fprintf(stderr, "valweights: %s: %v\n", name, err)
				return 1
			}
			fmt.Fprintf(stdout, "%-40s %8.4f %8.4f %+8.4f %7.4f %7.4f  noisy inputs\n", name, nv.PSNR, nv.BicubicPSNR, nv.Gain, nv.SAM, nv.BicubicSAM)
		}
	}
	return 0
}
