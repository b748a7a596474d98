package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/hsi/stac"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/progress"
	"github.com/omnihsr/omnihsr/resample"
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

// parseSize parses "HxW" (e.g. 512x480).
func parseSize(s string) (h, w int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if ok {
		h, err1 := strconv.Atoi(strings.TrimSpace(a))
		w, err2 := strconv.Atoi(strings.TrimSpace(b))
		if err1 == nil && err2 == nil && h > 0 && w > 0 {
			return h, w, nil
		}
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

// scaleLabel formats a factor for a file name: 4, 3.5, 2.25.
func scaleLabel(s float64) string { return strconv.FormatFloat(s, 'g', -1, 64) }

// outputPaths maps the factors of -scales to output files: a pattern with
// {scale}, or a directory (existing, or ending in a separator) receiving
// STEM_xS.EXT with the input's stem and extension.
func outputPaths(out, in string, scales []float64) ([]string, error) {
	paths := make([]string, len(scales))
	if strings.Contains(out, "{scale}") {
		for i, s := range scales {
			paths[i] = strings.ReplaceAll(out, "{scale}", scaleLabel(s))
		}
		return paths, nil
	}
	st, err := os.Stat(out)
	isDir := err == nil && st.IsDir()
	if !isDir && !strings.HasSuffix(out, string(os.PathSeparator)) {
		if len(scales) == 1 {
			return []string{out}, nil
		}
		return nil, usagef("-out %q: with several -scales give a directory or a pattern containing {scale}", out)
	}
	if !isDir {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, err
		}
	}
	base := filepath.Base(in)
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	if ext == "" || strings.EqualFold(ext, ".img") || strings.EqualFold(ext, ".dat") || strings.EqualFold(ext, ".raw") {
		ext = ".hdr"
	}
	for i, s := range scales {
		paths[i] = filepath.Join(out, stem+"_x"+scaleLabel(s)+ext)
	}
	return paths, nil
}

var upscaleCmd = &command{
	name:    "upscale",
	summary: "super-resolve a hyperspectral file by any factor(s) (OmniHSR model or bicubic)",
	usage: `Usage: omnihsr upscale -in LR -out SR (-scale S | -size HxW | -scales S1,S2,...) [-method M] [-weights FILE] [-var NAME] [-type T] [-of COG] [-co KEY=VALUE]...

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
size). -method bicubic also reads an ENVI input a band of rows at a time
when it has no no-data sample and no bad band, so the input need not fit
in memory either.
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
An output that is the input (or its ENVI partner, or a link to either) is
refused unless -overwrite is given.

` + noiseFlagsHelp + `
` + tiffFlagsHelp + `
Methods (-method):
` + methodHelp() + `
Formats, chosen by extension:
` + formats.Help(),
	flags: func(fs *flag.FlagSet) runner {
		o := &upscaleOpts{}
		fs.StringVar(&o.in, "in", "", "low-resolution input file (required)")
		fs.StringVar(&o.out, "out", "", "output file, or a directory / {scale} pattern with -scales (required)")
		fs.Float64Var(&o.scale, "scale", 0, "upscaling factor S > 0: output side round(S*side)")
		fs.StringVar(&o.scales, "scales", "", "several factors, comma-separated, rendered from one encoding")
		fs.StringVar(&o.size, "size", "", "output size HxW instead of -scale")
		fs.StringVar(&o.method, "method", "", "upscaling method (default "+method.Default+")")
		fs.StringVar(&o.weights, "weights", "", "OmniHSR weight file (*.omw; default: the model embedded in the binary)")
		fs.StringVar(&o.typ, "type", "", "output sample type (default float32; \"same\": the input's; integer types clamp; see omnihsr help convert)")
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
	scale                                       float64
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
		factors, err := parseFloats(o.scales)
		if err != nil {
			return nil, usagef("-scales: %v", err)
		}
		for i, f := range factors {
			if slices.Contains(factors[:i], f) {
				return nil, usagef("-scales %s: factor %g given twice (each factor is one output)", o.scales, f)
			}
		}
		return factors, nil
	}
	return nil, nil
}

// outSize is the size of one output.
type outSize struct{ h, w int }

// sizes returns the output sizes of lr: -size, or one per factor.
func (o *upscaleOpts) sizes(H, W int, factors []float64) ([]outSize, error) {
	if o.size != "" {
		h, w, err := parseSize(o.size)
		if err != nil {
			return nil, err
		}
		return []outSize{{h, w}}, nil
	}
	out := make([]outSize, len(factors))
	for i, s := range factors {
		h, w := resample.UpSize(H, s), resample.UpSize(W, s)
		if h < 1 || w < 1 {
			eh, ew := math.Round(float64(H)*s), math.Round(float64(W)*s)
			return nil, fmt.Errorf("%s: %dx%d pixels times %g gives %.4gx%.4g: the output side round(S*side) must be between 1 and 2^31", o.in, H, W, s, eh, ew)
		}
		out[i] = outSize{h, w}
	}
	return out, nil
}

// checkOutputs checks every output of an H x W x B input before anything
// is written (formats.CheckOutputs: format, disk space of all streamed
// outputs together, memory) and returns their sizes.
func (o *upscaleOpts) checkOutputs(H, W, B int, factors []float64, paths []string, wo hsi.WriteOptions) ([]outSize, error) {
	sizes, err := o.sizes(H, W, factors)
	if err != nil {
		return nil, err
	}
	outs := make([]formats.Output, len(paths))
	for i, p := range paths {
		outs[i] = formats.Output{Path: p, H: sizes[i].h, W: sizes[i].w, B: B, Opt: wo}
	}
	return sizes, formats.CheckOutputs(outs)
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
	if err := o.nf.resolve(o.in); err != nil {
		return err
	}
	paths := []string{o.out}
	if factors != nil {
		if paths, err = outputPaths(o.out, o.in, factors); err != nil {
			return err
		}
	}
	for _, p := range paths {
		if _, err := formats.ForWrite(p); err != nil {
			return err // before reading a large input
		}
	}
	if err := o.of.check(o.in, paths...); err != nil {
		return err
	}
	if err := o.sf.check(paths...); err != nil {
		return err
	}
	wo := hsi.WriteOptions{DataType: outType(o.typ)} // -type same: known once the input is read
	if err := o.tf.apply(&wo, paths...); err != nil {
		return err
	}
	ro, err := o.rf.options(o.in, false)
	if err != nil {
		return err
	}
	if o.frontDoor(len(paths), m.Model) {
		return o.upscaleFile(ctx, e, m.Name, paths[0], wo, ro)
	}
	// The outputs are checked from the input's header before the input is
	// read, and again from the cube (formats without a readable header).
	if H, W, B, ok := formats.Shape(o.in); ok {
		if _, err := o.checkOutputs(H, W, B, factors, paths, wo); err != nil {
			return err
		}
	}
	if !m.Model {
		if done, err := o.bicubicRows(e, m.Name, factors, paths, wo, ro); done || err != nil {
			return err
		}
	}
	lr, info, err := readNaNAsNoData(o.in, ro)
	if err != nil {
		return err
	}
	if wo.DataType, err = sameType(o.typ, info, o.in); err != nil {
		return err
	}
	sizes, err := o.checkOutputs(lr.H, lr.W, lr.B, factors, paths, wo)
	if err != nil {
		return err
	}
	var mod *model.Model
	if m.Model {
		if mod, err = loadModel(o.weights); err != nil {
			return fmt.Errorf("%s: %w", o.in, err)
		}
		if o.nf.keepNoisy {
			mod = mod.KeepNoisyBands(true)
		}
	}
	if m.Model {
		if err := o.nf.apply(e.stderr, lr, ro); err != nil {
			return err
		}
	}
	r, err := m.Prepare(mod, lr)
	if err != nil {
		return fmt.Errorf("%s: %w", o.in, err)
	}
	var written []string
	reportNoise(e.stderr, r, mod)
	reportOutliers(e.stderr, r, lr)
	for i, sz := range sizes {
		if err := renderFile(e.stderr, r, lr, info, sz.h, sz.w, paths[i], wo); err != nil {
			return fmt.Errorf("%s: %w%s", o.in, err, removeOutputs(written))
		}
		written = append(written, paths[i])
		fmt.Fprintf(e.stdout, "wrote %s: %d x %d x %d (%s from %d x %d, factors %.4g x %.4g)\n",
			paths[i], sz.h, sz.w, lr.B, m.Name, lr.H, lr.W, float64(sz.h)/float64(lr.H), float64(sz.w)/float64(lr.W))
		if o.sf.on {
			nd, hasND := hsi.NoDataValue(lr)
			if err := o.writeSTAC(e.stdout, lr.Meta, lr.H, lr.W, sz, nd, hasND, paths[i], wo, m.Name, modelNote(r, mod, o.weights)); err != nil {
				return fmt.Errorf("%s: %w%s", o.in, err, removeOutputs(written))
			}
		}
	}
	return nil
}

// writeSTAC writes the STAC item of one output (-stac).
func (o *upscaleOpts) writeSTAC(stdout io.Writer, inMeta hsi.Meta, H, W int, sz outSize, nd float64, hasND bool, path string, wo hsi.WriteOptions, methodName, modelName string) error {
	meta, _, _, err := method.OutputMeta(inMeta, H, W, sz.h, sz.w, nd, hasND, wo.DataType, path)
	if err != nil {
		return err
	}
	return o.sf.write(stdout, path, sz.h, sz.w, &meta, wo, stac.Processing{Command: "upscale", Method: methodName,
		FactorY: float64(sz.h) / float64(H), FactorX: float64(sz.w) / float64(W), Model: modelName, Input: filepath.Base(o.in)})
}

// sameType resolves -type same to the input's sample type.
func sameType(typ string, info hsi.SourceInfo, in string) (sample.Type, error) {
	if !strings.EqualFold(typ, "same") {
		return outType(typ), nil
	}
	t, err := sample.ParseType(info.DataType)
	if err != nil || info.DataType == "" {
		return sample.Invalid, fmt.Errorf("%s: -type same: the input's sample type %q cannot be written", in, info.DataType)
	}
	return t, nil
}

// removeOutputs removes the outputs a failed multi-output run already
// wrote, so that it leaves all of them or none, and says so for the error
// message.
func removeOutputs(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	for _, p := range paths {
		for _, f := range formats.WriteFiles(p) {
			os.Remove(f)
		}
	}
	return fmt.Sprintf(" (removed the outputs already written: %s)", strings.Join(paths, ", "))
}

// renderFile renders one output size into path (method.RenderFile) with a
// progress line on stderr when it is a terminal, and writes the warnings
// to stderr.
func renderFile(stderr io.Writer, r method.Renderer, lr *hsi.Cube, info hsi.SourceInfo, h, w int, path string, wo hsi.WriteOptions) error {
	tty := terminal(stderr)
	bar := progress.NewTo(tty, "upscale "+filepath.Base(path), int64(h), tty != nil)
	warnings, err := method.RenderFile(r, lr, info, h, w, path, wo, func(done, total int) { bar.Set(int64(done)) })
	if err != nil {
		return err
	}
	bar.Done()
	for _, s := range warnings {
		fmt.Fprintln(stderr, s)
	}
	return nil
}
