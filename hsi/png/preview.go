package png

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// PreviewOptions controls a preview.
type PreviewOptions struct {
	// Bands lists the bands shown as red, green and blue (0-based), or one
	// band shown as grey. nil lets ChooseBands pick them.
	Bands []int
	// Low and High are the percentiles (0..100) stretched to 0 and 255 in
	// each channel; both zero means 2 and 98.
	Low, High float64
}

// maxSample is the number of pixels above which percentiles are taken on a
// regular sample.
const maxSample = 1 << 22

// nanometers converts a wavelength list to nanometers; ok is false when the
// units are not a length (e.g. wavenumbers) or the list is empty.
func nanometers(m *hsi.Meta) ([]float64, bool) {
	if len(m.Wavelengths) == 0 {
		return nil, false
	}
	u := strings.ToLower(strings.TrimSpace(m.WavelengthUnits))
	var f float64
	switch u {
	case "nanometers", "nanometer", "nanometres", "nanometre", "nm":
		f = 1
	case "micrometers", "micrometer", "micrometres", "micrometre", "microns", "micron", "um", "µm", "μm":
		f = 1000
	case "millimeters", "millimeter", "millimetres", "millimetre", "mm":
		f = 1e6
	case "", "unknown":
		f = 1
		if slices.Max(m.Wavelengths) < 20 {
			f = 1000
		}
	default:
		return nil, false
	}
	out := make([]float64, len(m.Wavelengths))
	for i, v := range m.Wavelengths {
		out[i] = v * f
	}
	return out, true
}

// ChooseBands returns the bands a preview of c shows: three (red, green,
// blue) or, for a cube of fewer than three bands, one. See the package
// documentation for the rules.
func ChooseBands(c *hsi.Cube) []int {
	if c.B < 3 {
		return []int{0}
	}
	good := func(b int) bool { return len(c.Meta.BadBands) != c.B || !c.Meta.BadBands[b] }
	anyGood := false
	for b := 0; b < c.B; b++ {
		anyGood = anyGood || good(b)
	}
	usable := func(b int) bool { return !anyGood || good(b) }
	// nearest returns the usable band whose key is nearest to target.
	nearest := func(key func(int) float64, target float64) int {
		best, bd := -1, math.Inf(1)
		for b := 0; b < c.B; b++ {
			if !usable(b) {
				continue
			}
			if d := math.Abs(key(b) - target); d < bd || best < 0 {
				best, bd = b, d
			}
		}
		return best
	}
	distinct := func(v []int) bool { return v[0] != v[1] && v[1] != v[2] && v[0] != v[2] }
	if wl, ok := nanometers(&c.Meta); ok && len(wl) == c.B {
		key := func(b int) float64 { return wl[b] }
		lo, hi := math.Inf(1), math.Inf(-1)
		for b := 0; b < c.B; b++ {
			if usable(b) {
				lo, hi = min(lo, wl[b]), max(hi, wl[b])
			}
		}
		if lo <= 650 && hi >= 450 {
			v := []int{nearest(key, 650), nearest(key, 550), nearest(key, 450)}
			if distinct(v) {
				return v
			}
		}
		v := []int{nearest(key, lo+0.8*(hi-lo)), nearest(key, lo+0.5*(hi-lo)), nearest(key, lo+0.2*(hi-lo))}
		if distinct(v) {
			return v
		}
	}
	if len(c.Meta.BandNames) == c.B {
		idx := map[string]int{}
		for b, n := range c.Meta.BandNames {
			if _, dup := idx[strings.ToLower(n)]; !dup {
				idx[strings.ToLower(n)] = b
			}
		}
		r, okR := idx["red"]
		g, okG := idx["green"]
		bl, okB := idx["blue"]
		if okR && okG && okB {
			return []int{r, g, bl}
		}
	}
	key := func(b int) float64 { return float64(b) }
	n := float64(c.B - 1)
	v := []int{nearest(key, math.Round(0.8*n)), nearest(key, math.Round(0.5*n)), nearest(key, math.Round(0.2*n))}
	if distinct(v) {
		return v
	}
	return []int{int(math.Round(0.8 * n)), int(math.Round(0.5 * n)), int(math.Round(0.2 * n))}
}

// percentile returns numpy's linear-interpolation percentile q (0..100) of
// sorted values.
func percentile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	pos := q / 100 * float64(len(sorted)-1)
	i := int(math.Floor(pos))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	f := pos - float64(i)
	return sorted[i] + (sorted[i+1]-sorted[i])*f
}

