package main

import (
	"flag"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/resample"
)

// upscaler makes an h x w cube from the low-resolution cube lr. The
// effective factors are h/lr.H and w/lr.W (their mean when they differ is
// the factor a model receives, SPEC section 3). The result's metadata is
// lr's with its georeferencing scaled to the new grid (resample.Upsample
// does this; a new method must too).
type upscaler func(lr *hsi.Cube, h, w int) (*hsi.Cube, error)

// upscalers are the methods of `omnihsr upscale -method`. A method joins
// with one line in an init function of any file of this command, e.g.
//
//	registerUpscaler("omnihsr", "the OmniHSR model", omnihsrUpscale)
//
// and becomes the default by also setting defaultUpscaler = "omnihsr"
// there (help and flag defaults are built at run time, after every init).
var upscalers = map[string]upscalerEntry{
	"bicubic": {"bicubic interpolation U_s, PyTorch F.interpolate(mode='bicubic', align_corners=False)", resample.Upsample},
}

type upscalerEntry struct {
	doc string
	fn  upscaler
}

// defaultUpscaler is the method used without -method.
var defaultUpscaler = "bicubic"

func registerUpscaler(name, doc string, fn upscaler) {
	if _, dup := upscalers[name]; dup {
		panic("omnihsr: upscaler registered twice: " + name)
	}
	upscalers[name] = upscalerEntry{doc, fn}
}

func upscalerHelp() string {
	names := make([]string, 0, len(upscalers))
	for n := range upscalers {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		def := ""
		if n == defaultUpscaler {
			def = " (default)"
		}
		fmt.Fprintf(&b, "  %-10s %s%s\n", n, upscalers[n].doc, def)
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

// checkScale validates a -scale value (0 = not given).
func checkScale(s float64) error {
	if s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return usagef("-scale %v: want a finite number > 0", s)
	}
	return nil
}

// writeCube writes c to path in the format its extension names, keeping a
// MATLAB variable name if the input had one.
func writeCube(path string, c *hsi.Cube, info hsi.SourceInfo, typ string) error {
	return formats.Write(path, c, hsi.WriteOptions{DataType: typ, Var: info.Variable})
}

func init() {
	var rf readFlags
	var in, out, size, method, typ string
	var scale float64
	// The usage text lists the registered methods; it is built when the
	// flags are (at help time), after every init has registered its method.
	usage := func() string {
		return `Usage: omnihsr upscale -in LR -out SR (-scale S | -size HxW) [-method M] [-var NAME] [-type T]

Reads LR, upscales every band by the factor S (output side round(S*side),
rounded half away from zero; fractional S allowed) or to exactly H x W
pixels (different factors per axis allowed), and writes SR in the format its
extension names (float32 unless -type says otherwise). Georeferencing is
scaled to the new grid (pixel size divided by the per-axis factor, footprint
unchanged). NaN or infinite input values are an error naming their position;
on any error no output file is left.

Methods (-method; the OmniHSR model joins later and becomes the default):
` + upscalerHelp() + `
Formats, chosen by extension:
` + formats.Help()
	}
	c := &command{
		name:    "upscale",
		summary: "super-resolve a hyperspectral file by any factor (bicubic for now)",
	}
	c.usage = usage()
	c.flags = func(fs *flag.FlagSet) {
		c.usage = usage()
		fs.StringVar(&in, "in", "", "low-resolution input file (required)")
		fs.StringVar(&out, "out", "", "output file (required)")
		fs.Float64Var(&scale, "scale", 0, "upscaling factor S > 0: output side round(S*side)")
		fs.StringVar(&size, "size", "", "output size HxW instead of -scale")
		fs.StringVar(&method, "method", "", "upscaling method (default "+defaultUpscaler+")")
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
		if err := checkScale(scale); err != nil {
			return err
		}
		if (scale == 0) == (size == "") {
			return usagef("give exactly one of -scale and -size")
		}
		var h, w int
		if size != "" {
			var err error
			if h, w, err = parseSize(size); err != nil {
				return err
			}
		}
		if method == "" {
			method = defaultUpscaler
		}
		m, ok := upscalers[method]
		if !ok {
			return usagef("-method %q: unknown; have:\n%s", method, upscalerHelp())
		}
		if _, err := formats.ForWrite(out); err != nil {
			return err // before reading a large input
		}
		ro, err := rf.options()
		if err != nil {
			return err
		}
		lr, info, err := formats.Read(in, ro)
		if err != nil {
			return err
		}
		if size == "" {
			h, w = resample.UpSize(lr.H, scale), resample.UpSize(lr.W, scale)
			if h < 1 || w < 1 {
				return fmt.Errorf("%s: %dx%d pixels times %g gives %dx%d: the output side round(S*side) must be between 1 and 2^31", in, lr.H, lr.W, scale, h, w)
			}
		}
		sr, err := m.fn(lr, h, w)
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		if err := writeCube(out, sr, info, typ); err != nil {
			return err
		}
		fmt.Fprintf(infoStdout, "wrote %s: %d x %d x %d (%s from %d x %d, factors %.4g x %.4g)\n",
			out, sr.H, sr.W, sr.B, method, lr.H, lr.W, float64(sr.H)/float64(lr.H), float64(sr.W)/float64(lr.W))
		return nil
	}
	register(c)
}
