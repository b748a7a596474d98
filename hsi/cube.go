package hsi

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/internal/simd"
)

// Cube is a float32 hyperspectral image of H rows, W columns and B bands in
// pixel-interleaved order: Data[(y*W+x)*B+b].
type Cube struct {
	H, W, B int
	Data    []float32
	Meta    Meta
}

// Meta is the metadata a cube carries from file to file.
type Meta struct {
	// Wavelengths holds the band centres in WavelengthUnits (nil when unknown).
	Wavelengths     []float64
	WavelengthUnits string // e.g. "Nanometers", "Micrometers"; "" when unknown
	// FWHM holds the full width at half maximum of each band (nil when unknown).
	FWHM []float64
	// BadBands marks bands flagged bad (ENVI bbl = 0). nil when unknown.
	BadBands []bool
	// BandNames holds one name per band (nil when unknown).
	BandNames []string
	// DataIgnore is the no-data value, valid when HasDataIgnore.
	DataIgnore    float64
	HasDataIgnore bool
	// Description is free text carried from the source file.
	Description string
	// Scale and Offset give each band's physical value as
	// stored*Scale[b] + Offset[b] (GDAL's band scale and offset, ENVI's
	// "data gain values" and "data offset values"). Values are kept as
	// stored, with their scale. nil when the file states none.
	Scale, Offset []float64
	// ReflectanceScale is ENVI's "reflectance scale factor": reflectance
	// is the stored value divided by it. 0 when none.
	ReflectanceScale float64
	// Extra holds the other header fields of an ENVI file (sensor type,
	// default bands, acquisition time, fields of other software), written
	// back to ENVI outputs and kept in a TIFF's GDAL metadata.
	Extra []Field
	// Geo is the georeferencing of the pixel grid, nil when none.
	Geo *Geo
}

// Field is one "key = value" header field; Braced is true when the value
// is written in braces.
type Field struct {
	Key, Value string
	Braced     bool
}

// PhysicalScale returns the scale and offset that turn band b's stored
// values into physical ones: Scale and Offset when given, else
// 1/ReflectanceScale, else 1 and 0. ok is false when the file states none.
func (m *Meta) PhysicalScale(b int) (scale, offset float64, ok bool) {
	scale = 1
	if b < len(m.Scale) {
		scale, ok = m.Scale[b], true
	}
	if b < len(m.Offset) {
		offset, ok = m.Offset[b], true
	}
	if !ok && m.ReflectanceScale != 0 {
		return 1 / m.ReflectanceScale, 0, true
	}
	return scale, offset, ok
}

// ErrEmpty is returned for a cube with a zero dimension.
var ErrEmpty = errors.New("hsi: cube has a zero dimension")

// New allocates a zeroed cube of h x w x b. It returns an error for
// non-positive sizes or a size whose element count overflows.
func New(h, w, b int) (*Cube, error) {
	if h <= 0 || w <= 0 || b <= 0 {
		return nil, fmt.Errorf("hsi: new cube %dx%dx%d: %w", h, w, b, ErrEmpty)
	}
	n, err := Elems(h, w, b)
	if err != nil {
		return nil, err
	}
	return &Cube{H: h, W: w, B: b, Data: make([]float32, n)}, nil
}

// Elems returns h*w*b, or an error if the product overflows or exceeds
// what one slice can hold.
func Elems(h, w, b int) (int, error) {
	if h <= 0 || w <= 0 || b <= 0 {
		return 0, fmt.Errorf("hsi: size %dx%dx%d: %w", h, w, b, ErrEmpty)
	}
	const limit = math.MaxInt64 / 8
	if h > limit/w || h*w > limit/b {
		return 0, fmt.Errorf("hsi: size %dx%dx%d is too large", h, w, b)
	}
	return h * w * b, nil
}

// MustNew is New for sizes known to be valid (tests, internal buffers).
// It panics on a non-positive size; never call it on user input.
func MustNew(h, w, b int) *Cube {
	c, err := New(h, w, b)
	if err != nil {
		panic(err)
	}
	return c
}

