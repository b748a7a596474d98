package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/formats/raw"
)

// infoStdout receives the reports of info and convert (tests replace it).
var infoStdout io.Writer = os.Stdout

// readFlags are the flags that select what a reader takes from a file.
type readFlags struct {
	variable, layout string
	height, width    int
}

func (r *readFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.variable, "var", "", "MATLAB variable to read (default: the largest numeric array); convert also gives a .mat output this name (default \"cube\")")
	fs.StringVar(&r.layout, "layout", "", "MATLAB array layout: HWB, B_HW_colmajor or HDF5_BWH (default: inferred)")
	fs.IntVar(&r.height, "height", 0, "image height of a bands x pixels MATLAB matrix")
	fs.IntVar(&r.width, "width", 0, "image width of a bands x pixels MATLAB matrix")
}

func (r *readFlags) options() (hsi.ReadOptions, error) {
	if r.height < 0 || r.width < 0 {
		return hsi.ReadOptions{}, usagef("-height and -width must not be negative")
	}
	return hsi.ReadOptions{Var: r.variable, Layout: r.layout, Height: r.height, Width: r.width}, nil
}

func init() {
	var rf readFlags
	register(&command{
		name:    "info",
		summary: "describe a hyperspectral file: format, shape, data type, values, wavelengths, georeferencing",
		usage: `Usage: omnihsr info FILE [-var NAME] [-layout L -height H -width W]

Prints the file's format, shape (rows x columns x bands), on-disk data type,
value range (with the count of NaN and infinite values, if any), wavelength
range and units, bad bands, data-ignore value and georeferencing.

Formats, chosen by extension:
` + formats.Help(),
		flags: rf.register,
		run: func(fs *flag.FlagSet) error {
			args, err := interspersed(fs)
			if err != nil {
				return err
			}
			if len(args) != 1 {
				return usagef("want exactly one FILE, got %d arguments", len(args))
			}
			opt, err := rf.options()
			if err != nil {
				return err
			}
			return runInfo(infoStdout, args[0], opt)
		},
	})
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

func runInfo(w io.Writer, path string, opt hsi.ReadOptions) error {
	c, info, err := formats.Read(path, opt)
	var nf *raw.NonFiniteError
	if err != nil && !(errors.As(err, &nf) && c != nil) {
		return err
	}
	m := &c.Meta
	p := func(k, format string, a ...any) { fmt.Fprintf(w, "%-15s %s\n", k+":", fmt.Sprintf(format, a...)) }
	p("file", "%s", path)
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
	if info.Variable != "" {
		p("variable", "%s", info.Variable)
	}
	p("shape", "%d x %d x %d (rows x columns x bands)", c.H, c.W, c.B)
	p("data type", "%s", info.DataType)
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	var nNaN, nInf int64
	for _, v := range c.Data {
		switch {
		case v != v:
			nNaN++
		case math.IsInf(float64(v), 0):
			nInf++
		default:
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	rng := "no finite values"
	if lo <= hi {
		rng = fmt.Sprintf("%g .. %g", lo, hi)
	}
	if nNaN+nInf > 0 {
		rng += fmt.Sprintf(" (%d NaN, %d infinite", nNaN, nInf)
		if nf != nil {
			rng += fmt.Sprintf("; first at row %d, column %d, band %d", nf.Row, nf.Col, nf.Band)
		}
		rng += ")"
	}
	p("value range", "%s", rng)
	if len(m.Wavelengths) > 0 {
		wlo, whi := math.Inf(1), math.Inf(-1)
		for _, v := range m.Wavelengths {
			wlo, whi = min(wlo, v), max(whi, v)
		}
		units := m.WavelengthUnits
		if units == "" {
			units = "(units unknown)"
		}
		p("wavelengths", "%g .. %g %s (%d values)", wlo, whi, units, len(m.Wavelengths))
	} else {
		p("wavelengths", "unknown")
	}
	if len(m.FWHM) > 0 {
		flo, fhi := math.Inf(1), math.Inf(-1)
		for _, v := range m.FWHM {
			flo, fhi = min(flo, v), max(fhi, v)
		}
		p("fwhm", "%g .. %g", flo, fhi)
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
	p("georeferencing", "%s", m.Geo.Summary())
	return nil
}
