package figure

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
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

// The look of a LinePlot, in points (PlotDPI/72 pixels each).
const (
	plotLineWidth = 1.5 // series lines
	plotDashOn    = 6   // dashed series: 6 points drawn,
	plotDashOff   = 3   // 3 left out
	plotPad       = 6   // around the plot and between its parts
	plotTickLen   = 4   // major ticks (minor ones half as long)
	plotSample    = 16  // a legend entry's line
	titleSize     = 12  // font sizes
	labelSize     = 11
	tickSize      = 10
	legendSize    = 10
)

// gridColour is the colour of the grid lines at the major ticks.
var gridColour = color.NRGBA{0xDC, 0xDC, 0xDC, 255}

// pts converts points to pixels.
func pts(p float64) float64 { return p * PlotDPI / 72 }

// goRegular is the font of every LinePlot text: Go Regular, compiled into
// golang.org/x/image.
var goRegular = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(goregular.TTF) })

// tick is one tick of an axis; a major tick has a label (and a grid line).
type tick struct {
	v     float64
	label string
}

// plotLayout is where LinePlot puts things: the axes (the data area, the
// frame drawn just outside it), their ranges and ticks, and the legend.
type plotLayout struct {
	ax             image.Rectangle
	xlo, xhi       float64
	ylo, yhi       float64 // data units (also on a log scale)
	logY           bool
	xt, yt         []tick
	legend         image.Point // top left of the legend's first entry
	legendW        int
	title          string
	titleAt        image.Point // baseline start
	faces          plotFaces
	xLabelBaseline int
}

type plotFaces struct {
	title, label, tick, legend font.Face
}

// px and py map data coordinates to pixel coordinates of the image (the
// data area spans ax: its left edge is xlo, its bottom edge ylo).
func (l *plotLayout) px(x float64) float64 {
	return float64(l.ax.Min.X) + (x-l.xlo)/(l.xhi-l.xlo)*float64(l.ax.Dx())
}

func (l *plotLayout) py(y float64) float64 {
	lo, hi := l.ylo, l.yhi
	if l.logY {
		y, lo, hi = math.Log10(y), math.Log10(lo), math.Log10(hi)
	}
	return float64(l.ax.Max.Y) - (y-lo)/(hi-lo)*float64(l.ax.Dy())
}

// LinePlot renders p on a white background at PlotDPI with
// golang.org/x/image alone: text in Go Regular (its font is compiled into
// golang.org/x/image; title 12 points, axis labels 11, tick labels and
// legend 10), anti-aliased lines 1.5 points wide (dashed 6-3 points for
// Dashed series) drawn by golang.org/x/image/vector and clipped to the
// axes, a frame with outward ticks, light grid lines at the major
// (labelled) ticks and, when a series has a name, a legend to the right of
// the axes (outside them, so it never hides a line; it takes its width
// from the plotting area). X spans the data exactly; Y the data plus 5 %
// on each side (of the decades on a log scale). Linear ticks are at 1, 2
// or 5 times a power of ten, as dense as their labels allow. The result
// (an *image.RGBA, opaque) depends only on p.
func LinePlot(p PlotSpec) (image.Image, error) {
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
	xmin, xmax := math.Inf(1), math.Inf(-1)
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
			xmin, xmax = min(xmin, x), max(xmax, x)
			ymin, ymax = min(ymin, y), max(ymax, y)
		}
	}
	l, err := layoutPlot(p, w, h, xmin, xmax, ymin, ymax)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(white), image.Point{}, draw.Src)
	l.drawAxes(img, p)
	lw := float32(pts(plotLineWidth))
	on, off := float32(pts(plotDashOn)), float32(pts(plotDashOff))
	ras := vector.NewRasterizer(l.ax.Dx(), l.ax.Dy())
	for i, s := range p.Series {
		line := make([]vec, len(s.X))
		for k := range s.X {
			line[k] = vec{float32(l.px(s.X[k]) - float64(l.ax.Min.X)), float32(l.py(s.Y[k]) - float64(l.ax.Min.Y))}
		}
		ras.Reset(l.ax.Dx(), l.ax.Dy())
		stroke(ras, line, lw, s.Dashed, on, off)
		ras.Draw(img, l.ax, image.NewUniform(seriesColour(i, s)), image.Point{})
	}
	l.drawLegend(img, p, lw, on, off)
	return img, nil
}

func seriesColour(i int, s Series) color.NRGBA {
	if s.Colour.A != 0 {
		return s.Colour
	}
	return Palette[i%len(Palette)]
}

