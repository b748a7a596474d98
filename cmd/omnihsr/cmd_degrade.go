package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/resample"
)

var degradeCmd = &command{
	name:    "degrade",
	stops:   true,
	summary: "make a low-resolution cube: antialiased bicubic (or area), optional blur and noise",
	usage: `Usage: omnihsr degrade -in HR -out LR (-scale S | -size HxW) [-blur C] [-band-blur K]
                       [-noise SIGMA] [-seed N] [-area] [-var NAME] [-type T] [-of COG] [-co KEY=VALUE]...

Makes the low-resolution input of docs/CONVENTIONS.md section 5 from HR, identically for
every band, in this order:
  1. -blur C: Gaussian blur of sigma C*S high-resolution pixels (truncated at
     4 sigma, mirror border), e.g. C = 0.25, 0.40, 0.55;
  2. -band-blur K: band b of B blurred by sigma K*S*(b-1)/(B-1);
  3. downsampling to round(side/S) per axis (half away from zero) or to
     -size H x W: antialiased bicubic, equal to PyTorch F.interpolate(x, size,
     mode='bicubic', align_corners=False, antialias=True), or with -area the
     block mean (PyTorch mode='area': the S x S mean for integer S);
  4. -noise SIGMA: Gaussian noise, seeded by -seed (same seed, same noise).
With -size and no -scale, S in the blur sigmas is the mean of the two
per-axis factors. Values are used as they are (no normalisation, no
clipping). Georeferencing is scaled to the new grid. No-data is handled band
by band: samples at the file's no-data value are filled from their
neighbours in the same band before filtering and written back as no-data
into every output sample whose pixel centre lies in one; bad bands (bbl =
0, or no-data in every pixel) are written as no-data. The output is float32 unless -type says
otherwise. Other NaN or infinite input values are an error naming their
position; on any error no output file is left. An output that is the input
(or its ENVI partner, or a link to either) is refused unless -overwrite is
given.

` + tiffFlagsHelp + `
Formats, chosen by extension:
` + formatsHelp(),
	flags: func(fs *flag.FlagSet) runner {
		o := &degradeOpts{}
		fs.StringVar(&o.in, "in", "", "high-resolution input file (required)")
		fs.StringVar(&o.out, "out", "", "output file (required)")
		fs.Float64Var(&o.d.Scale, "scale", 0, "downsampling factor S > 0: output side round(side/S)")
		fs.StringVar(&o.size, "size", "", "output size HxW instead of (or besides) -scale")
		fs.Float64Var(&o.d.Blur, "blur", 0, "Gaussian blur sigma in units of S high-resolution pixels before downsampling (0 = none)")
		fs.Float64Var(&o.d.BandKappa, "band-blur", 0, "band-dependent blur kappa: band b blurred by kappa*S*(b-1)/(B-1) (0 = none)")
		fs.Float64Var(&o.d.Noise, "noise", 0, "standard deviation of Gaussian noise added to the output (0 = none)")
		fs.Uint64Var(&o.d.Seed, "seed", 0, "noise seed")
		fs.BoolVar(&o.d.Area, "area", false, "block mean (PyTorch mode='area') instead of antialiased bicubic")
		fs.StringVar(&o.typ, "type", "", "output sample type (default float32; see omnihsr help convert)")
		o.rf.register(fs)
		o.of.register(fs)
		o.tf.register(fs)
		return o
	},
}

type degradeOpts struct {
	rf                 readFlags
	of                 outputFlags
	tf                 tiffFlags
	in, out, size, typ string
	d                  resample.DegradeOptions
}

func (o *degradeOpts) run(ctx context.Context, e env) error {
	if e.fs.NArg() > 0 {
		return usagef("unexpected arguments %q (use -in and -out)", e.fs.Args())
	}
	if o.in == "" || o.out == "" {
		return usagef("-in and -out are required")
	}
	d := o.d
	if err := checkScale(e.fs, d.Scale); err != nil {
		return err
	}
	if d.Scale == 0 && o.size == "" {
		return usagef("give -scale or -size")
	}
	if o.size != "" {
		var err error
		if d.H, d.W, err = parseSize(o.size); err != nil {
			return err
		}
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"-blur", d.Blur}, {"-band-blur", d.BandKappa}, {"-noise", d.Noise}} {
		if !(p.v >= 0) || p.v > 1e300 {
			return usagef("%s %v: want a finite number >= 0", p.name, p.v)
		}
	}
	if err := checkType(o.typ); err != nil {
		return err
	}
	if _, err := formats.ForWrite(o.out); err != nil {
		return err
	}
	if err := o.of.check(o.in, o.out); err != nil {
		return err
	}
	var wo hsi.WriteOptions
	if err := o.tf.apply(&wo, o.out); err != nil {
		return err
	}
	ro, err := o.rf.options(o.in, false)
	if err != nil {
		return err
	}
	hr, info, err := omnihsr.ReadFile(o.in, ro)
	if err != nil {
		return err
	}
	bar := newBar(e.stderr, "degrade "+filepath.Base(o.out), 3) // read, degraded, written
	bar.Set(1)
	// As upscale does: the no-data value (NaN included) never enters the
	// filters, and the output declares it.
	lr, err := hsi.KeepNoData(hr, func(c *hsi.Cube) (*hsi.Cube, error) { return resample.Degrade(c, d) })
	if err != nil {
		return fmt.Errorf("%s: %w", o.in, err)
	}
	if v, ok := hsi.NoDataValue(hr); ok {
		lr.Meta.DataIgnore, lr.Meta.HasDataIgnore = v, true
	}
	if err := ctx.Err(); err != nil {
		return err // read and degraded, not yet written
	}
	bar.Set(2)
	typ, err := sameType(o.typ, info, o.in)
	if err != nil {
		return err
	}
	wo.DataType, wo.Var = typ, info.Variable
	if err := formats.Write(o.out, lr, wo); err != nil {
		return err
	}
	bar.Done()
	fmt.Fprintf(e.stdout, "wrote %s: %d x %d x %d (rows x columns x bands; from %d x %d, factors %.4g x %.4g)\n",
		o.out, lr.H, lr.W, lr.B, hr.H, hr.W, float64(hr.H)/float64(lr.H), float64(hr.W)/float64(lr.W))
	return nil
}
