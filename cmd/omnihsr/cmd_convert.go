package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/hsi/stac"
)

var convertCmd = &command{
	name:    "convert",
	stops:   true,
	summary: "convert a hyperspectral file between ENVI, MAT, NumPy, TIFF (and write PNG previews)",
	usage: `Usage: omnihsr convert -in IN -out OUT [-var NAME] [-type T] [-interleave I] [-compress C] [-of COG] [-co KEY=VALUE]...

Reads IN and writes OUT, each in the format its extension names. Values are
float32 in between: integer types up to 2^24 and float32 convert losslessly.
The output is float32 unless -type names another sample type (-type same:
the input's); integer types round to nearest, halfway cases away from zero
as GDAL does, in every format, and a value outside the type's range is
clamped to it as gdal_translate -ot does, with the count on stderr. NaN input
samples are no-data (the output declares the input's no-data value, or NaN);
an infinite value is an error naming its position. A .png output is a
false-colour preview (three bands chosen by wavelength, 2-98% stretch), for
which NaN is an error too. The output is written to a
temporary file and renamed: on error no output is left. An output that is
the input (or its ENVI partner, or a link to either) is refused unless
-overwrite is given.
Georeferencing, CRS, band scale and other metadata carry over between ENVI
and TIFF as GDAL writes them; what the output format cannot hold is named
on stderr, one "warning:" line per item (docs/FORMATS.md has the table).

` + tiffFlagsHelp + `
Formats, chosen by extension:
` + formatsHelp(),
	flags: func(fs *flag.FlagSet) runner {
		o := &convertOpts{}
		fs.StringVar(&o.in, "in", "", "input file (required)")
		fs.StringVar(&o.out, "out", "", "output file (required)")
		fs.StringVar(&o.typ, "type", "", "output sample type: float32 (default), float64, uint8, int8, int16, uint16, int32, uint32, int64, uint64 (as the format allows), or same (the input's); integer types clamp")
		fs.StringVar(&o.interleave, "interleave", "", "ENVI output interleave: bsq (default), bil or bip")
		fs.StringVar(&o.compress, "compress", "", "MAT/TIFF output compression: none (default), deflate; TIFF also lzw and zstd (with a predictor; -co COMPRESS for GDAL's meaning)")
		o.rf.register(fs)
		o.tf.register(fs)
		o.of.register(fs)
		o.sf.register(fs)
		return o
	},
}

type convertOpts struct {
	rf                                 readFlags
	of                                 outputFlags
	tf                                 tiffFlags
	sf                                 stacFlags
	in, out, typ, interleave, compress string
}

func (o *convertOpts) run(ctx context.Context, e env) error {
	if e.fs.NArg() > 0 {
		return usagef("unexpected arguments %q (use -in and -out)", e.fs.Args())
	}
	if o.in == "" || o.out == "" {
		return usagef("-in and -out are required")
	}
	if err := checkType(o.typ); err != nil {
		return err
	}
	il, err := hsi.ParseInterleave(o.interleave)
	if err != nil {
		return usagef("-interleave %q: want bsq, bil or bip", o.interleave)
	}
	comp, err := hsi.ParseCompression(o.compress)
	if err != nil {
		return usagef("-compress %q: want none, deflate, lzw or zstd", o.compress)
	}
	if err := o.of.check(o.in, o.out); err != nil {
		return err
	}
	if err := o.sf.check(o.out); err != nil {
		return err
	}
	outF, _ := formats.ForWrite(o.out)
	ro, err := o.rf.options(o.in, outF != nil && outF.Name == "MAT")
	if err != nil {
		return err
	}
	wo := hsi.WriteOptions{Interleave: il, Compression: comp, Var: o.rf.variable}
	if err := o.tf.apply(&wo, o.out); err != nil {
		return err
	}
	return runConvert(ctx, e.stdout, e.stderr, o.in, o.out, ro, o.typ, wo, o.sf)
}

// runConvert converts in to out; typ is the -type (checked by checkType),
// which sets wo.DataType. ctx is checked after the input is read (a signal
// stops the command before it writes).
func runConvert(ctx context.Context, stdout, stderr io.Writer, in, out string, ro hsi.ReadOptions, typ string, wo hsi.WriteOptions, sf stacFlags) error {
	f, err := formats.ForWrite(out)
	if err != nil {
		return err // before reading a large input
	}
	// A preview has no no-data value to write NaN as: PNG refuses it.
	ro.RefuseNaN = f.Name == "PNG"
	c, info, err := omnihsr.ReadFile(in, ro)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if wo.DataType, err = sameType(typ, info, in); err != nil {
		return err
	}
	var clamped int64
	if f.Name != "PNG" {
		declareNaNNoData(c)
		clamp, err := formats.NewClamp(wo.DataType, c.Meta.DataIgnore, c.Meta.HasDataIgnore)
		if err != nil {
			return fmt.Errorf("%s: %w", out, err)
		}
		if clamp != nil {
			if v, changed := clamp.NoData(); changed && c.Meta.HasDataIgnore {
				fmt.Fprintf(stderr, "warning: %s: the no-data value %v does not fit %s (%v): written as %v\n", out, c.Meta.DataIgnore, wo.DataType, clamp, v)
				c.Meta.DataIgnore = v
			}
			clamped = clamp.Apply(c.Data)
		}
	}
	if err := formats.Write(out, c, wo); err != nil {
		return err
	}
	if clamped > 0 {
		fmt.Fprintf(stderr, "warning: %s: %d sample(s) outside the %s range clamped to it (as gdal_translate -ot does)\n", out, clamped, wo.DataType)
	}
	if f.Name != "PNG" {
		warnDropped(stderr, out, &c.Meta)
	}
	written := "float32"
	if wo.DataType != sample.Invalid {
		written = wo.DataType.String()
	}
	if f.Name == "PNG" {
		written = "8-bit preview"
	}
	fmt.Fprintf(stdout, "wrote %s: %s %d x %d x %d (rows x columns x bands), %s (from %s %s)\n", out, f.Name, c.H, c.W, c.B, written, info.Format, info.DataType)
	if err := sf.write(stdout, out, c.H, c.W, &c.Meta, wo, stac.Processing{Command: "convert", Input: filepath.Base(in)}); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	return nil
}

// declareNaNNoData makes c declare NaN as its no-data value when it has
// NaN samples (read as no-data) and declares no other value.
func declareNaNNoData(c *hsi.Cube) {
	if c.Meta.HasDataIgnore {
		return
	}
	for _, v := range c.Data {
		if v != v {
			c.Meta.DataIgnore, c.Meta.HasDataIgnore = math.NaN(), true
			return
		}
	}
}