// layoutPlot measures the texts and places the axes, ticks and legend.
func layoutPlot(p PlotSpec, w, h int, xmin, xmax, ymin, ymax float64) (*plotLayout, error) {
	f, err := goRegular()
	if err != nil {
		return nil, fmt.Errorf("figure: plot %q: font: %w", p.Title, err)
	}
	l := &plotLayout{logY: p.LogY, title: p.Title}
	for _, fc := range []struct {
		dst  *font.Face
		size float64
	}{{&l.faces.title, titleSize}, {&l.faces.label, labelSize}, {&l.faces.tick, tickSize}, {&l.faces.legend, legendSize}} {
		if *fc.dst, err = opentype.NewFace(f, &opentype.FaceOptions{Size: fc.size, DPI: PlotDPI, Hinting: font.HintingNone}); err != nil {
			return nil, fmt.Errorf("figure: plot %q: font: %w", p.Title, err)
		}
	}
	// Ranges.
	l.xlo, l.xhi = xmin, xmax
	if xmin == xmax {
		d := max(math.Abs(xmin)*0.05, 0.5)
		l.xlo, l.xhi = xmin-d, xmax+d
	}
	if p.LogY {
		lo, hi := math.Log10(ymin), math.Log10(ymax)
		if d := hi - lo; d > 0 {
			lo, hi = lo-0.05*d, hi+0.05*d
		} else {
			lo, hi = lo-math.Log10(2), hi+math.Log10(2)
		}
		l.ylo, l.yhi = math.Pow(10, lo), math.Pow(10, hi)
	} else {
		l.ylo, l.yhi = ymin, ymax
		if d := ymax - ymin; d > 0 {
			l.ylo, l.yhi = ymin-0.05*d, ymax+0.05*d
		} else {
			d := max(math.Abs(ymin)*0.05, 0.5)
			l.ylo, l.yhi = ymin-d, ymax+d
		}
	}
	if r := l.xhi - l.xlo; math.IsInf(r, 0) || !(r > 0) {
		return nil, fmt.Errorf("figure: plot %q: X range %v..%v too wide to draw", p.Title, xmin, xmax)
	}
	if r := l.yhi - l.ylo; math.IsInf(r, 0) || !(r > 0) || l.ylo == 0 && p.LogY {
		return nil, fmt.Errorf("figure: plot %q: Y range %v..%v too wide to draw", p.Title, ymin, ymax)
	}

	pad := int(math.Round(pts(plotPad)))
	tickLen := int(math.Round(pts(plotTickLen)))
	labelH := lineHeight(l.faces.label)
	tickH := lineHeight(l.faces.tick)

	// Vertical: title, axes, tick labels, X label.
	top := pad
	if p.Title != "" {
		top += lineHeight(l.faces.title) + pad/2
	}
	bottom := h - pad - tickLen - pad/2 - tickH
	if p.XLabel != "" {
		bottom -= labelH + pad/2
	}
	l.xLabelBaseline = h - pad - l.faces.label.Metrics().Descent.Ceil()
	// The frame is drawn just outside the data area: one pixel above it.
	l.ax.Min.Y, l.ax.Max.Y = top+1, bottom
	if l.ax.Dy() < 8 {
		return nil, fmt.Errorf("figure: plot %q: %dx%d pixels leave no room for the axes", p.Title, w, h)
	}
	if p.LogY {
		l.yt = logTicks(l.ylo, l.yhi, l.ax.Dy()/(2*tickH))
	} else {
		l.yt = linearTicks(l.ylo, l.yhi, l.ax.Dy()/(2*tickH))
	}
	yLabelW := 0
	for _, t := range l.yt {
		yLabelW = max(yLabelW, textWidth(l.faces.tick, t.label))
	}

	// Horizontal: Y label, tick labels, axes, legend.
	left := pad + yLabelW + pad/2 + tickLen + 1
	if p.YLabel != "" {
		left += labelH + pad/2
	}
	for _, s := range p.Series {
		if s.Name != "" {
			l.legendW = max(l.legendW, int(math.Round(pts(plotSample)))+pad/2+textWidth(l.faces.legend, s.Name))
		}
	}
	right := w - pad - 1
	if l.legendW > 0 {
		right = w - pad - l.legendW - pad
		l.legend = image.Pt(right+pad, top+1)
	}
	l.ax.Min.X, l.ax.Max.X = left, right
	if l.ax.Dx() < 8 {
		return nil, fmt.Errorf("figure: plot %q: %dx%d pixels leave no room for the axes beside the legend", p.Title, w, h)
	}
	// X ticks as dense as their labels allow: a label's width plus a pad
	// between neighbours.
	for n := max(2, l.ax.Dx()/40); ; n-- {
		l.xt = linearTicks(l.xlo, l.xhi, n)
		if n <= 2 || xTicksFit(l, pad) {
			break
		}
	}
	if p.Title != "" {
		tw := textWidth(l.faces.title, p.Title)
		x := l.ax.Min.X + (l.ax.Dx()-tw)/2
		x = max(pad, min(x, w-pad-tw))
		l.titleAt = image.Pt(x, pad+l.faces.title.Metrics().Ascent.Ceil())
	}
	return l, nil
}

