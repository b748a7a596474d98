package figure

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/omnihsr/omnihsr/internal/cofr"
)

// SupportMaxRadius is the largest ellipse radius Supports draws, in
// low-resolution pixels (the default 7 x 7 neighbourhood of COFR reaches 3
// pixels from a primitive's cell); longer axes are drawn at this length.
const SupportMaxRadius = 3.0

// OperatorNorms returns the L2 norm of each primitive's 5x5 operator,
// sqrt(sum of squares of its 25 taps), in primitive order (n = i*W + j).
// It covers the complete operators present in p.K (H*W of them for a valid
// p); a nil p gives nil.
func OperatorNorms(p *cofr.Primitives) []float32 {
	if p == nil {
		return nil
	}
	n := len(p.K) / cofr.Taps
	if p.H > 0 && p.W > 0 && p.H*p.W < n {
		n = p.H * p.W
	}
	out := make([]float32, n)
	for i := range out {
		s := 0.0
		for _, k := range p.K[i*cofr.Taps : (i+1)*cofr.Taps] {
			s += float64(k) * float64(k)
		}
		out[i] = float32(math.Sqrt(s))
	}
	return out
}

func inRange(p *cofr.Primitives, n int) bool {
	return p != nil && n >= 0 && n < len(p.Sigma1) && n < len(p.Sigma2) && n < len(p.Theta)
}

// AxisRatio returns max(Sigma1, Sigma2) / min(Sigma1, Sigma2) of primitive
// n: 1 for a round primitive, large for an elongated one. NaN when n is out
// of range or a width is not positive.
func AxisRatio(p *cofr.Primitives, n int) float64 {
	if !inRange(p, n) {
		return math.NaN()
	}
	s1, s2 := float64(p.Sigma1[n]), float64(p.Sigma2[n])
	if !(s1 > 0) || !(s2 > 0) {
		return math.NaN()
	}
	return max(s1, s2) / min(s1, s2)
}

// LongAxisAngle returns the direction of primitive n's long axis in
// radians in [0, pi): Theta when Sigma1 >= Sigma2, Theta + pi/2 otherwise,
// modulo pi. The angle follows Theta's convention (x to the right, y
// downwards: a positive angle turns clockwise on screen). NaN when n is out
// of range.
func LongAxisAngle(p *cofr.Primitives, n int) float64 {
	if !inRange(p, n) {
		return math.NaN()
	}
	a := float64(p.Theta[n])
	if p.Sigma2[n] > p.Sigma1[n] {
		a += math.Pi / 2
	}
	a = math.Mod(a, math.Pi)
	if a < 0 {
		a += math.Pi
	}
	if a >= math.Pi { // -tiny + pi rounds to pi
		a = 0
	}
	return a
}

func checkPrimitives(what string, p *cofr.Primitives, scale int) error {
	if p == nil {
		return fmt.Errorf("figure: %s: nil primitives", what)
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("figure: %s: %w", what, err)
	}
	if scale < 1 {
		return fmt.Errorf("figure: %s: scale %d must be at least 1", what, scale)
	}
	if p.W > maxPixels/scale || p.H > maxPixels/scale || p.W*scale > maxPixels/(p.H*scale) {
		return fmt.Errorf("figure: %s: %dx%d primitives at scale %d is too large an image", what, p.H, p.W, scale)
	}
	return nil
}

// Supports draws one ellipse outline (1 pixel wide) per primitive over bg:
// the map of "what the network predicts". The image is W*scale x H*scale,
// one low-resolution pixel being scale x scale pixels, so primitive
// n = i*W + j is centred at ((j + 0.5 + OffX) scale, (i + 0.5 + OffY) scale)
// in pixel coordinates (x right, y down, pixel (x, y) covering [x, x+1) x
// [y, y+1)). Its radii are Sigma1*scale along (cos Theta, sin Theta) and
// Sigma2*scale across, each capped at SupportMaxRadius*scale. The outline
// is coloured by OrientationColour(LongAxisAngle) (hue = long-axis angle
// modulo 180 degrees, doubled onto the colour wheel), or RoundColour when
// AxisRatio < minRatio (the paper uses 1.2). Opacity (Alpha) is not shown;
// use HeatMap(p.Alpha, ...) for it. Primitives are drawn in order n = 0,
// 1, ..., later outlines over earlier ones.
//
// bg, when not nil, must be W*scale x H*scale (e.g. a grey FalseColour of
// the low-resolution input, bands [b, b, b], enlarged with Zoom); it is
// copied, not modified. A nil bg gives a mid-grey (128) background.
func Supports(p *cofr.Primitives, bg image.Image, scale int, minRatio float64) (*image.NRGBA, error) {
	if err := checkPrimitives("supports", p, scale); err != nil {
		return nil, err
	}
	if !(minRatio >= 0) {
		return nil, fmt.Errorf("figure: supports: minimum axis ratio %v must be >= 0", minRatio)
	}
	W, H := p.W*scale, p.H*scale
	var out *image.NRGBA
	if bg == nil {
		out = image.NewNRGBA(image.Rect(0, 0, W, H))
		fill(out, color.NRGBA{128, 128, 128, 255})
	} else {
		b := bg.Bounds()
		if b.Dx() != W || b.Dy() != H {
			return nil, fmt.Errorf("figure: supports: background is %dx%d pixels, want %dx%d (%dx%d primitives at scale %d)",
				b.Dx(), b.Dy(), W, H, p.W, p.H, scale)
		}
		out = toNRGBA(bg)
	}
	s := float64(scale)
	rmax := SupportMaxRadius * s
	for i := range p.H {
		for j := range p.W {
			n := i*p.W + j
			c := RoundColour
			if AxisRatio(p, n) >= minRatio {
				c = OrientationColour(LongAxisAngle(p, n))
			}
			cx := (float64(j) + 0.5 + float64(p.OffX[n])) * s
			cy := (float64(i) + 0.5 + float64(p.OffY[n])) * s
			a := min(float64(p.Sigma1[n])*s, rmax)
			b := min(float64(p.Sigma2[n])*s, rmax)
			ellipse(out, cx, cy, a, b, float64(p.Theta[n]), c)
		}
	}
	return out, nil
}

