package figure

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"
)

// at returns the colour of img at (x, y) as NRGBA.
func at(img image.Image, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

// labels returns the labels of the major ticks, space-separated.
func labels(ts []tick) string {
	var out []string
	for _, t := range ts {
		if t.label != "" {
			out = append(out, t.label)
		}
	}
	return strings.Join(out, " ")
}

// darkIn counts the nearly black pixels (text, frame) of img in r.
func darkIn(img image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if c := at(img, x, y); c.R < 100 && c.G < 100 && c.B < 100 {
				n++
			}
		}
	}
	return n
}

// plotAndLayout renders p and returns the image with the layout LinePlot
// used (the same function places both).
func plotAndLayout(t *testing.T, p PlotSpec) (image.Image, *plotLayout) {
	t.Helper()
	img, err := LinePlot(p)
	if err != nil {
		t.Fatal(err)
	}
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range p.Series {
		for k := range s.X {
			xmin, xmax = min(xmin, s.X[k]), max(xmax, s.X[k])
			ymin, ymax = min(ymin, s.Y[k]), max(ymax, s.Y[k])
		}
	}
	l, err := layoutPlot(p, img.Bounds().Dx(), img.Bounds().Dy(), xmin, xmax, ymin, ymax)
	if err != nil {
		t.Fatal(err)
	}
	return img, l
}

// A line is drawn where its data are: the pixel under a point of a
// horizontal and of a vertical series has the series' colour (a 2-pixel
// line covers it whole), pixels a few rows or columns away do not.
func TestLinePlotPixels(t *testing.T) {
	h, v := Palette[0], Palette[1]
	img, l := plotAndLayout(t, PlotSpec{Title: "t", XLabel: "x", YLabel: "y", Width: 400, Height: 300, Series: []Series{
		{X: []float64{0, 10}, Y: []float64{2, 2}, Colour: h},
		{X: []float64{7, 7}, Y: []float64{0, 1}, Colour: v},
		{X: []float64{5}, Y: []float64{4}, Colour: Palette[2]}, // a lone point: a dot
		{X: []float64{0, 10}, Y: []float64{3, 3}, Dashed: true, Colour: Palette[4]},
	}})
	// Y spans the data and 5 % more each side; X the data exactly.
	if l.xlo != 0 || l.xhi != 10 || math.Abs(l.ylo+0.2) > 1e-12 || math.Abs(l.yhi-4.2) > 1e-12 {
		t.Fatalf("ranges X %g..%g, Y %g..%g; want 0..10, -0.2..4.2", l.xlo, l.xhi, l.ylo, l.yhi)
	}
	// The pixel under a data point, from the axes' rectangle alone.
	ax := l.ax
	px := func(x, y float64) (int, int) {
		return int(math.Floor(float64(ax.Min.X) + x/10*float64(ax.Dx()))), int(math.Floor(float64(ax.Max.Y) - (y+0.2)/4.4*float64(ax.Dy())))
	}
	for _, x := range []float64{1, 3.3, 5, 9} {
		cx, cy := px(x, 2)
		if got := at(img, cx, cy); got != h {
			t.Errorf("(%g, 2) at pixel (%d, %d): %v, want the horizontal series' %v", x, cx, cy, got, h)
		}
		for _, d := range []int{-4, 4} {
			if got := at(img, cx, cy+d); got == h {
				t.Errorf("(%g, 2) at pixel (%d, %d): the series' colour %d rows off the line", x, cx, cy+d, d)
			}
		}
	}
	for _, y := range []float64{0.2, 0.5, 0.8} {
		cx, cy := px(7, y)
		if got := at(img, cx, cy); got != v {
			t.Errorf("(7, %g) at pixel (%d, %d): %v, want the vertical series' %v", y, cx, cy, got, v)
		}
		if got := at(img, cx+4, cy); got == v {
			t.Errorf("(7, %g): the series' colour 4 columns off the line", y)
		}
	}
	// A disc 2 pixels wide covers at least a quarter of its own area of the
	// pixel under its centre (more than 3/4 of it).
	if cx, cy := px(5, 4); at(img, cx, cy).R > 64 {
		t.Errorf("lone point (5, 4) at pixel (%d, %d): %v, want nearly %v", cx, cy, at(img, cx, cy), Palette[2])
	}
	// The dashed series: 8 pixels drawn, 4 left out, along its row.
	_, cy := px(0, 3)
	runs := 0
	for x := ax.Min.X + 1; x < ax.Max.X; x++ {
		if at(img, x, cy) == Palette[4] && at(img, x-1, cy) != Palette[4] {
			runs++
		}
	}
	if want := ax.Dx() / 12; runs < want-1 || runs > want+1 {
		t.Errorf("dashed series: %d dashes along row %d, want about %d", runs, cy, want)
	}
	// Nothing of the series outside the axes.
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if c := at(img, x, y); (c == h || c == v) && !image.Pt(x, y).In(l.ax) {
				t.Fatalf("series colour %v at (%d, %d), outside the axes %v", c, x, y, l.ax)
			}
		}
	}
}