// Validate checks that the dimensions and the data length agree and that the
// cube is not empty.
func (c *Cube) Validate() error {
	if c == nil {
		return errors.New("hsi: nil cube")
	}
	n, err := Elems(c.H, c.W, c.B)
	if err != nil {
		return err
	}
	if len(c.Data) != n {
		return fmt.Errorf("hsi: cube %dx%dx%d holds %d values, want %d", c.H, c.W, c.B, len(c.Data), n)
	}
	return c.Meta.validate(c.B)
}

func (m *Meta) validate(b int) error {
	check := func(name string, n int) error {
		if n != 0 && n != b {
			return fmt.Errorf("hsi: %s has %d entries for %d bands", name, n, b)
		}
		return nil
	}
	if err := check("wavelength", len(m.Wavelengths)); err != nil {
		return err
	}
	if err := check("fwhm", len(m.FWHM)); err != nil {
		return err
	}
	if err := check("bad band list", len(m.BadBands)); err != nil {
		return err
	}
	if err := check("scale", len(m.Scale)); err != nil {
		return err
	}
	if err := check("offset", len(m.Offset)); err != nil {
		return err
	}
	return check("band names", len(m.BandNames))
}

// CheckFinite returns an error naming the first NaN or infinite value.
func (c *Cube) CheckFinite() error {
	if simd.FiniteParallel(c.Data) {
		return nil
	}
	for i, v := range c.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			p, b := i/c.B, i%c.B
			return fmt.Errorf("hsi: non-finite value %v at row %d, column %d, band %d", v, p/c.W, p%c.W, b)
		}
	}
	return nil
}

// MaxSample is the largest sample magnitude the upscaling methods accept:
// a sixteenth of the largest float32 (about 2.1e37), the headroom that
// interpolation overshoot (bicubic weights sum to 1.9 in absolute value),
// the model's residual and the averaging of an ensemble need to stay
// finite. Physical spectra are many orders of magnitude smaller.
const MaxSample = math.MaxFloat32 / 16

// ErrMagnitude marks a sample too large for the upscaling to stay finite.
var ErrMagnitude = errors.New("too large to upscale without overflowing float32")

// CheckMagnitude returns an error wrapping ErrMagnitude that names the
// first sample whose magnitude exceeds MaxSample by its position and its
// value as stored; NaN samples are left to CheckFinite.
func (c *Cube) CheckMagnitude() error {
	for i, v := range c.Data {
		if v > MaxSample || v < -MaxSample {
			p, b := i/c.B, i%c.B
			return fmt.Errorf("hsi: sample %v at row %d, column %d, band %d (0-based) is beyond +-%.3g: %w", v, p/c.W, p%c.W, b, float32(MaxSample), ErrMagnitude)
		}
	}
	return nil
}

// LargestSample returns the position and value of the sample of largest
// magnitude (NaN samples aside), for messages about an overflow.
func (c *Cube) LargestSample() (y, x, b int, v float32) {
	best := -1
	for i, s := range c.Data {
		if best < 0 || math.Abs(float64(s)) > math.Abs(float64(c.Data[best])) {
			best = i
		}
	}
	if best < 0 {
		return 0, 0, 0, 0
	}
	p := best / c.B
	return p / c.W, p % c.W, best % c.B, c.Data[best]
}

// Spectrum returns the spectrum of pixel (y, x) as a slice into Data.
func (c *Cube) Spectrum(y, x int) []float32 {
	i := (y*c.W + x) * c.B
	return c.Data[i : i+c.B]
}

// At returns the value at (y, x, b).
func (c *Cube) At(y, x, b int) float32 { return c.Data[(y*c.W+x)*c.B+b] }

// Set sets the value at (y, x, b).
func (c *Cube) Set(y, x, b int, v float32) { c.Data[(y*c.W+x)*c.B+b] = v }