// xTicksFit reports whether the labels of l.xt leave gap pixels between
// neighbours.
func xTicksFit(l *plotLayout, gap int) bool {
	prev := math.Inf(-1)
	for _, t := range l.xt {
		if t.label == "" {
			continue
		}
		half := float64(textWidth(l.faces.tick, t.label)) / 2
		c := l.px(t.v)
		if c-half < prev+float64(gap) {
			return false
		}
		prev = c + half
	}
	return true
}

func lineHeight(f font.Face) int {
	m := f.Metrics()
	return m.Ascent.Ceil() + m.Descent.Ceil()
}

func textWidth(f font.Face, s string) int { return font.MeasureString(f, s).Ceil() }

func drawString(dst draw.Image, f font.Face, x, baseline int, s string, c color.Color) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: f, Dot: fixed.P(x, baseline)}
	d.DrawString(s)
}

// drawAxes draws the grid, the frame, the ticks and every text but the
// legend's.
func (l *plotLayout) drawAxes(img *image.RGBA, p PlotSpec) {
	black := color.NRGBA{0, 0, 0, 255}
	ax := l.ax
	pad := int(math.Round(pts(plotPad)))
	tickLen := int(math.Round(pts(plotTickLen)))
	col := func(v float64) int { return min(max(int(math.Floor(l.px(v))), ax.Min.X), ax.Max.X-1) }
	row := func(v float64) int { return min(max(int(math.Floor(l.py(v))), ax.Min.Y), ax.Max.Y-1) }
	hline := func(y, x0, x1 int, c color.NRGBA) {
		draw.Draw(img, image.Rect(x0, y, x1, y+1), image.NewUniform(c), image.Point{}, draw.Src)
	}
	vline := func(x, y0, y1 int, c color.NRGBA) {
		draw.Draw(img, image.Rect(x, y0, x+1, y1), image.NewUniform(c), image.Point{}, draw.Src)
	}
	// Grid at the major ticks.
	for _, t := range l.xt {
		if t.label != "" {
			vline(col(t.v), ax.Min.Y, ax.Max.Y, gridColour)
		}
	}
	for _, t := range l.yt {
		if t.label != "" {
			hline(row(t.v), ax.Min.X, ax.Max.X, gridColour)
		}
	}
	// Frame, just outside the data area.
	hline(ax.Min.Y-1, ax.Min.X-1, ax.Max.X+1, black)
	hline(ax.Max.Y, ax.Min.X-1, ax.Max.X+1, black)
	vline(ax.Min.X-1, ax.Min.Y-1, ax.Max.Y+1, black)
	vline(ax.Max.X, ax.Min.Y-1, ax.Max.Y+1, black)
	// Ticks (outward) and their labels.
	tm := l.faces.tick.Metrics()
	for _, t := range l.xt {
		x, n := col(t.v), tickLen
		if t.label == "" {
			n = tickLen / 2
		}
		vline(x, ax.Max.Y+1, ax.Max.Y+1+n, black)
		if t.label != "" {
			tw := textWidth(l.faces.tick, t.label)
			lx := max(0, min(x-tw/2, img.Rect.Dx()-tw))
			drawString(img, l.faces.tick, lx, ax.Max.Y+1+tickLen+pad/2+tm.Ascent.Ceil(), t.label, black)
		}
	}
	capH := tm.CapHeight.Ceil()
	for _, t := range l.yt {
		y, n := row(t.v), tickLen
		if t.label == "" {
			n = tickLen / 2
		}
		hline(y, ax.Min.X-1-n, ax.Min.X-1, black)
		if t.label != "" {
			tw := textWidth(l.faces.tick, t.label)
			drawString(img, l.faces.tick, ax.Min.X-1-tickLen-pad/2-tw, y+capH/2, t.label, black)
		}
	}
	if l.title != "" {
		drawString(img, l.faces.title, l.titleAt.X, l.titleAt.Y, l.title, black)
	}
	if p.XLabel != "" {
		tw := textWidth(l.faces.label, p.XLabel)
		x := max(0, min(ax.Min.X+(ax.Dx()-tw)/2, img.Rect.Dx()-tw))
		drawString(img, l.faces.label, x, l.xLabelBaseline, p.XLabel, black)
	}
	if p.YLabel != "" {
		// Written into its own image, then turned a quarter to read
		// upwards.
		m := l.faces.label.Metrics()
		tw, th := textWidth(l.faces.label, p.YLabel), m.Ascent.Ceil()+m.Descent.Ceil()
		if tw > 0 {
			flat := image.NewRGBA(image.Rect(0, 0, tw, th))
			drawString(flat, l.faces.label, 0, m.Ascent.Ceil(), p.YLabel, black)
			up := image.NewRGBA(image.Rect(0, 0, th, tw))
			for y := range th {
				for x := range tw {
					copy(up.Pix[up.PixOffset(y, tw-1-x):][:4], flat.Pix[flat.PixOffset(x, y):][:4])
				}
			}
			y0 := max(0, min(ax.Min.Y+(ax.Dy()-tw)/2, img.Rect.Dy()-tw))
			r := image.Rect(pad, y0, pad+th, y0+tw)
			draw.Draw(img, r, up, image.Point{}, draw.Over)
		}
	}
}

