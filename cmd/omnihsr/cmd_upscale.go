package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/progress"
	"github.com/omnihsr/omnihsr/method"
	"github.com/omnihsr/omnihsr/model"
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
func writeCube(path string, c *hsi.Cube, info hsi.SourceInfo, typ string) error {
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

func init() {
	var rf readFlags
	var in, out, size, methodName, typ, weights, scales string
	var scale float64
	usage := func() string {
		return `Usage: omnihsr upscale -in LR -out SR (-scale S | -size HxW | -scales S1,S2,...) [-method M] [-weights FILE] [-var NAME] [-type T]

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
whole image, and ENVI (.hdr) and NumPy (.npy) outputs stream to disk, so an
output larger than memory is fine (other formats are written from memory).
Georeferencing is scaled to the new grid (pixel size divided by the per-axis
factor, footprint unchanged) and, with the CRS, band scale and other
metadata, carried between ENVI and TIFF as GDAL writes them; what the output
format cannot hold is named on stderr (docs/FORMATS.md). No-data: pixels whose every band holds the
file's no-data value (ENVI "data ignore value", GeoTIFF GDAL_NODATA, NaN
included) are filled from their valid neighbours before upscaling, so the
value never bleeds into valid pixels, and come out as no-data again (every
output pixel whose centre lies in one). Other NaN or infinite input values
are an error naming their position; on any error no output file is left.

Methods (-method):
` + methodHelp() + `
Formats, chosen by extension:
` + formats.Help()
	}
	c := &command{
		name:    "upscale",
		summary: "super-resolve a hyperspectral file by any factor(s) (OmniHSR model or bicubic)",
	}
	c.usage = usage()
	c.flags = func(fs *flag.FlagSet) {
		c.usage = usage()
		fs.StringVar(&in, "in", "", "low-resolution input file (required)")
		fs.StringVar(&out, "out", "", "output file, or a directory / {scale} pattern with -scales (required)")
		fs.Float64Var(&scale, "scale", 0, "upscaling factor S > 0: output side round(S*side)")
		fs.StringVar(&scales, "scales", "", "several factors, comma-separated, rendered from one encoding")
		fs.StringVar(&size, "size", "", "output size HxW instead of -scale")
		fs.StringVar(&methodName, "method", "", "upscaling method (default "+method.Default+")")
		fs.StringVar(&weights, "weights", "", "OmniHSR weight file (*.omw; default: the model embedded in the binary)")
		fs.StringVar(&typ, "type", "", "output sample type (default float32; see omnihsr help convert)")
		rf.register(fs)
	}
	c.run = func(fs *flag.FlagSet) error {
		if fs.NArg() > 0 {
			return usagef("unexpected arguments %q (use -in and -out)", fs.Args())
		}
		if in == "" || out == "" {
			return usagef("-in and -out are required")
		}
		if err := checkScale(fs, scale); err != nil {
			return err
		}
		given := 0
		for _, g := range []bool{scale != 0, size != "", scales != ""} {
			if g {
				given++
			}
		}
		if given != 1 {
			return usagef("give exactly one of -scale, -scales and -size")
		}
		var factors []float64
		switch {
		case scale != 0:
			factors = []float64{scale}
		case scales != "":
			var err error
			if factors, err = parseFloats(scales); err != nil {
				return usagef("-scales: %v", err)
			}
		}
		if methodName == "" {
			methodName = method.Default
		}
		m, err := method.Lookup(methodName)
		if err != nil {
			return usagef("-method %q: unknown; have:\n%s", methodName, methodHelp())
		}
		if weights != "" && !m.Model {
			return usagef("-weights applies to -method omnihsr, omnihsr-se and omnihsr-bp only")
		}
		paths := []string{out}
		if factors != nil {
			var err error
			if paths, err = outputPaths(out, in, factors); err != nil {
				return err
			}
		}
		for _, p := range paths {
			if _, err := formats.ForWrite(p); err != nil {
				return err // before reading a large input
			}
		}
		ro, err := rf.options()
		if err != nil {
			return err
		}
		lr, info, err := formats.Read(in, ro)
		if err != nil {
			return err
		}
		type job struct{ h, w int }
		jobs := make([]job, len(paths))
		if size != "" {
			h, w, err := parseSize(size)
			if err != nil {
				return err
			}
			jobs[0] = job{h, w}
		} else {
			for i, s := range factors {
				h, w := resample.UpSize(lr.H, s), resample.UpSize(lr.W, s)
				if h < 1 || w < 1 {
					return fmt.Errorf("%s: %dx%d pixels times %g gives %dx%d: the output side round(S*side) must be between 1 and 2^31", in, lr.H, lr.W, s, h, w)
				}
				jobs[i] = job{h, w}
			}
		}
		var mod *model.Model
		if m.Model {
			if mod, err = loadModel(weights); err != nil {
				return fmt.Errorf("%s: %w", in, err)
			}
		}
		r, err := m.Prepare(mod, lr)
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		for i, j := range jobs {
			if err := renderFile(r, lr, info, j.h, j.w, paths[i], typ); err != nil {
				return fmt.Errorf("%s: %w", in, err)
			}
			fmt.Fprintf(infoStdout, "wrote %s: %d x %d x %d (%s from %d x %d, factors %.4g x %.4g)\n",
				paths[i], j.h, j.w, lr.B, m.Name, lr.H, lr.W, float64(j.h)/float64(lr.H), float64(j.w)/float64(lr.W))
		}
		return nil
	}
	register(c)
}

// renderFile renders one output size into a (streaming, where the format
// allows) writer, publishing the file only when every row is written.
func renderFile(r method.Renderer, lr *hsi.Cube, info hsi.SourceInfo, h, w int, path, typ string) error {
	meta, err := lr.Meta.Resized(lr.H, lr.W, h, w)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	wr, err := formats.Create(path, h, w, lr.B, meta, hsi.WriteOptions{DataType: typ, Var: info.Variable})
	if err != nil {
		return err
	}
	defer wr.Abort()
	bar := progress.New("upscale "+filepath.Base(path), int64(h))
	err = r.RenderTo(h, w, wr, func(done, total int) { bar.Set(int64(done)) })
	if err != nil {
		return err
	}
	bar.Done()
	if err := wr.Commit(); err != nil {
		return err
	}
	warnDropped(path, &meta)
	for _, f := range lr.Meta.Extra {
		if slices.Contains(hsi.GridFields, f.Key) {
			fmt.Fprintf(warnStderr, "warning: %s: not written (it describes pixel positions of the input grid): ENVI field %q\n", path, f.Key)
		}
	}
	return nil
}
