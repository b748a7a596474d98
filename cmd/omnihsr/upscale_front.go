package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/stac"
	"github.com/omnihsr/omnihsr/internal/opttext"
	"github.com/omnihsr/omnihsr/noise"
)

// upscaleFile makes the outputs with omnihsr.UpscaleFile, the library's
// front door, once the flags are checked, and writes what upscale writes:
// one progress line for the whole run on stderr, the model's encoding and
// then every output's rows (a terminal only, or "progress F" lines with
// OMNIHSR_PROGRESS=1; omnihsr.Options.Completion), then the noise
// and the screened bands, and for each output its warnings on stderr, a
// line on stdout and, with -stac, its STAC item. factors are those of
// -scale or -scales (nil with -size), for the progress line. An invalid
// option is a usage error.
func (o *upscaleOpts) upscaleFile(ctx context.Context, e env, opt omnihsr.Options, factors []float64) error {
	const units = 1000 // the bar's resolution
	label := filepath.Base(o.out)
	if len(factors) > 1 {
		xs := make([]string, len(factors))
		for i, f := range factors {
			xs[i] = "x" + opttext.Label(f)
		}
		label = strings.Join(xs, ", ")
	}
	bar := newBar(e.stderr, "upscale "+label, units).Fraction()
	opt.Completion = func(f float64) { bar.Set(int64(math.Round(f * units))) }
	res, err := omnihsr.UpscaleFile(ctx, o.in, o.out, opt)
	if err != nil {
		bar.Stop()
	} else {
		bar.Done()
	}
	if errors.Is(err, omnihsr.ErrOption) {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if err != nil {
		return err
	}
	if opt.Noise.Mode == omnihsr.NoiseCompanion {
		fmt.Fprintf(e.stderr, "upscale: noise from %s (the input's RFLUNCERT companion: root mean square of each band's uncertainty over the swath)\n", res.NoiseFile)
	}
	// With -adapt choosing another model than the noise gate's, the adapt
	// line says which renders; the model's line would describe that member
	// alone.
	if s := res.Model.String(); s != "" && (res.Adapt.Choice == "" || res.Adapt.Choice == "shipped") {
		fmt.Fprintln(e.stderr, "upscale: "+s)
		if o.nf.verbose {
			fmt.Fprintln(e.stderr, "upscale: detail: "+res.Model.Detail())
		}
	}
	if s := res.Adapt.String(); s != "" {
		fmt.Fprintln(e.stderr, "upscale: "+s)
	}
	if out := res.Model.Screened; len(out) > 0 {
		fmt.Fprintf(e.stderr, "upscale: %d band(s) judged unusable, "+noisyBandsNote+" (-keep-noisy-bands keeps them in): %s\n",
			len(out), noise.OutlierFactor, 100*noise.OutlierNSR, describeOutliers(&res.InputMeta, out, o.nf.verbose))
	}
	if opt.Clamp == omnihsr.ClampInput {
		fmt.Fprintf(e.stderr, "upscale: -clamp input: %d sample(s) outside their band's range in the input clamped to it\n", res.InputClamped)
	}
	for _, f := range res.Files {
		for _, s := range f.Warnings() {
			fmt.Fprintln(e.stderr, s)
		}
		fmt.Fprintf(e.stdout, "wrote %s: %d x %d x %d (rows x columns x bands; %s from %d x %d, factors %.4g x %.4g)\n",
			f.Path, f.Height, f.Width, res.Bands, res.Method, res.InHeight, res.InWidth,
			float64(f.Height)/float64(res.InHeight), float64(f.Width)/float64(res.InWidth))
		if o.sf.on {
			meta := f.Meta
			p := stac.Processing{Command: "upscale", Method: string(res.Method),
				FactorY: float64(f.Height) / float64(res.InHeight), FactorX: float64(f.Width) / float64(res.InWidth),
				Model: modelNote(res.Model, o.weights), Input: filepath.Base(o.in)}
			if err := o.sf.write(e.stdout, f.Path, f.Height, f.Width, &meta, hsi.WriteOptions{DataType: outType(f.Type), Driver: opt.Driver}, p); err != nil {
				return fmt.Errorf("%s: %w", o.in, err)
			}
		}
	}
	return nil
}