// drawLegend writes one entry per named series: a sample of its line and
// its name.
func (l *plotLayout) drawLegend(img *image.RGBA, p PlotSpec, lw, on, off float32) {
	if l.legendW == 0 {
		return
	}
	m := l.faces.legend.Metrics()
	rowH := m.Ascent.Ceil() + m.Descent.Ceil() + 2
	sample := int(math.Round(pts(plotSample)))
	pad := int(math.Round(pts(plotPad)))
	ras := vector.NewRasterizer(sample, rowH)
	y := l.legend.Y
	for i, s := range p.Series {
		if s.Name == "" {
			continue
		}
		ras.Reset(sample, rowH)
		mid := float32(rowH) / 2
		stroke(ras, []vec{{0, mid}, {float32(sample), mid}}, lw, s.Dashed, on, off)
		ras.Draw(img, image.Rect(l.legend.X, y, l.legend.X+sample, y+rowH), image.NewUniform(seriesColour(i, s)), image.Point{})
		drawString(img, l.faces.legend, l.legend.X+sample+pad/2, y+rowH/2+m.CapHeight.Ceil()/2, s.Name, color.NRGBA{0, 0, 0, 255})
		y += rowH
	}
}

// vec is a point in pixels.
type vec struct{ x, y float32 }

// stroke adds to r the outline of the polyline line, width lw, dashed
// on-off pixels when dashed: a quadrilateral per segment and a disc at each
// joint (round joins, butt ends); a lone point is a disc. Every shape is
// added with the same orientation, so overlaps add up (the rasterizer clips
// coverage to 1) instead of cancelling.
func stroke(r *vector.Rasterizer, line []vec, lw float32, dashed bool, on, off float32) {
	hw := lw / 2
	if len(line) == 1 {
		disc(r, line[0], hw)
		return
	}
	pieces := [][]vec{line}
	if dashed {
		pieces = dashes(line, on, off)
	}
	for _, pc := range pieces {
		for k := 1; k < len(pc); k++ {
			a, b := pc[k-1], pc[k]
			dx, dy := b.x-a.x, b.y-a.y
			n := float32(math.Hypot(float64(dx), float64(dy)))
			if n == 0 {
				continue
			}
			nx, ny := -dy/n*hw, dx/n*hw
			polygon(r, []vec{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}})
			if k > 1 {
				disc(r, a, hw)
			}
		}
	}
}