// The legend sits right of the axes with one entry per named series: its
// colour, and gaps along the sample of a dashed series.
func TestLinePlotLegend(t *testing.T) {
	x := []float64{0, 1, 2}
	img, l := plotAndLayout(t, PlotSpec{Width: 400, Height: 250, Series: []Series{
		{Name: "solid", X: x, Y: []float64{0, 1, 0}, Colour: Palette[0]},
		{X: x, Y: []float64{1, 0, 1}, Colour: Palette[3]}, // no name: not in the legend
		{Name: "dashed", X: x, Y: []float64{0.5, 0.5, 0.5}, Dashed: true, Colour: Palette[1]},
	}})
	if l.legendW == 0 || l.legend.X <= l.ax.Max.X {
		t.Fatalf("legend at %v (width %d), axes %v: want it right of the axes", l.legend, l.legendW, l.ax)
	}
	count := func(c color.NRGBA, y0, y1 int) (n, gaps int) {
		for y := y0; y < y1; y++ {
			run := false
			for x := l.ax.Max.X + 1; x < img.Bounds().Max.X; x++ {
				if at(img, x, y) == c {
					n++
					if !run && n > 1 {
						gaps++
					}
					run = true
				} else {
					run = false
				}
			}
		}
		return n, gaps
	}
	rowH := lineHeight(l.faces.legend) + 2
	mid := l.legend.Y + rowH/2 // the first entry's line
	if n, gaps := count(Palette[0], mid, mid+1); n < 15 || gaps != 0 {
		t.Errorf("solid entry: %d pixels of its colour, %d gaps; want a line of 15 or more, unbroken", n, gaps)
	}
	if n, gaps := count(Palette[1], mid+rowH, mid+rowH+1); n < 8 || gaps < 1 {
		t.Errorf("dashed entry: %d pixels of its colour, %d gaps; want dashes", n, gaps)
	}
	if n, _ := count(Palette[3], 0, img.Bounds().Dy()); n != 0 {
		t.Errorf("the unnamed series' colour appears %d times beside the axes", n)
	}
	if dark := darkIn(img, image.Rect(l.legend.X+16, l.legend.Y, img.Bounds().Max.X, l.legend.Y+2*rowH)); dark < 20 {
		t.Errorf("%d dark pixels where the legend's names go", dark)
	}
	// Without a name there is no legend, and the axes take the width.
	_, l2 := plotAndLayout(t, PlotSpec{Width: 400, Height: 250, Series: []Series{{X: x, Y: x}}})
	if l2.legendW != 0 || l2.ax.Max.X <= l.ax.Max.X {
		t.Errorf("no names: legend width %d, axes %v (with a legend %v)", l2.legendW, l2.ax, l.ax)
	}
}

