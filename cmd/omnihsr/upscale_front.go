package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/progress"
	"github.com/omnihsr/omnihsr/noise"
)

// frontDoor reports whether upscale's output is made by the library's
// front door (omnihsr.UpscaleFile): one output, a model method, no
// -noise-file and no -stac. The other runs (-scales, bicubic read a band
// of rows at a time, a noise file, STAC items) keep their own path.
func (o *upscaleOpts) frontDoor(nPaths int, model bool) bool {
	return useFrontDoor && nPaths == 1 && model && o.nf.file == "" && !o.sf.on
}

// useFrontDoor is false only in the test that compares the front door
// with upscale's own orchestration (the path of -scales).
var useFrontDoor = true

// upscaleFile makes the one output path with omnihsr.UpscaleFile once the
// flags are checked, and writes what upscale writes: the noise and the
// screened bands, the warnings and a progress line on stderr, the output
// on stdout.
func (o *upscaleOpts) upscaleFile(ctx context.Context, e env, name, path string, wo hsi.WriteOptions, ro hsi.ReadOptions) error {
	opt := omnihsr.Options{Scale: o.scale, Method: omnihsr.Method(name), Weights: o.weights, KeepNoisyBands: o.nf.keepNoisy,
		Type: o.typ, Driver: wo.Driver, Creation: wo.Creation, Read: ro, Overwrite: o.of.overwrite}
	if o.size != "" {
		h, w, err := parseSize(o.size)
		if err != nil {
			return err
		}
		opt.Size = [2]int{h, w}
	}
	switch l := strings.ToLower(strings.TrimSpace(o.nf.level)); l {
	case "", "auto":
	case "clean":
		opt.Noise.Mode = omnihsr.NoiseClean
	default:
		v, _ := strconv.ParseFloat(l, 64) // checked by noiseFlags.check
		opt.Noise = omnihsr.Noise{Mode: omnihsr.NoiseGiven, Sigma: []float64{v}}
	}
	var bar *progress.Bar
	opt.Progress = func(done, total int) {
		if bar == nil {
			bar = newBar(e.stderr, "upscale "+filepath.Base(path), int64(total))
		}
		bar.Set(int64(done))
	}
	res, err := omnihsr.UpscaleFile(ctx, o.in, path, opt)
	if err != nil {
		return err
	}
	if bar != nil {
		bar.Done()
	}
	if s := res.Model.String(); s != "" {
		fmt.Fprintln(e.stderr, "upscale: "+s)
	}
	if out := res.Model.Screened; len(out) > 0 {
		fmt.Fprintf(e.stderr, "upscale: %d band(s) judged unusable, "+noisyBandsNote+" (-keep-noisy-bands keeps them in): %s\n",
			len(out), noise.OutlierFactor, 100*noise.OutlierNSR, describeOutliers(&res.InputMeta, out))
	}
	for _, s := range res.File.Warnings() {
		fmt.Fprintln(e.stderr, s)
	}
	fmt.Fprintf(e.stdout, "wrote %s: %d x %d x %d (%s from %d x %d, factors %.4g x %.4g)\n",
		path, res.Height, res.Width, res.Bands, res.Method, res.InHeight, res.InWidth,
		float64(res.Height)/float64(res.InHeight), float64(res.Width)/float64(res.InWidth))
	return nil
}