// Stretch returns the Low and High percentiles of band b over the pixels
// that are finite and not the data-ignore value.
func Stretch(c *hsi.Cube, b int, low, high float64) (lo, hi float64) {
	n := c.H * c.W
	step := 1
	if n > maxSample {
		step = (n + maxSample - 1) / maxSample
	}
	vals := make([]float64, 0, n/step+1)
	ign, hasIgn := float32(c.Meta.DataIgnore), c.Meta.HasDataIgnore
	for p := 0; p < n; p += step {
		v := c.Data[p*c.B+b]
		if v-v != 0 || (hasIgn && v == ign) {
			continue
		}
		vals = append(vals, float64(v))
	}
	slices.Sort(vals)
	return percentile(vals, low), percentile(vals, high)
}

func (o *PreviewOptions) check(c *hsi.Cube) ([]int, float64, float64, error) {
	low, high := o.Low, o.High
	if low == 0 && high == 0 {
		low, high = 2, 98
	}
	if !(low >= 0 && low < high && high <= 100) {
		return nil, 0, 0, fmt.Errorf("percentiles %g and %g: want 0 <= low < high <= 100", o.Low, o.High)
	}
	bands := o.Bands
	if bands == nil {
		bands = ChooseBands(c)
	}
	if len(bands) != 1 && len(bands) != 3 {
		return nil, 0, 0, fmt.Errorf("preview bands %v: give one band (grey) or three (red, green, blue)", bands)
	}
	for _, b := range bands {
		if b < 0 || b >= c.B {
			return nil, 0, 0, fmt.Errorf("preview band %d outside 0..%d", b, c.B-1)
		}
	}
	return bands, low, high, nil
}

// Preview renders the false-colour (or grey) image of c that WritePreview
// writes: an *image.NRGBA (opaque) or *image.Gray.
func Preview(c *hsi.Cube, opt PreviewOptions) (image.Image, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	bands, low, high, err := opt.check(c)
	if err != nil {
		return nil, err
	}
	var pix []uint8
	var stride int
	var img image.Image
	if len(bands) == 1 {
		g := image.NewGray(image.Rect(0, 0, c.W, c.H))
		pix, stride, img = g.Pix, 1, g
	} else {
		m := image.NewNRGBA(image.Rect(0, 0, c.W, c.H))
		for i := 3; i < len(m.Pix); i += 4 {
			m.Pix[i] = 255
		}
		pix, stride, img = m.Pix, 4, m
	}
	ign, hasIgn := float32(c.Meta.DataIgnore), c.Meta.HasDataIgnore
	for ch, b := range bands {
		lo, hi := Stretch(c, b, low, high)
		scale := 0.0
		if hi > lo {
			scale = 255 / (hi - lo)
		}
		for p := 0; p < c.H*c.W; p++ {
			v := c.Data[p*c.B+b]
			var out uint8
			switch {
			case v-v != 0 || (hasIgn && v == ign):
				out = 0
			case scale == 0:
				if float64(v) > lo {
					out = 255
				}
			default:
				x := (float64(v) - lo) * scale
				out = uint8(math.RoundToEven(min(max(x, 0), 255)))
			}
			pix[p*stride+ch] = out
		}
	}
	return img, nil
}

// WritePreview writes the preview of c as a PNG file, atomically.
func WritePreview(path string, c *hsi.Cube, opt PreviewOptions) error {
	img, err := Preview(c, opt)
	if err != nil {
		return fmt.Errorf("png: preview %s: %w", path, err)
	}
	if err := atomicfile.Write(path, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
		return fmt.Errorf("png: %w", err)
	}
	return nil
}

// Write is WritePreview with the default options, with the signature of
// the other format writers. WriteOptions are ignored except that a
// DataType other than the zero value or sample.Uint8 is an error (a
// preview is 8-bit).
func Write(path string, c *hsi.Cube, opt hsi.WriteOptions) error {
	if opt.DataType != sample.Invalid && opt.DataType != sample.Uint8 {
		return fmt.Errorf("png: write %s: a PNG preview is 8-bit; data type %q is not available", path, opt.DataType)
	}
	return WritePreview(path, c, PreviewOptions{})
}

var errNotPNG = errors.New("not a PNG file")
