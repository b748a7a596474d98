package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/crs"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/noise"
)

// warnDropped writes to w one warning line for each part of m that the
// format of path cannot hold.
func warnDropped(w io.Writer, path string, m *hsi.Meta) {
	for _, d := range formats.Dropped(path, m) {
		fmt.Fprintf(w, "warning: %s: not written (the format cannot hold it): %s\n", path, d)
	}
}

// readFlags are the flags that select what a reader takes from a file.
type readFlags struct {
	variable, layout string
	height, width    int
	ortho            bool
}

func (r *readFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.variable, "var", "", "MATLAB variable to read (default: the largest numeric array); convert also gives a .mat output this name (default \"cube\")")
	fs.StringVar(&r.layout, "layout", "", "MATLAB array layout: HWB, B_HW_colmajor or HDF5_BWH (default: inferred)")
	fs.IntVar(&r.height, "height", 0, "image height of a bands x pixels MATLAB matrix")
	fs.IntVar(&r.width, "width", 0, "image width of a bands x pixels MATLAB matrix")
	fs.BoolVar(&r.ortho, "ortho", false, "EMIT: apply the geometry lookup table (georeferenced grid) instead of reading the swath")
}

// options returns the read options of the input in, refusing a flag that
// in's format would ignore (-var, -layout, -height and -width select an
// array of a MATLAB or HDF5 file, -ortho a product's map grid): the user
// would otherwise get another image than the one asked for, silently.
// outVar says that -var also names the variable of a MATLAB output
// (convert), where it is never refused.
func (r *readFlags) options(in string, outVar bool) (hsi.ReadOptions, error) {
	if r.height < 0 || r.width < 0 {
		return hsi.ReadOptions{}, usagef("-height and -width must not be negative")
	}
	ro := hsi.ReadOptions{Var: r.variable, Layout: r.layout, Height: r.height, Width: r.width, Ortho: r.ortho}
	if outVar && slices.Contains(formats.IgnoredReadOptions(in, ro), "Var") {
		ro.Var = "" // it names the output's variable only
	}
	if ignored := formats.IgnoredReadOptions(in, ro); len(ignored) > 0 {
		f, _ := formats.ForRead(in)
		for i, n := range ignored {
			ignored[i] = "-" + strings.ReplaceAll(strings.ToLower(n), "/", "/-")
		}
		return hsi.ReadOptions{}, usagef("%s: %s does not apply to a %s file (-var, -layout, -height and -width select an array of a MATLAB or HDF5 file, -ortho the map grid of an EMIT, EnMAP or DESIS product)",
			in, strings.Join(ignored, ", "), f.Name)
	}
	return ro, nil
}

var infoCmd = &command{
	name:    "info",
	summary: "describe a hyperspectral file: format, shape, data type, values, wavelengths, georeferencing",
	usage: `Usage: omnihsr info FILE [-v] [-var NAME] [-layout L -height H -width W]

Prints the file's format, shape (rows x columns x bands), on-disk data type,
value range (without the samples at the data ignore value, which it counts;
with the count of NaN and infinite values, if any), wavelength
range and units, bad bands, the bands whose noise upscale leaves out of its
choice of model (more than 6 as ranges; -v lists each with its figures),
data-ignore value and georeferencing.

Formats, chosen by extension:
` + formatsHelp(),
	flags: func(fs *flag.FlagSet) runner {
		o := &infoOpts{}
		o.rf.register(fs)
		fs.BoolVar(&o.verbose, "v", false, "list every noisy band with its figures (by default more than 6 are listed as ranges)")
		return o
	},
}

type infoOpts struct {
	rf      readFlags
	verbose bool
}

func (o *infoOpts) run(_ context.Context, e env) error {
	args, err := interspersed(e.fs)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("want exactly one FILE, got %d arguments", len(args))
	}
	opt, err := o.rf.options(args[0], false)
	if err != nil {
		return err
	}
	return runInfo(e.stdout, args[0], opt, o.verbose)
}

// interspersed returns the positional arguments of fs, parsing flags that
// follow them too (omnihsr info FILE -var NAME).
func interspersed(fs *flag.FlagSet) ([]string, error) {
	var pos []string
	for fs.NArg() > 0 {
		pos = append(pos, fs.Arg(0))
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return nil, usagef("%v", err)
		}
	}
	return pos, nil
}

// runInfo prints what info says of the file at path; verbose lists every
// noisy band with its figures.
func runInfo(w io.Writer, path string, opt hsi.ReadOptions, verbose bool) error {
	fi, err := inspect(path, opt)
	if err != nil {
		return err
	}
	c := fi.c
	p := func(k, format string, a ...any) { fmt.Fprintf(w, "%-15s %s\n", k+":", fmt.Sprintf(format, a...)) }
	p("file", "%s", path)
	infoFormat(p, c, fi.info)
	p("value range", "%s", valueRange(&c.Meta, fi.st))
	infoBands(p, fi, verbose)
	infoGeo(p, c)
	bandTable(w, c)
	return nil
}

