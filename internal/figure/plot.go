package figure

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	plotfont "gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// PlotDPI is the resolution LinePlot renders at: 1 point of line width or
// font size is PlotDPI/72 pixels.
const PlotDPI = 96

// Default LinePlot size in pixels, used when PlotSpec.Width or Height is 0.
const (
	DefaultPlotWidth  = 640
	DefaultPlotHeight = 400
)

// maxPlotSide bounds PlotSpec.Width and Height.
const maxPlotSide = 8192

// Series is one line of a LinePlot. X and Y have the same length (at least
// one point), all finite. An empty Name keeps the series out of the legend.
type Series struct {
	Name   string
	X, Y   []float64
	Dashed bool
	// Colour is the line's colour; the zero value (alpha 0) takes
	// Palette[i mod 8] for series i. A report gives each method one colour
	// in every figure through it.
	Colour color.NRGBA
}

// PlotSpec describes a LinePlot.
type PlotSpec struct {
	Title, XLabel, YLabel string
	Series                []Series
	// Width and Height of the image in pixels; 0 means DefaultPlotWidth or
	// DefaultPlotHeight.
	Width, Height int
	// LogY puts the Y axis on a log scale (every Y must then be positive),
	// labelled at powers of ten (also at 2 and 5 times them when the range
	// spans less than a decade or two).
	LogY bool
}

// Palette is the sequence of LinePlot series colours (Okabe and Ito's
// colour-blind-safe palette, yellow last); series i gets Palette[i mod 8].
var Palette = [...]color.NRGBA{
	{0x00, 0x72, 0xB2, 255}, // blue
	{0xD5, 0x5E, 0x00, 255}, // vermillion
	{0x00, 0x9E, 0x73, 255}, // bluish green
	{0xCC, 0x79, 0xA7, 255}, // reddish purple
	{0xE6, 0x9F, 0x00, 255}, // orange
	{0x56, 0xB4, 0xE9, 255}, // sky blue
	{0x00, 0x00, 0x00, 255}, // black
	{0xF0, 0xE4, 0x42, 255}, // yellow
}

// LinePlot renders p with gonum.org/v1/plot on a white background at
// PlotDPI, Liberation Sans text (the fonts are compiled into gonum/plot),
// lines 1.5 points wide (dashed 6-3 points for Dashed series), light grid
// lines at the major ticks and, when a series has a name, a legend to the
// right of the axes (outside them, so it never hides a line; it takes its
// width from the plotting area). The result (an *image.RGBA, opaque)
// depends only on p.
func LinePlot(p PlotSpec) (img image.Image, err error) {
	w, h := p.Width, p.Height
	if w == 0 {
		w = DefaultPlotWidth
	}
	if h == 0 {
		h = DefaultPlotHeight
	}
	if w < 64 || h < 64 || w > maxPlotSide || h > maxPlotSide {
		return nil, fmt.Errorf("figure: plot %q: size %dx%d pixels outside 64..%d", p.Title, w, h, maxPlotSide)
	}
	if len(p.Series) == 0 {
		return nil, fmt.Errorf("figure: plot %q: no series", p.Title)
	}
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for i, s := range p.Series {
		if len(s.X) != len(s.Y) {
			return nil, fmt.Errorf("figure: plot %q: series %d (%q) has %d X and %d Y values", p.Title, i, s.Name, len(s.X), len(s.Y))
		}
		if len(s.X) == 0 {
			return nil, fmt.Errorf("figure: plot %q: series %d (%q) has no points", p.Title, i, s.Name)
		}
		for k := range s.X {
			x, y := s.X[k], s.Y[k]
			if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
				return nil, fmt.Errorf("figure: plot %q: series %d (%q) point %d (%v, %v) is not finite", p.Title, i, s.Name, k, x, y)
			}
			if p.LogY && !(y > 0) {
				return nil, fmt.Errorf("figure: plot %q: series %d (%q) point %d has Y = %v; a log scale needs Y > 0", p.Title, i, s.Name, k, y)
			}
			ymin, ymax = min(ymin, y), max(ymax, y)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			img, err = nil, fmt.Errorf("figure: plot %q: gonum/plot: %v", p.Title, r)
		}
	}()

	pl := plot.New()
	sans := func(f *plotfont.Font) { f.Variant = "Sans" }
	pl.Title.Text = p.Title
	sans(&pl.Title.TextStyle.Font)
	pl.X.Label.Text = p.XLabel
	pl.Y.Label.Text = p.YLabel
	for _, a := range []*plot.Axis{&pl.X, &pl.Y} {
		sans(&a.Label.TextStyle.Font)
		sans(&a.Tick.Label.Font)
	}
	leg := plot.NewLegend()
	sans(&leg.TextStyle.Font)
	leg.Top, leg.Left = true, true
	pl.Add(plotter.NewGrid())
	for i, s := range p.Series {
		xy := make(plotter.XYs, len(s.X))
		for k := range s.X {
			xy[k].X, xy[k].Y = s.X[k], s.Y[k]
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("figure: plot %q: series %d (%q): %w", p.Title, i, s.Name, err)
		}
		l.Color = Palette[i%len(Palette)]
		if s.Colour.A != 0 {
			l.Color = s.Colour
		}
		l.Width = vg.Points(1.5)
		if s.Dashed {
			l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		pl.Add(l)
		if s.Name != "" {
			leg.Add(s.Name, l)
		}
	}
	if p.LogY {
		pl.Y.Scale = plot.LogScale{}
		pl.Y.Tick.Marker = logTicks{}
		if ymin == ymax { // gonum would widen to ymin-1, maybe <= 0
			pl.Y.Min, pl.Y.Max = ymin/2, ymax*2
		}
	}
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(w)*vg.Inch/PlotDPI, vg.Length(h)*vg.Inch/PlotDPI), vgimg.UseDPI(PlotDPI))
	dc := draw.New(c)
	pad := vg.Points(6)
	area := draw.Crop(dc, 0, -pad, 0, -pad)
	if lw := leg.Rectangle(dc).Size().X; lw > 0 {
		// The legend goes right of the axes, its top level with theirs.
		area = draw.Crop(dc, 0, -(lw + 4*pad), 0, -pad)
		top := pad
		if p.Title != "" {
			top += pl.Title.TextStyle.Rectangle(p.Title).Size().Y + pl.Title.Padding
		}
		leg.Draw(draw.Crop(dc, dc.Size().X-lw-2*pad, -2*pad, 0, -top))
	}
	pl.Draw(area)
	return c.Image(), nil
}

// logTicks labels powers of ten, or 1, 2 and 5 times them, or every
// integer multiple, whichever first gives two labels in the range, with
// minor ticks at the other integer multiples; gonum's default ticks when
// none does.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi >= lo) || math.IsInf(hi, 0) {
		return nil
	}
	e0, e1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	in := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	var ticks []plot.Tick
	for _, labelled := range [][]int{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		ticks = ticks[:0]
		n := 0
		for e := e0; e <= e1; e++ {
			for m := 1; m <= 9; m++ {
				v := float64(m) * math.Pow10(e)
				if !in(v) {
					continue
				}
				t := plot.Tick{Value: v}
				for _, l := range labelled {
					if l == m {
						t.Label = strconv.FormatFloat(v, 'g', 3, 64)
						n++
					}
				}
				ticks = append(ticks, t)
			}
		}
		if n >= 2 {
			return ticks
		}
	}
	return plot.DefaultTicks{}.Ticks(lo, hi)
}
