package figure

import (
	"image"
	"image/color"
	"math"
	"testing"
)

// has reports whether img holds a pixel of colour c.
func has(img image.Image, c color.NRGBA) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) == c {
				return true
			}
		}
	}
	return false
}

// A series' Colour overrides the palette: a report draws each method in
// one colour in every plot, whatever its position among the series.
func TestLinePlotSeriesColour(t *testing.T) {
	x := []float64{0, 1, 2}
	img, err := LinePlot(PlotSpec{Series: []Series{
		{Name: "a", X: x, Y: []float64{0, 1, 0}, Colour: Palette[2]},
		{Name: "b", X: x, Y: []float64{1, 0, 1}, Colour: Palette[1]},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if has(img, Palette[0]) || !has(img, Palette[1]) || !has(img, Palette[2]) {
		t.Errorf("series drawn in the palette's order, not in their Colour (has P0 %v, P1 %v, P2 %v)", has(img, Palette[0]), has(img, Palette[1]), has(img, Palette[2]))
	}
}

// The legends of the primitives figure show the colours the panels use:
// each orientation's hue and the round grey; the diverging scale from
// blue through white to red.
func TestLegends(t *testing.T) {
	k := OrientationKey(24)
	for _, a := range []float64{0, math.Pi / 4, math.Pi / 2, 3 * math.Pi / 4} {
		if !has(k, OrientationColour(a)) {
			t.Errorf("OrientationKey lacks the colour of %.0f degrees", a*180/math.Pi)
		}
	}
	if !has(k, RoundColour) {
		t.Error("OrientationKey lacks RoundColour")
	}
	d := DivergingBar(101, 4)
	for _, c := range []struct {
		x int
		v float32
	}{{0, -1}, {50, 0}, {100, 1}} {
		if got := d.NRGBAAt(c.x, 0); got != Diverging(c.v, 1) {
			t.Errorf("DivergingBar column %d: %v, want Diverging(%g, 1) = %v", c.x, got, c.v, Diverging(c.v, 1))
		}
	}
	if b := d.Bounds(); b.Dx() != 101 || b.Dy() != 4+TitleHeight {
		t.Errorf("DivergingBar is %v, want 101 x %d", b, 4+TitleHeight)
	}
}