// dashes cuts line into the pieces drawn by an on-off dash pattern that
// runs on across the vertices.
func dashes(line []vec, on, off float32) [][]vec {
	var out [][]vec
	cur := []vec{line[0]}
	drawing, left := true, on
	for k := 1; k < len(line); k++ {
		a, b := line[k-1], line[k]
		seg := float32(math.Hypot(float64(b.x-a.x), float64(b.y-a.y)))
		t := float32(0)
		for seg-t > left {
			t += left
			p := vec{a.x + (b.x-a.x)*t/seg, a.y + (b.y-a.y)*t/seg}
			if drawing {
				out = append(out, append(cur, p))
				cur = nil
				left = off
			} else {
				cur = []vec{p}
				left = on
			}
			drawing = !drawing
		}
		left -= seg - t
		if drawing {
			cur = append(cur, b)
		}
	}
	if drawing && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

// disc adds a 16-sided polygon of radius rad around c.
func disc(r *vector.Rasterizer, c vec, rad float32) {
	var v [16]vec
	for i := range v {
		a := 2 * math.Pi * float64(i) / float64(len(v))
		v[i] = vec{c.x + rad*float32(math.Cos(a)), c.y + rad*float32(math.Sin(a))}
	}
	polygon(r, v[:])
}

// polygon adds the closed polygon v to r, counter-clockwise in image
// coordinates (a positive shoelace sum) whatever the order given.
func polygon(r *vector.Rasterizer, v []vec) {
	var area float32
	for i := range v {
		j := (i + 1) % len(v)
		area += v[i].x*v[j].y - v[j].x*v[i].y
	}
	if area < 0 {
		r.MoveTo(v[len(v)-1].x, v[len(v)-1].y)
		for i := len(v) - 2; i >= 0; i-- {
			r.LineTo(v[i].x, v[i].y)
		}
	} else {
		r.MoveTo(v[0].x, v[0].y)
		for _, p := range v[1:] {
			r.LineTo(p.x, p.y)
		}
	}
	r.ClosePath()
}

// linearTicks returns ticks at the multiples of a step of 1, 2 or 5 times
// a power of ten in [lo, hi]: the smallest step that gives at most n of
// them (n at least 2), or the one before it when that one would leave
// fewer than two; labelled, with unlabelled minor ticks halfway.
func linearTicks(lo, hi float64, n int) []tick {
	n = max(n, 2)
	raw := (hi - lo) / float64(n)
	if !(raw > 0) || math.IsInf(raw, 0) {
		return nil
	}
	count := func(step float64) int {
		eps := step * 1e-9
		return int(math.Floor((hi+eps)/step) - math.Ceil((lo-eps)/step) + 1)
	}
	step, prev := 0.0, 0.0
search:
	for e := math.Floor(math.Log10(raw)) - 1; ; e++ {
		for _, m := range []float64{1, 2, 5} {
			s := m * math.Pow(10, e)
			if c := count(s); c <= n {
				step = s
				if c < 2 && prev != 0 {
					step = prev
				}
				break search
			}
			prev = s
		}
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	big := max(math.Abs(lo), math.Abs(hi)) >= 1e6 || decimals > 6
	label := func(v float64) string {
		if big {
			return strconv.FormatFloat(v, 'g', 3, 64)
		}
		return strconv.FormatFloat(v, 'f', decimals, 64)
	}
	var ticks []tick
	eps := step * 1e-9
	for k := math.Ceil((lo - eps) / step * 2); k <= math.Floor((hi+eps)/step*2); k++ {
		v := k * step / 2
		if v == 0 {
			v = 0 // no -0
		}
		t := tick{v: v}
		if math.Mod(k, 2) == 0 {
			t.label = label(v)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// logTicks labels powers of ten, or 1, 2 and 5 times them, or every
// integer multiple, whichever first gives two labels in [lo, hi], with
// minor ticks at the other integer multiples; linear ticks (at most n)
// when none does.
func logTicks(lo, hi float64, n int) []tick {
	if !(lo > 0) || !(hi >= lo) || math.IsInf(hi, 0) {
		return nil
	}
	e0, e1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	in := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	var ticks []tick
	for _, labelled := range [][]int{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		ticks = ticks[:0]
		nl := 0
		for e := e0; e <= e1; e++ {
			for m := 1; m <= 9; m++ {
				v := float64(m) * math.Pow10(e)
				if !in(v) {
					continue
				}
				t := tick{v: v}
				for _, l := range labelled {
					if l == m {
						t.label = logLabel(v, e)
						nl++
					}
				}
				ticks = append(ticks, t)
			}
		}
		if nl >= 2 {
			return ticks
		}
	}
	return linearTicks(lo, hi, n)
}

// logLabel writes m*10^e plainly (0.001, 500) within six decades of 1,
// else in exponent form (2e-07).
func logLabel(v float64, e int) string {
	switch {
	case e >= 0 && e < 6:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case e < 0 && e > -6:
		return strconv.FormatFloat(v, 'f', -e, 64)
	}
	return strconv.FormatFloat(v, 'g', 1, 64)
}
