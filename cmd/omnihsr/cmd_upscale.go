package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"strings"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/opttext"
)

// methodHelp lists the methods of -method, one a line.
func methodHelp() string {
	var b strings.Builder
	for _, m := range method.All() {
		def := ""
		if m.Name == method.Default {
			def = " (default)"
		}
		fmt.Fprintf(&b, "  %-11s %s%s\n", m.Name, m.Doc, def)
	}
	return b.String()
}

// parseSize parses -size "HxW" (e.g. 512x480).
func parseSize(s string) (h, w int, err error) {
	if h, w, ok := opttext.Size(s); ok {
		return h, w, nil
	}
	return 0, 0, usagef("-size %q: want HEIGHTxWIDTH with positive integers, e.g. 128x96", s)
}

// checkScale validates a -scale value: an explicit -scale 0 is an error, an
// absent -scale (0) is not.
func checkScale(fs *flag.FlagSet, s float64) error {
	if (s == 0 && isSet(fs, "scale")) || s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return usagef("-scale %v: want a finite number > 0", s)
	}
	return nil
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// writeCube writes c to path in the format its extension names, keeping a
// MATLAB variable name if the input had one.
func writeCube(path string, c *hsi.Cube, info hsi.SourceInfo, typ sample.Type) error {
	return formats.Write(path, c, hsi.WriteOptions{DataType: typ, Var: info.Variable})
}

var upscaleCmd = &command{
	name:    "upscale",
	stops:   true,
	summary: "super-resolve a hyperspectral file by any factor(s) (OmniHSR model or bicubic)",
	usage: `Usage: omnihsr upscale -in LR -out SR (-scale S | -size HxW | -scales S1,S2,...) [-method M] [-weights FILE] [-adapt STEPS|auto] [-var NAME] [-type T] [-of COG] [-co KEY=VALUE]...

Reads LR, super-resolves every band by the factor S (output side round(S*side),
rounded half away from zero; fractional S allowed, any S > 0) or to exactly
H x W pixels (different factors per axis allowed), and writes SR in the
format its extension names (float32 unless -type says otherwise). With the
default method the OmniHSR model runs once on the low-res image and renders
every requested factor from that one encoding: -scales 2,3.5,8 with -out a
directory (files STEM_xS.EXT) or a pattern such as "sr_x{scale}.hdr".

Any sensor: the model needs no wavelengths and takes any band count (1 to
hundreds), raw counts, reflectance or negative values. Any size: the
encoder runs band by band over the rows with the same result as on the
whole image, and ENVI (.hdr), NumPy (.npy) and TIFF outputs stream to disk,
so an output larger than memory is fine (MAT and PNG are written from
memory; a COG holds its overviews, up to about 0.4 of the output's float32
size). -method bicubic also reads its input a band of rows at a time, after a
first pass over the rows, unless a band not flagged bad holds a no-data
sample, so an input that streams (ENVI, C-order NPY, TIFF, an HDF5 or
NetCDF-4 dataset, PNG) need not fit in memory either.
Georeferencing is scaled to the new grid (pixel size divided by the per-axis
factor, footprint unchanged) and, with the CRS, band scale and other
metadata, carried between ENVI and TIFF as GDAL writes them; what the output
format cannot hold is named on stderr (docs/FORMATS.md). No-data is handled
band by band: a sample holding the file's no-data value (ENVI "data ignore
value", GeoTIFF GDAL_NODATA) or NaN is filled from valid neighbours of the
same band before upscaling, so the value never bleeds into valid samples,
and comes out as no-data again (every output sample whose pixel centre lies
in one). Bad bands (bbl = 0, or no-data in every pixel) are left out of the
model's input and written as no-data. The output declares the input's
no-data value, or NaN when the input has NaN or bad bands and declares
none. Infinite input values are an error naming their position, as is an
input with no usable band; on any error no output file is left. An integer
-type clamps values outside its range as gdal_translate -ot does (NaN
becomes 0; the stored values and their scale factor are kept) and reports
how many on stderr; -type same writes the input's sample type.
Values past the input's range: the model, like bicubic interpolation, rings
past the input's range at sharp edges (the sample's 1..255 reach 395 at x4;
bicubic 291). -clamp input clamps every output band to its own range in
the input (no-data excluded) and reports how many samples it moved; the
default, -clamp none, writes the values as rendered (docs/USAGE.md).
An output that is the input (or its ENVI partner, or a link to either) is
refused unless -overwrite is given.

Per-scene adaptation (-adapt auto, or a step count; default 0 = off):
fine-tunes a copy of the model on pairs made from the input alone (crops of
it degraded by a factor), after a check one scale down: the input reduced by
the factor is rendered back by the shipped model, by the other member of the
model pair (clean or noise-aware) and by a copy fine-tuned on the reduced
input alone, each scored against the input (Wald's protocol on the input
itself; on a noisy input the reduced input carries extra noise z and the
reference is the input minus z, so that reproducing the noise is not
rewarded). A candidate replaces the shipped model only when it is better there
in PSNR and SAM by a margin; inputs too small to reduce keep the shipped
model, and a fine-tune is tried only on a reduced input of at least 24 x 24
pixels with at least 4 bands (never on greyscale or RGB images). The choice
and the scores are printed. It costs seconds to a minute of CPU whatever the
scene's size, and the result is the same on every run. Its gains are small
so far (docs/results.md, section 11), so it is off by default.

` + noiseFlagsHelp + `
` + tiffFlagsHelp + `
Methods (-method):
` + methodHelp() + `
Formats, chosen by extension:
` + formatsHelp(),
	flags: func(fs *flag.FlagSet) runner {
		o := &upscaleOpts{}
		fs.StringVar(&o.in, "in", "", "low-resolution input file (required)")
		fs.StringVar(&o.out, "out", "", "output file, or a directory / {scale} pattern with -scales (required)")
		fs.Float64Var(&o.scale, "scale", 0, "upscaling factor S > 0: output side round(S*side)")
		fs.StringVar(&o.scales, "scales", "", "several factors, comma-separated, rendered from one encoding")
		fs.StringVar(&o.size, "size", "", "output size HxW instead of -scale")
		fs.StringVar(&o.method, "method", "", "upscaling method (default "+method.Default+")")
		fs.StringVar(&o.weights, "weights", "", "OmniHSR weight file (*.omw; default: the model embedded in the binary)")
		fs.StringVar(&o.clamp, "clamp", "none", "keep values physical: none (as rendered), input (every band within its input range, no-data excluded) or type (an integer -type's range, as without)")
		fs.StringVar(&o.typ, "type", "", "output sample type (default float32; \"same\": the input's; integer types clamp; see omnihsr help convert)")
		fs.StringVar(&o.adapt, "adapt", "0", "per-scene adaptation: fine-tune the model on the input itself for STEPS steps, or auto, before rendering, when a check one scale down says it pays (0 = off)")
		o.rf.register(fs)
		o.tf.register(fs)
		o.of.register(fs)
		o.nf.register(fs)
		o.sf.register(fs)
		return o
	},
}

