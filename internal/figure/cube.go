package figure

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"

	"github.com/omnihsr/omnihsr/hsi"
	hsipng "github.com/omnihsr/omnihsr/hsi/png"
)

// checkCube validates c and names it in the error.
func checkCube(name string, c *hsi.Cube) error {
	if c == nil {
		return fmt.Errorf("figure: %s: nil cube", name)
	}
	if err := c.Validate(); err != nil {
		return fmt.Errorf("figure: %s: %w", name, err)
	}
	return nil
}

var channels = [3]string{"red", "green", "blue"}

func checkBands(what string, c *hsi.Cube, bands [3]int) error {
	for i, b := range bands {
		if b < 0 || b >= c.B {
			return fmt.Errorf("figure: %s: %s band %d outside 0..%d", what, channels[i], b, c.B-1)
		}
	}
	return nil
}

// StretchOf returns the 2nd and 98th percentiles of each of the three bands
// of c (hsi/png.Stretch: numpy's linear-interpolation percentile over the
// finite pixels that are not the data-ignore value), to be passed to
// FalseColour for c and for every image that should share c's stretch.
// An invalid cube or a band out of range gives zeros; FalseColour then
// reports the problem.
func StretchOf(c *hsi.Cube, bands [3]int) (lo, hi [3]float32) {
	if checkCube("stretch", c) != nil || checkBands("stretch", c, bands) != nil {
		return lo, hi
	}
	for i, b := range bands {
		l, h := hsipng.Stretch(c, b, 2, 98)
		lo[i], hi[i] = float32(l), float32(h)
	}
	return lo, hi
}

// FalseColour renders bands[0], bands[1], bands[2] of c as red, green and
// blue, each stretched linearly from lo[i] (0) to hi[i] (255), clamped and
// rounded half to even. A channel with hi <= lo is 255 where the value
// exceeds lo and 0 elsewhere; NaN is 0. The image is opaque, W x H.
func FalseColour(c *hsi.Cube, bands [3]int, lo, hi [3]float32) (*image.NRGBA, error) {
	if err := checkCube("false colour", c); err != nil {
		return nil, err
	}
	if err := checkBands("false colour", c, bands); err != nil {
		return nil, err
	}
	for i := range 3 {
		if !finite32(lo[i]) || !finite32(hi[i]) {
			return nil, fmt.Errorf("figure: false colour: %s stretch %v..%v is not finite", channels[i], lo[i], hi[i])
		}
	}
	m := image.NewNRGBA(image.Rect(0, 0, c.W, c.H))
	n := c.H * c.W
	for ch, b := range bands {
		l, h := float64(lo[ch]), float64(hi[ch])
		scale := 0.0
		if h > l {
			scale = 255 / (h - l)
		}
		for p := range n {
			v := float64(c.Data[p*c.B+b])
			var out uint8
			switch {
			case v != v:
				out = 0
			case scale == 0:
				if v > l {
					out = 255
				}
			default:
				out = uint8(math.RoundToEven(min(max((v-l)*scale, 0), 255)))
			}
			m.Pix[p*4+ch] = out
		}
	}
	for p := range n {
		m.Pix[p*4+3] = 255
	}
	return m, nil
}

// MeanAbsErr returns, for every pixel (row-major, H*W values), the mean over
// bands of |got - want|, accumulated in float64. A NaN in either cube makes
// that pixel NaN.
func MeanAbsErr(got, want *hsi.Cube) ([]float32, error) {
	if err := checkCube("error map: got", got); err != nil {
		return nil, err
	}
	if err := checkCube("error map: want", want); err != nil {
		return nil, err
	}
	if got.H != want.H || got.W != want.W || got.B != want.B {
		return nil, fmt.Errorf("figure: error map: got is %dx%dx%d, want is %dx%dx%d (H x W x B)",
			got.H, got.W, got.B, want.H, want.W, want.B)
	}
	n, b := got.H*got.W, got.B
	out := make([]float32, n)
	for p := range n {
		g, w := got.Data[p*b:(p+1)*b], want.Data[p*b:(p+1)*b]
		s := 0.0
		for i := range g {
			s += math.Abs(float64(g[i]) - float64(w[i]))
		}
		out[p] = float32(s / float64(b))
	}
	return out, nil
}