// fileInfo is what info prints of a file: its size and metadata (c, whose
// Data is nil), what the reader saw, the statistics of its samples and the
// bands the noise screen judges unusable.
type fileInfo struct {
	c    *hsi.Cube
	info hsi.SourceInfo
	st   hsi.Stats
	// noisy are the bands the screen judges unusable, unless screenErr
	// says why they were not screened (quiet: the screen has nothing to
	// say, every band being bad or no-data throughout).
	noisy     []noise.Outlier
	screenErr error
	quiet     bool
}

// inspect reads the file at path through formats.Open, its rows a band at
// a time into the statistics and the noise screen (describe), so that
// the memory held is what the Source holds; the rows of an HDF5 dataset
// that the file never wrote are counted without being read (a small file
// declaring a huge dataset allocates nothing from the declared size).
func inspect(path string, opt hsi.ReadOptions) (fileInfo, error) {
	src, err := formats.Open(path, opt)
	if err != nil {
		return fileInfo{}, err
	}
	defer src.Close()
	hd := src.Header()
	d, err := describe(src, path)
	if err != nil {
		return fileInfo{}, err
	}
	fi := fileInfo{c: &hsi.Cube{H: hd.H, W: hd.W, B: hd.B, Meta: hd.Meta}, info: hd.Info, st: d.st, quiet: d.unusable}
	if d.ns == nil {
		fi.screenErr = fmt.Errorf("%s: %w", path, d.why)
	} else {
		fi.noisy = d.ns.Outliers(hd.Meta.BadBands)
	}
	return fi, nil
}

// infoLine prints one "key: value" line of omnihsr info.
type infoLine func(k, format string, a ...any)

// infoFormat prints the format, product, variable, shape and data type.
func infoFormat(p infoLine, c *hsi.Cube, info hsi.SourceInfo) {
	fd := info.Format
	var det []string
	if info.Layout != "" {
		det = append(det, info.Layout)
	}
	if info.Detail != "" {
		det = append(det, info.Detail)
	}
	if len(det) > 0 {
		fd += " (" + strings.Join(det, "; ") + ")"
	}
	p("format", "%s", fd)
	if info.Product != "" {
		p("product", "%s", info.Product)
	}
	if info.Variable != "" {
		p("variable", "%s", info.Variable)
	}
	p("shape", "%d x %d x %d (rows x columns x bands)", c.H, c.W, c.B)
	p("data type", "%s", info.DataType)
}

// valueRange is the value range line: it leaves out the samples at the
// data ignore value, as gdalinfo's statistics leave out no-data, and says
// how many there are.
func valueRange(m *hsi.Meta, st hsi.Stats) string {
	ign, _ := m.IgnoreValue()
	lo, hi := st.Lo, st.Hi
	nNaN, nInf, nIgn := st.NaN, st.Inf, st.Ignored
	rng := "no finite values"
	if lo <= hi {
		rng = fmt.Sprintf("%g .. %g", lo, hi)
	}
	if nIgn > 0 {
		unit := "samples"
		if nIgn == 1 {
			unit = "sample"
		}
		rng += fmt.Sprintf(" (left out: %d no-data %s at %g)", nIgn, unit, ign)
	}
	if nNaN+nInf > 0 {
		rng += fmt.Sprintf(" (%d NaN, %d infinite; first at row %d, column %d, band %d)", nNaN, nInf, st.Row, st.Col, st.Band)
	}
	return rng
}

// finiteRange prints the range "lo .. hi" of the finite values of vs ("none
// finite" when there are none), so that one NaN does not make it NaN.
func finiteRange(vs []float64) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if lo > hi {
		return "none finite"
	}
	return fmt.Sprintf("%g .. %g", lo, hi)
}

// notFinite says how many of vs are not finite (", 1 not finite"), "" when
// all are.
func notFinite(vs []float64) string {
	n := 0
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d not finite", n)
}