type upscaleOpts struct {
	rf                                          readFlags
	tf                                          tiffFlags
	of                                          outputFlags
	nf                                          noiseFlags
	sf                                          stacFlags
	in, out, size, method, typ, weights, scales string
	clamp                                       string
	adapt                                       string
	scale                                       float64
}

// parseAdapt reads -adapt: "auto", or a step count (0 = off).
func parseAdapt(s string) (int, error) {
	n, auto, ok := opttext.Adapt(s)
	if auto {
		return omnihsr.AdaptAuto, nil
	}
	if !ok || n > 100000 {
		return 0, usagef("-adapt %q: want auto, 0 (off) or a step count up to 100000", s)
	}
	return n, nil
}

// factors checks the flags that choose the output size and returns the
// factors of -scale or -scales (nil with -size).
func (o *upscaleOpts) factors(fs *flag.FlagSet) ([]float64, error) {
	if err := checkScale(fs, o.scale); err != nil {
		return nil, err
	}
	given := 0
	for _, g := range []bool{o.scale != 0, o.size != "", o.scales != ""} {
		if g {
			given++
		}
	}
	if given != 1 {
		return nil, usagef("give exactly one of -scale, -scales and -size")
	}
	switch {
	case o.scale != 0:
		return []float64{o.scale}, nil
	case o.scales != "":
		factors, err := opttext.Factors(o.scales)
		if err != nil {
			return nil, usagef("-scales %s: %v", o.scales, err)
		}
		return factors, nil
	}
	return nil, nil
}

func (o *upscaleOpts) run(ctx context.Context, e env) error {
	if e.fs.NArg() > 0 {
		return usagef("unexpected arguments %q (use -in and -out)", e.fs.Args())
	}
	if o.in == "" || o.out == "" {
		return usagef("-in and -out are required")
	}
	factors, err := o.factors(e.fs)
	if err != nil {
		return err
	}
	if err := checkType(o.typ); err != nil {
		return err
	}
	name := o.method
	if name == "" {
		name = method.Default
	}
	m, err := method.Lookup(name)
	if err != nil {
		return usagef("-method %q: unknown; have:\n%s", name, methodHelp())
	}
	if o.weights != "" && !m.Model {
		return usagef("-weights applies to -method omnihsr, omnihsr-se and omnihsr-bp only")
	}
	if err := o.nf.check(); err != nil {
		return err
	}
	clamp, err := omnihsr.ParseClamp(o.clamp)
	if err != nil {
		return usagef("-clamp %q: want none, input or type", o.clamp)
	}
	steps, err := parseAdapt(o.adapt)
	if err != nil {
		return err
	}
	if steps != 0 && !m.Model {
		return usagef("-adapt applies to -method omnihsr, omnihsr-se and omnihsr-bp only")
	}
	// The checks of one output path; the library checks each output of
	// -scales again.
	if err := o.of.check(o.in, o.out); err != nil {
		return err
	}
	stacOf := []string{o.out}
	if strings.Contains(o.out, "{scale}") {
		stacOf = nil
		for _, f := range factors {
			stacOf = append(stacOf, opttext.ExpandScale(o.out, f))
		}
	}
	if err := o.sf.check(stacOf...); err != nil {
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
	opt := omnihsr.Options{Method: omnihsr.Method(m.Name), Weights: o.weights, KeepNoisyBands: o.nf.keepNoisy,
		Driver: wo.Driver, Creation: wo.Creation, Read: ro, Overwrite: o.of.overwrite, Noise: o.nf.noise(), Clamp: clamp, Adapt: steps}
	opt.Type, opt.SameType, _ = hsi.ParseDataType(o.typ) // checked by checkType
	switch {
	case o.size != "":
		h, w, err := parseSize(o.size)
		if err != nil {
			return err
		}
		opt.Size = [2]int{h, w}
	default:
		// -scale S is -scales S: -out may be a directory or a {scale}
		// pattern too.
		opt.Scales = factors
	}
	return o.upscaleFile(ctx, e, opt, factors)
}