// Band copies band b into a new H*W row-major slice.
func (c *Cube) Band(b int) []float32 {
	out := make([]float32, c.H*c.W)
	for p := range out {
		out[p] = c.Data[p*c.B+b]
	}
	return out
}

// SetBand copies a H*W row-major slice into band b.
func (c *Cube) SetBand(b int, v []float32) {
	for p := 0; p < c.H*c.W; p++ {
		c.Data[p*c.B+b] = v[p]
	}
}

// Clone returns a deep copy of the cube, metadata included.
func (c *Cube) Clone() *Cube {
	d := &Cube{H: c.H, W: c.W, B: c.B, Data: append([]float32(nil), c.Data...)}
	d.Meta = c.Meta.Clone()
	return d
}

// Resized returns a deep copy of m for the same scene on an outH x outW
// pixel grid instead of h x w: the georeferencing is scaled (pixel size
// divided by the per-axis factor, footprint unchanged).
//
// ENVI fields tied to pixel positions follow the grid: "geo points" (ground
// control points) are moved to the new pixel positions; "rpc info", "x
// start" and "y start" are left out (GridFields names them).
func (m Meta) Resized(h, w, outH, outW int) (Meta, error) {
	out := m.Clone()
	sy, sx := float64(outH)/float64(h), float64(outW)/float64(w)
	if out.Geo != nil {
		if err := out.Geo.Scale(sy, sx); err != nil {
			return out, err
		}
	}
	out.Extra = out.Extra[:0:0]
	for _, f := range m.Extra {
		switch f.Key {
		case "geo points":
			v, err := scaleGeoPoints(f.Value, sy, sx)
			if err != nil {
				return out, err
			}
			f.Value = v
		case "rpc info", "x start", "y start":
			continue
		}
		out.Extra = append(out.Extra, f)
	}
	if len(out.Extra) == 0 {
		out.Extra = nil
	}
	return out, nil
}

// GridFields returns the ENVI header fields that Resized leaves out: they
// describe pixel positions that a resampled grid no longer has.
// The slice is the caller's.
func GridFields() []string { return []string{"rpc info", "x start", "y start"} }

// scaleGeoPoints moves ENVI ground control points ("pixel x, pixel y, lat,
// lon" groups, pixel positions 1-based with (1, 1) the upper-left corner of
// the first pixel) to a grid resampled by sy x sx.
func scaleGeoPoints(s string, sy, sx float64) (string, error) {
	f := splitMapInfo(s)
	if len(f)%4 != 0 {
		return "", fmt.Errorf("hsi: geo points: %d values, want groups of 4", len(f))
	}
	for i := 0; i+3 < len(f); i += 4 {
		x, err1 := strconv.ParseFloat(f[i], 64)
		y, err2 := strconv.ParseFloat(f[i+1], 64)
		if err1 != nil || err2 != nil {
			return "", fmt.Errorf("hsi: geo points: pixel position %q, %q is not numeric", f[i], f[i+1])
		}
		f[i], f[i+1] = fmtNum((x-1)*sx+1), fmtNum((y-1)*sy+1)
	}
	return strings.Join(f, ", "), nil
}

// Clone returns a deep copy of the metadata.
func (m Meta) Clone() Meta {
	out := m
	out.Wavelengths = append([]float64(nil), m.Wavelengths...)
	out.FWHM = append([]float64(nil), m.FWHM...)
	out.BadBands = append([]bool(nil), m.BadBands...)
	out.BandNames = append([]string(nil), m.BandNames...)
	if m.Wavelengths == nil {
		out.Wavelengths = nil
	}
	if m.FWHM == nil {
		out.FWHM = nil
	}
	if m.BadBands == nil {
		out.BadBands = nil
	}
	if m.BandNames == nil {
		out.BandNames = nil
	}
	if m.Scale != nil {
		out.Scale = append([]float64(nil), m.Scale...)
	}
	if m.Offset != nil {
		out.Offset = append([]float64(nil), m.Offset...)
	}
	if m.Extra != nil {
		out.Extra = append([]Field(nil), m.Extra...)
	}
	if m.Geo != nil {
		g := m.Geo.Clone()
		out.Geo = &g
	}
	return out
}

