package figure

import (
	"image"
	"image/color"
	"image/draw"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// TitleHeight is the height in pixels of the title band Grid puts above a
// row that has at least one non-empty title (13-pixel font plus a gap), and
// of the label band under a ColourBar.
const TitleHeight = 16

// maxPixels bounds the images Zoom and the primitive maps create.
const maxPixels = 1 << 28

var face = basicfont.Face7x13

// ascii returns s with the characters the 7x13 bitmap font lacks replaced:
// a few common symbols are transliterated, any other non-ASCII rune becomes
// '?', control characters become spaces.
func ascii(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			switch r {
			case '×':
				b.WriteByte('x')
			case '–', '—', '−':
				b.WriteByte('-')
			case 'µ', 'μ':
				b.WriteByte('u')
			case '±':
				b.WriteString("+/-")
			case '°':
				b.WriteString("deg")
			case '²':
				b.WriteByte('2')
			case '‘', '’':
				b.WriteByte('\'')
			case '“', '”':
				b.WriteByte('"')
			default:
				b.WriteByte('?')
			}
		}
	}
	return b.String()
}

// TextWidth returns the width in pixels of s in the 7x13 bitmap font that
// Grid, Label and ColourBar use (7 pixels a character, after the
// replacements described in the package documentation).
func TextWidth(s string) int {
	return font.MeasureString(face, ascii(s)).Ceil()
}

// drawText draws s with its top-left corner at (x, y).
func drawText(dst draw.Image, x, y int, s string, c color.Color) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: face,
		Dot: fixed.P(x, y+face.Ascent)}
	d.DrawString(ascii(s))
}

// toNRGBA copies img into a new NRGBA image whose bounds start at (0, 0).
func toNRGBA(img image.Image) *image.NRGBA {
	b := img.Bounds()
	m := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(m, m.Bounds(), img, b.Min, draw.Src)
	return m
}

func fill(m *image.NRGBA, c color.NRGBA) {
	for i := 0; i < len(m.Pix); i += 4 {
		m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = c.R, c.G, c.B, c.A
	}
}

var white = color.NRGBA{255, 255, 255, 255}

// Zoom crops img to r (intersected with img's bounds) and enlarges the crop
// scale times by nearest neighbour: each source pixel becomes a scale x
// scale block. The result's bounds start at (0, 0). A scale below 1 counts
// as 1; an empty crop, a nil img or a result over 2^28 pixels gives an empty
// image.
func Zoom(img image.Image, r image.Rectangle, scale int) *image.NRGBA {
	scale = max(scale, 1)
	if img == nil {
		return image.NewNRGBA(image.Rectangle{})
	}
	r = r.Canon().Intersect(img.Bounds())
	if r.Empty() || r.Dx() > maxPixels/scale || r.Dy() > maxPixels/scale ||
		r.Dx()*scale > maxPixels/(r.Dy()*scale) {
		return image.NewNRGBA(image.Rectangle{})
	}
	out := image.NewNRGBA(image.Rect(0, 0, r.Dx()*scale, r.Dy()*scale))
	src, _ := img.(*image.NRGBA)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			var c color.NRGBA
			if src != nil {
				c = src.NRGBAAt(x, y)
			} else {
				c = color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			}
			oy, ox := (y-r.Min.Y)*scale, (x-r.Min.X)*scale
			for dy := range scale {
				row := out.Pix[(oy+dy)*out.Stride+ox*4:]
				for dx := range scale {
					o := dx * 4
					row[o], row[o+1], row[o+2], row[o+3] = c.R, c.G, c.B, c.A
				}
			}
		}
	}
	return out
}

// Outline draws the border of r on img, width pixels wide, inside r (the
// outer edge of the border is r's edge), clipped to img's bounds. A width
// below 1 counts as 1; a width over half of r's smaller side fills r.
func Outline(img draw.Image, r image.Rectangle, c color.Color, width int) {
	if img == nil {
		return
	}
	r = r.Canon()
	if r.Empty() {
		return
	}
	width = min(max(width, 1), (min(r.Dx(), r.Dy())+1)/2)
	u := image.NewUniform(c)
	for _, s := range []image.Rectangle{
		image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+width),
		image.Rect(r.Min.X, r.Max.Y-width, r.Max.X, r.Max.Y),
		image.Rect(r.Min.X, r.Min.Y+width, r.Min.X+width, r.Max.Y-width),
		image.Rect(r.Max.X-width, r.Min.Y+width, r.Max.X, r.Max.Y-width),
	} {
		draw.Draw(img, s, u, image.Point{}, draw.Over)
	}
}