// A log axis puts its labelled ticks, with grid lines, at powers of ten
// evenly spaced; the minor ticks between them have no grid line.
func TestLinePlotLogAxis(t *testing.T) {
	img, l := plotAndLayout(t, PlotSpec{YLabel: "loss", Width: 300, Height: 400, LogY: true, Series: []Series{
		{X: []float64{0, 1}, Y: []float64{0.001, 10}},
	}})
	if got := labels(l.yt); got != "0.001 0.01 0.1 1 10" {
		t.Fatalf("labels %q", got)
	}
	// 4 decades of data and 5 % of them each side.
	if math.Abs(math.Log10(l.ylo)+3.2) > 1e-9 || math.Abs(math.Log10(l.yhi)-1.2) > 1e-9 {
		t.Fatalf("Y range %g..%g, want 10^-3.2..10^1.2", l.ylo, l.yhi)
	}
	row := func(v float64) int {
		return int(math.Floor(float64(l.ax.Max.Y) - (math.Log10(v)+3.2)/4.4*float64(l.ax.Dy())))
	}
	// A column near the left edge of the axes, where the line runs low.
	cx := l.ax.Min.X + 3
	var rows []int
	for _, v := range []float64{0.01, 0.1, 1, 10} {
		r := row(v)
		if at(img, cx, r) != gridColour {
			t.Errorf("no grid line at %g (row %d): %v", v, r, at(img, cx, r))
		}
		rows = append(rows, r)
	}
	for i := 2; i < len(rows); i++ {
		if d := (rows[i-1] - rows[i]) - (rows[i-2] - rows[i-1]); d < -1 || d > 1 {
			t.Errorf("decades %d and %d pixels tall: a log axis has equal decades (rows %v)", rows[i-2]-rows[i-1], rows[i-1]-rows[i], rows)
		}
	}
	if r := row(3); at(img, cx, r) == gridColour {
		t.Errorf("grid line at the minor tick 3 (row %d)", r)
	}
	// The powers of ten label the axis: dark pixels left of the frame at
	// their rows.
	for _, r := range rows {
		if darkIn(img, image.Rect(0, r-6, l.ax.Min.X-6, r+7)) < 5 {
			t.Errorf("no tick label at row %d", r)
		}
	}
}

// The title, the axis labels and the tick labels are written where the
// layout puts them, and a plot too small for its legend is an error.
func TestLinePlotText(t *testing.T) {
	spec := PlotSpec{Title: "Band RMSE", XLabel: "wavelength", YLabel: "RMSE", Width: 360, Height: 240,
		Series: []Series{{Name: "bicubic", X: []float64{400, 2500}, Y: []float64{0.01, 0.03}}}}
	img, l := plotAndLayout(t, spec)
	h := img.Bounds().Dy()
	for _, c := range []struct {
		what string
		r    image.Rectangle
	}{
		{"title", image.Rect(l.ax.Min.X, 0, l.ax.Max.X, l.ax.Min.Y-2)},
		{"X tick labels", image.Rect(l.ax.Min.X, l.ax.Max.Y+2, l.ax.Max.X, l.xLabelBaseline-lineHeight(l.faces.label))},
		{"X label", image.Rect(l.ax.Min.X, l.xLabelBaseline-lineHeight(l.faces.label), l.ax.Max.X, h)},
		{"Y label", image.Rect(0, l.ax.Min.Y, 8+lineHeight(l.faces.label), l.ax.Max.Y)},
	} {
		if n := darkIn(img, c.r); n < 20 {
			t.Errorf("%s: %d dark pixels in %v", c.what, n, c.r)
		}
	}
	if got := labels(l.xt); got != "500 1000 1500 2000 2500" {
		t.Errorf("X labels %q", got)
	}
	_, err := LinePlot(PlotSpec{Width: 64, Height: 64, Series: []Series{{Name: strings.Repeat("long name ", 4), X: []float64{0, 1}, Y: []float64{0, 1}}}})
	wantErr(t, err, "no room for the axes")
}

func TestLinearTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		n      int
		labels string
	}{
		{0.0031, 0.0262, 6, "0.005 0.010 0.015 0.020 0.025"},
		{-0.2, 4.2, 6, "0 1 2 3 4"},
		{400, 2500, 5, "500 1000 1500 2000 2500"},
		{1, 205, 4, "50 100 150 200"},
		{1, 205, 2, "100 200"},
		{-3e7, 4e7, 3, "-2e+07 0 2e+07 4e+07"},
	} {
		if got := labels(linearTicks(tc.lo, tc.hi, tc.n)); got != tc.labels {
			t.Errorf("ticks %v..%v (%d): %q, want %q", tc.lo, tc.hi, tc.n, got, tc.labels)
		}
	}
}

// A dash pattern runs on across a polyline's vertices.
func TestDashes(t *testing.T) {
	got := dashes([]vec{{0, 0}, {10, 0}, {10, 20}}, 8, 4)
	want := "[{0 0} {8 0}] [{10 2} {10 10}] [{10 14} {10 20}]"
	if s := strings.Trim(fmt.Sprint(got), "[]"); "["+s+"]" != want {
		t.Errorf("dashes: %v, want %s", got, want)
	}
}