// Crop returns a copy of the window of h x w pixels whose top-left pixel is
// (y0, x0). Georeferencing is shifted to the window.
func (c *Cube) Crop(y0, x0, h, w int) (*Cube, error) {
	if y0 < 0 || x0 < 0 || h <= 0 || w <= 0 || y0+h > c.H || x0+w > c.W {
		return nil, fmt.Errorf("hsi: crop %dx%d at (%d,%d) outside a %dx%d cube", h, w, y0, x0, c.H, c.W)
	}
	out, err := New(h, w, c.B)
	if err != nil {
		return nil, err
	}
	for y := 0; y < h; y++ {
		copy(out.Data[y*w*c.B:(y+1)*w*c.B], c.Data[((y0+y)*c.W+x0)*c.B:((y0+y)*c.W+x0+w)*c.B])
	}
	out.Meta = c.Meta.Clone()
	if out.Meta.Geo != nil {
		out.Meta.Geo.Shift(float64(y0), float64(x0))
	}
	return out, nil
}

// SelectBands returns a cube with the listed bands in the given order, with
// the per-band metadata selected alongside.
func (c *Cube) SelectBands(idx []int) (*Cube, error) {
	if len(idx) == 0 {
		return nil, fmt.Errorf("hsi: select bands: %w", ErrEmpty)
	}
	for _, b := range idx {
		if b < 0 || b >= c.B {
			return nil, fmt.Errorf("hsi: select bands: band %d outside 0..%d", b, c.B-1)
		}
	}
	out, err := New(c.H, c.W, len(idx))
	if err != nil {
		return nil, err
	}
	nb := len(idx)
	for p := 0; p < c.H*c.W; p++ {
		src := c.Data[p*c.B : (p+1)*c.B]
		dst := out.Data[p*nb : (p+1)*nb]
		for i, b := range idx {
			dst[i] = src[b]
		}
	}
	m := c.Meta.Clone()
	m.Wavelengths = pickF(m.Wavelengths, idx)
	m.FWHM = pickF(m.FWHM, idx)
	m.Scale = pickF(m.Scale, idx)
	m.Offset = pickF(m.Offset, idx)
	if m.BadBands != nil {
		bb := make([]bool, nb)
		for i, b := range idx {
			bb[i] = c.Meta.BadBands[b]
		}
		m.BadBands = bb
	}
	if m.BandNames != nil {
		bn := make([]string, nb)
		for i, b := range idx {
			bn[i] = c.Meta.BandNames[b]
		}
		m.BandNames = bn
	}
	out.Meta = m
	return out, nil
}

func pickF(v []float64, idx []int) []float64 {
	if v == nil {
		return nil
	}
	out := make([]float64, len(idx))
	for i, b := range idx {
		out[i] = v[b]
	}
	return out
}

// Range returns the smallest and largest finite values of the cube.
func (c *Cube) Range() (lo, hi float32) {
	lo, hi = float32(math.Inf(1)), float32(math.Inf(-1))
	for _, v := range c.Data {
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
	}
	return lo, hi
}

// NormalizeMax clamps negative values to zero and divides by the maximum
// over all pixels and bands (docs/CONVENTIONS.md section 6). It returns the divisor. A cube
// whose maximum is not positive is left at zero and the divisor is 1.
func (c *Cube) NormalizeMax() float32 {
	var mx float32
	for i, v := range c.Data {
		if v < 0 || v != v {
			v = 0
			c.Data[i] = 0
		}
		if v > mx {
			mx = v
		}
	}
	if mx <= 0 {
		return 1
	}
	inv := 1 / mx
	for i := range c.Data {
		c.Data[i] *= inv
	}
	return mx
}