// Panel is one cell of a Grid: an image with a title drawn above it. A nil
// Img leaves the cell blank.
type Panel struct {
	Title string
	Img   image.Image
}

func (p Panel) size() (w, h int) {
	if p.Img == nil {
		return 0, 0
	}
	b := p.Img.Bounds()
	return b.Dx(), b.Dy()
}

// Grid lays panels out in rows on a white canvas, pad pixels (at least 0)
// around and between cells. Column c is as wide as the widest panel image
// or title (TextWidth) in column c over all rows; rows may hold different
// numbers of panels. Row r is TitleHeight pixels of titles (0 when no
// panel of the row has a title) plus the tallest panel image of the row.
// So the canvas is pad + sum(colW + pad) wide and pad + sum(titleH + rowH +
// pad) high. Each image is centred horizontally in its cell and aligned to
// the top of the row, its title centred above it in black; images are
// composited over the white canvas (draw.Over).
func Grid(rows [][]Panel, pad int) *image.NRGBA {
	pad = max(pad, 0)
	ncol := 0
	for _, row := range rows {
		ncol = max(ncol, len(row))
	}
	colW := make([]int, ncol)
	titleH := make([]int, len(rows))
	rowH := make([]int, len(rows))
	for r, row := range rows {
		for c, p := range row {
			w, h := p.size()
			colW[c] = max(colW[c], w, TextWidth(p.Title))
			rowH[r] = max(rowH[r], h)
			if p.Title != "" {
				titleH[r] = TitleHeight
			}
		}
	}
	W, H := pad, pad
	if ncol == 0 {
		W = 0
	}
	for _, w := range colW {
		W += w + pad
	}
	for r := range rows {
		H += titleH[r] + rowH[r] + pad
	}
	if len(rows) == 0 {
		H = 0
	}
	out := image.NewNRGBA(image.Rect(0, 0, W, H))
	fill(out, white)
	y := pad
	for r, row := range rows {
		x := pad
		for c, p := range row {
			if p.Title != "" {
				drawText(out, x+(colW[c]-TextWidth(p.Title))/2, y+1, p.Title, color.Black)
			}
			if p.Img != nil {
				w, h := p.size()
				at := image.Pt(x+(colW[c]-w)/2, y+titleH[r])
				draw.Draw(out, image.Rectangle{at, at.Add(image.Pt(w, h))}, p.Img, p.Img.Bounds().Min, draw.Over)
			}
			x += colW[c] + pad
		}
		y += titleH[r] + rowH[r] + pad
	}
	return out
}

// Label returns a copy of img (bounds moved to (0, 0)) with text in white
// on a black box at the top-left corner, clipped to the image. A nil img
// gives just the box.
func Label(img image.Image, text string) *image.NRGBA {
	box := image.Rect(0, 0, TextWidth(text)+4, 15)
	var out *image.NRGBA
	if img == nil {
		out = image.NewNRGBA(box)
	} else {
		out = toNRGBA(img)
	}
	draw.Draw(out, box, image.NewUniform(color.Black), image.Point{}, draw.Src)
	drawText(out, 2, 1, text, color.White)
	return out
}

// FormatValue formats a colour-scale value as ColourBar writes it:
// three significant digits, %g style (0.0123, 0.5, 12.3, 1.23e+03).
func FormatValue(v float32) string {
	return strconv.FormatFloat(float64(v), 'g', 3, 32)
}

// ColourBar returns a horizontal inferno colour bar for the scale [0, maxV]
// of ErrorMap, HeatMap and OperatorNorm: a w x h bar (each at least 1)
// whose column x has the colour of x/(w-1) of the scale, above a white band
// of TitleHeight pixels holding "0" at the left and FormatValue(maxV)
// right-aligned at the right. The image is w x (h + TitleHeight).
func ColourBar(maxV float32, w, h int) *image.NRGBA {
	w, h = max(w, 1), max(h, 1)
	out := image.NewNRGBA(image.Rect(0, 0, w, h+TitleHeight))
	fill(out, white)
	for x := range w {
		t := 0.0
		if w > 1 {
			t = float64(x) / float64(w-1)
		}
		c := Inferno(t)
		for y := range h {
			out.SetNRGBA(x, y, c)
		}
	}
	drawText(out, 0, h+2, "0", color.Black)
	s := FormatValue(maxV)
	drawText(out, w-TextWidth(s), h+2, s, color.Black)
	return out
}