// ErrorMap renders MeanAbsErr(got, want) as an H x W heat map: 0 is the
// darkest inferno colour, maxV and above the brightest (see HeatMap).
func ErrorMap(got, want *hsi.Cube, maxV float32) (*image.NRGBA, error) {
	if err := checkMax("error map", maxV); err != nil {
		return nil, err
	}
	e, err := MeanAbsErr(got, want)
	if err != nil {
		return nil, err
	}
	return HeatMap(e, got.W, got.H, 1, maxV)
}

// HeatMap renders v (h*w values, row-major) through the inferno colour map
// on [0, maxV], clamped, each value a scale x scale block (the image is
// w*scale x h*scale). NaN values are NaNColour. maxV must be positive and
// finite.
func HeatMap(v []float32, w, h, scale int, maxV float32) (*image.NRGBA, error) {
	if err := checkMax("heat map", maxV); err != nil {
		return nil, err
	}
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("figure: heat map %dx%d: sizes must be positive", w, h)
	}
	if scale < 1 {
		return nil, fmt.Errorf("figure: heat map: scale %d must be at least 1", scale)
	}
	if w > math.MaxInt32/scale || h > math.MaxInt32/scale || w*scale > (math.MaxInt32/4)/(h*scale) {
		return nil, fmt.Errorf("figure: heat map %dx%d at scale %d is too large", w, h, scale)
	}
	if len(v) != w*h {
		return nil, fmt.Errorf("figure: heat map %dx%d: %d values, want %d", w, h, len(v), w*h)
	}
	m := image.NewNRGBA(image.Rect(0, 0, w*scale, h*scale))
	for y := range h {
		for x := range w {
			c := heat(v[y*w+x], maxV)
			for dy := range scale {
				row := m.Pix[(y*scale+dy)*m.Stride:]
				for dx := range scale {
					o := (x*scale + dx) * 4
					row[o], row[o+1], row[o+2], row[o+3] = c.R, c.G, c.B, c.A
				}
			}
		}
	}
	return m, nil
}

func checkMax(what string, maxV float32) error {
	if !(maxV > 0) || math.IsInf(float64(maxV), 0) {
		return fmt.Errorf("figure: %s: colour scale maximum %v must be positive and finite", what, maxV)
	}
	return nil
}

func finite32(v float32) bool { return v-v == 0 }

// MaxOf returns the largest finite value of all the slices, 0 when there is
// none. With Percentile it lets the caller pick one scale for several maps.
func MaxOf(vs ...[]float32) float32 {
	m, seen := float32(0), false
	for _, v := range vs {
		for _, x := range v {
			if finite32(x) && (!seen || x > m) {
				m, seen = x, true
			}
		}
	}
	return m
}

// Percentile returns numpy's linear-interpolation percentile q (0..100,
// clamped) of the finite values of v, 0 when there is none. v is not
// modified.
func Percentile(v []float32, q float64) float32 {
	s := make([]float64, 0, len(v))
	for _, x := range v {
		if finite32(x) {
			s = append(s, float64(x))
		}
	}
	if len(s) == 0 || q != q {
		return 0
	}
	slices.Sort(s)
	q = min(max(q, 0), 100)
	pos := q / 100 * float64(len(s)-1)
	i := int(math.Floor(pos))
	if i >= len(s)-1 {
		return float32(s[len(s)-1])
	}
	f := pos - float64(i)
	return float32(s[i] + (s[i+1]-s[i])*f)
}

var errNilImage = errors.New("nil image")