// infoBands prints the spectral lines: wavelengths, FWHM, bad bands, the
// bands upscale's noise screen leaves out, the data ignore value and the
// description.
func infoBands(p infoLine, fi fileInfo, verbose bool) {
	c := fi.c
	m := &c.Meta
	if len(m.Wavelengths) > 0 {
		units := m.WavelengthUnits
		if units == "" {
			units = "(units unknown)"
		}
		p("wavelengths", "%s %s (%d values%s)", finiteRange(m.Wavelengths), units, len(m.Wavelengths), notFinite(m.Wavelengths))
	} else {
		p("wavelengths", "unknown")
	}
	if len(m.FWHM) > 0 {
		p("fwhm", "%s%s", finiteRange(m.FWHM), notFinite(m.FWHM))
	}
	if m.BadBands != nil {
		n := 0
		for _, b := range m.BadBands {
			if b {
				n++
			}
		}
		p("bad bands", "%d of %d", n, c.B)
	} else {
		p("bad bands", "none listed")
	}
	// The bands upscale's noise screen leaves out, screened on a file
	// without NaN or infinite samples.
	if st := fi.st; st.NaN+st.Inf == 0 && !fi.quiet {
		switch out := fi.noisy; {
		case fi.screenErr != nil:
			p("noisy bands", "not screened (%v)", fi.screenErr)
		case len(out) == 0:
			p("noisy bands", "none")
		default:
			p("noisy bands", "%d judged unusable, "+noisyBandsNote+" (upscale -keep-noisy-bands keeps them in): %s",
				len(out), noise.OutlierFactor, 100*noise.OutlierNSR, describeOutliers(m, out, verbose))
		}
	}
	if m.HasDataIgnore {
		p("data ignore", "%g", m.DataIgnore)
	} else {
		p("data ignore", "none")
	}
	if m.Description != "" {
		d := strings.Join(strings.Fields(m.Description), " ")
		if len(d) > 100 {
			d = d[:100] + "..."
		}
		p("description", "%s", d)
	}
}

// infoGeo prints the georeferencing: CRS, pixel size and corners.
func infoGeo(p infoLine, c *hsi.Cube) {
	m := &c.Meta
	p("georeferencing", "%s", m.Geo.Summary())
	if gt, ok := m.Geo.Transform(); ok {
		cs, note := m.Geo.CRS()
		switch {
		case cs.Empty() && note != "":
			p("crs", "unknown (%s)", note)
		case cs.Empty():
			p("crs", "none")
		case cs.EPSG != 0:
			name := crs.EPSGName(cs.EPSG) // gdalinfo's name, else the WKT's
			if name == "" {
				name = cs.Name()
			}
			p("crs", "%s (EPSG:%d)", name, cs.EPSG)
		default:
			p("crs", "%s (no EPSG code)", cs.Name())
		}
		px, py := math.Hypot(gt[1], gt[4]), math.Hypot(gt[2], gt[5])
		size := fmt.Sprintf("%s x %s (x, y)", short32(px), short32(py))
		if gt[2] != 0 || gt[4] != 0 {
			size += fmt.Sprintf(" (rotated: geotransform %g, %g, %g, %g, %g, %g)", gt[0], gt[1], gt[2], gt[3], gt[4], gt[5])
		}
		p("pixel size", "%s", size)
		// Corners as gdalinfo prints them: 3 decimals in a projected CRS,
		// 7 in degrees.
		prec := 3
		if cs.Geographic() || (cs.Empty() && math.Abs(gt[1]) < 0.01) {
			prec = 7
		}
		xy := func(x, y float64) string {
			return fmt.Sprintf("(%.*f, %.*f)", prec, x, prec, y)
		}
		at := func(col, row int) string {
			x, y := float64(col), float64(row)
			return xy(gt[0]+x*gt[1]+y*gt[2], gt[3]+x*gt[4]+y*gt[5])
		}
		p("upper left", "%s", at(0, 0))
		p("upper right", "%s", at(c.W, 0))
		p("lower left", "%s", at(0, c.H))
		p("lower right", "%s", at(c.W, c.H))
		p("center", "%s", xy(gt[0]+float64(c.W)/2*gt[1]+float64(c.H)/2*gt[2], gt[3]+float64(c.W)/2*gt[4]+float64(c.H)/2*gt[5]))
	}
}

// short32 prints v with the fewest digits that read back as the same
// float32: a pixel size derived in float64 from one stored with float32
// noise (7.124999999818635) prints as a person reads it (7.125).
func short32(v float64) string {
	return strconv.FormatFloat(float64(float32(v)), 'g', -1, 32)
}

// bandTable prints a line per band when the file describes its bands.
func bandTable(w io.Writer, c *hsi.Cube) {
	m := &c.Meta
	if len(m.Wavelengths) > 0 || len(m.FWHM) > 0 || m.BadBands != nil || m.Scale != nil {
		fmt.Fprintln(w, "bands:")
		for b := 0; b < c.B; b++ {
			line := fmt.Sprintf("  %4d", b+1)
			if b < len(m.Wavelengths) {
				line += fmt.Sprintf("  %g %s", m.Wavelengths[b], m.WavelengthUnits)
			}
			if b < len(m.FWHM) {
				line += fmt.Sprintf("  fwhm %g", m.FWHM[b])
			}
			if s, o, ok := m.PhysicalScale(b); ok {
				line += fmt.Sprintf("  scale %g offset %g", s, o)
			}
			if b < len(m.BadBands) && m.BadBands[b] {
				line += "  bad"
			}
			if b < len(m.BandNames) && m.BandNames[b] != "" {
				line += "  " + strconv.Quote(m.BandNames[b])
			}
			fmt.Fprintln(w, line)
		}
	}
}