// ellipse draws the outline of the ellipse centred at (cx, cy) with radius
// a along (cos th, sin th) and b across: points at parameters 2 pi k/N
// (k = 0 is the end of the a axis), joined by straight lines.
func ellipse(m *image.NRGBA, cx, cy, a, b, th float64, c color.NRGBA) {
	ux, uy := math.Cos(th), math.Sin(th)
	n := int(math.Ceil(2*math.Pi*max(a, b)/4)) * 4
	n = max(n, 16)
	px := func(k int) (int, int) {
		t := 2 * math.Pi * float64(k) / float64(n)
		ca, sb := a*math.Cos(t), b*math.Sin(t)
		return int(math.Floor(cx + ca*ux - sb*uy)), int(math.Floor(cy + ca*uy + sb*ux))
	}
	x0, y0 := px(0)
	for k := 1; k <= n; k++ {
		x1, y1 := px(k % n)
		line(m, x0, y0, x1, y1, c)
		x0, y0 = x1, y1
	}
}

// line draws the Bresenham line from (x0, y0) to (x1, y1), clipped.
func line(m *image.NRGBA, x0, y0, x1, y1 int, c color.NRGBA) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := 1, 1
	if x0 > x1 {
		sx = -1
	}
	if y0 > y1 {
		sy = -1
	}
	e := dx + dy
	for {
		m.SetNRGBA(x0, y0, c)
		if x0 == x1 && y0 == y1 {
			return
		}
		if e2 := 2 * e; e2 >= dy {
			e += dy
			x0 += sx
		} else {
			e += dx
			y0 += sy
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// OperatorNorm renders OperatorNorms(p) as a heat map (HeatMap: inferno on
// [0, maxV], each primitive a scale x scale block), W*scale x H*scale.
func OperatorNorm(p *cofr.Primitives, scale int, maxV float32) (*image.NRGBA, error) {
	if err := checkPrimitives("operator norm", p, scale); err != nil {
		return nil, err
	}
	m, err := HeatMap(OperatorNorms(p), p.W, p.H, scale, maxV)
	if err != nil {
		return nil, fmt.Errorf("figure: operator norm: %w", err)
	}
	return m, nil
}

// OperatorTile draws a 5x5 operator (k[(dy+2)*5 + (dx+2)], the layout of
// cofr.Primitives.K) as 5 x 5 cells of cell x cell pixels (cell at least
// 1), coloured by Diverging on the symmetric scale max |k| (blue negative,
// white zero, red positive; all white for an all-zero operator), separated
// and framed by 1-pixel grey (160) lines: the image is 5*cell+6 pixels
// square. Taps beyond len(k) count as zero; values after the 25th are
// ignored.
func OperatorTile(k []float32, cell int) *image.NRGBA {
	cell = max(cell, 1)
	if cell > 4096 {
		cell = 4096
	}
	var taps [cofr.Taps]float32
	copy(taps[:], k)
	m := float32(0)
	for _, v := range taps {
		if a := float32(math.Abs(float64(v))); a > m { // NaN never compares greater
			m = a
		}
	}
	side := 5*cell + 6
	out := image.NewNRGBA(image.Rect(0, 0, side, side))
	fill(out, color.NRGBA{160, 160, 160, 255})
	for r := range 5 {
		for c := range 5 {
			x0, y0 := 1+c*(cell+1), 1+r*(cell+1)
			draw.Draw(out, image.Rect(x0, y0, x0+cell, y0+cell),
				image.NewUniform(Diverging(taps[r*5+c], m)), image.Point{}, draw.Src)
		}
	}
	return out
}

// CropPrimitives returns the primitives of the low-resolution pixels in r
// (rows r.Min.Y..r.Max.Y-1, columns r.Min.X..r.Max.X-1, intersected with
// p's grid) as a new, smaller set, offsets kept relative to their own
// cells: Supports of the crop at a large scale is a zoomed-in map.
func CropPrimitives(p *cofr.Primitives, r image.Rectangle) (*cofr.Primitives, error) {
	if err := checkPrimitives("crop primitives", p, 1); err != nil {
		return nil, err
	}
	in := r.Canon().Intersect(image.Rect(0, 0, p.W, p.H))
	if in.Empty() {
		return nil, fmt.Errorf("figure: crop primitives: rectangle %v is outside the %d-column, %d-row grid", r, p.W, p.H)
	}
	r = in
	q, err := cofr.NewPrimitives(r.Dy(), r.Dx())
	if err != nil {
		return nil, fmt.Errorf("figure: crop primitives: %w", err)
	}
	for i := range q.H {
		for j := range q.W {
			src, dst := (i+r.Min.Y)*p.W+j+r.Min.X, i*q.W+j
			q.OffY[dst], q.OffX[dst] = p.OffY[src], p.OffX[src]
			q.Sigma1[dst], q.Sigma2[dst] = p.Sigma1[src], p.Sigma2[src]
			q.Theta[dst], q.Alpha[dst] = p.Theta[src], p.Alpha[src]
			copy(q.K[dst*cofr.Taps:(dst+1)*cofr.Taps], p.K[src*cofr.Taps:(src+1)*cofr.Taps])
		}
	}
	return q, nil
}
