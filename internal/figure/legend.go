package figure

import (
	"image"
	"image/color"
	"image/draw"
	"math"
)

// OrientationKey is the legend of Supports' colours: a short line at each
// of 0, 45, 90 and 135 degrees in its OrientationColour, labelled, and a
// grey circle labelled "round" for the primitives drawn in RoundColour, on
// white. The image is about 5 labelled cells of side pixels (side at least
// 16) in a row.
func OrientationKey(side int) *image.NRGBA {
	side = max(side, 16)
	labels := []string{"0", "45", "90", "135", "round"}
	cellW := side
	for _, l := range labels {
		cellW = max(cellW, TextWidth(l)+4)
	}
	out := image.NewNRGBA(image.Rect(0, 0, cellW*len(labels), side+TitleHeight))
	fill(out, white)
	r := float64(side)/2 - 2
	for i, l := range labels {
		cx, cy := float64(i*cellW)+float64(cellW)/2, float64(side)/2
		if i < 4 {
			a := float64(i) * math.Pi / 4
			c := OrientationColour(a)
			dx, dy := r*math.Cos(a), r*math.Sin(a)
			for w := -1; w <= 1; w++ { // 3 pixels wide
				ox, oy := -math.Sin(a)*float64(w), math.Cos(a)*float64(w)
				line(out, int(math.Round(cx-dx+ox)), int(math.Round(cy-dy+oy)), int(math.Round(cx+dx+ox)), int(math.Round(cy+dy+oy)), c)
			}
		} else {
			ellipse(out, cx, cy, r*0.7, r*0.7, 0, RoundColour)
		}
		drawText(out, i*cellW+(cellW-TextWidth(l))/2, side+2, l, color.Black)
	}
	return out
}

// DivergingBar is the legend of OperatorTile's colours: a horizontal bar
// from -max (blue) through 0 (white) to +max (red), w x h (each at least
// 3 and 1), above a white band of TitleHeight pixels labelled "-max", "0"
// and "+max" (each tile is scaled to its own largest tap).
func DivergingBar(w, h int) *image.NRGBA {
	w, h = max(w, 3), max(h, 1)
	out := image.NewNRGBA(image.Rect(0, 0, w, h+TitleHeight))
	fill(out, white)
	for x := range w {
		v := 2*float32(x)/float32(w-1) - 1
		draw.Draw(out, image.Rect(x, 0, x+1, h), image.NewUniform(Diverging(v, 1)), image.Point{}, draw.Src)
	}
	drawText(out, 0, h+2, "-max", color.Black)
	drawText(out, (w-TextWidth("0"))/2, h+2, "0", color.Black)
	drawText(out, w-TextWidth("+max"), h+2, "+max", color.Black)
	return out
}
