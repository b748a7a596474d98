package resample

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/simd"
)

// Upsampler renders the bicubic upsampling of a cube (Upsample) a band of
// output rows at a time, for outputs too large to hold in memory: rows
// [u0, u1) come out exactly as in the cube Upsample returns, and the
// memory held is the input rows those rows need, resampled along W (about
// (u1-u0)/s + 4 rows of the output's width), never the output.
type Upsampler struct {
	c      *hsi.Cube
	th, tw *taps
	mid    []float32
	// read, when set, supplies the input rows instead of c.Data (c then
	// holds the size only); src holds the rows last read, [srcLo, srcHi).
	read         func(y0, y1 int, dst []float32) error
	src, spare   []float32
	srcLo, srcHi int
}

// NewRowUpsampler is NewUpsampler for an H x W x B input that is never
// held whole: read(y0, y1, dst) fills dst with input rows [y0, y1)
// (pixel-interleaved) when RenderRows needs them, and must return an error
// for a NaN or infinite value. The output rows are those of Upsample on the
// whole input; the memory held is the input rows one band of output rows
// reads (about (u1-u0)/s + 4 rows), twice.
func NewRowUpsampler(H, W, B, h, w int, read func(y0, y1 int, dst []float32) error) (*Upsampler, error) {
	if H < 1 || W < 1 || B < 1 {
		return nil, fmt.Errorf("resample: upsample: input %dx%dx%d: %w", H, W, B, ErrSize)
	}
	if h < 1 || w < 1 {
		return nil, fmt.Errorf("resample: upsample %dx%dx%d to %dx%d: %w: output size must be at least 1x1", H, W, B, h, w, ErrSize)
	}
	if _, err := hsi.Elems(h, w, B); err != nil {
		return nil, fmt.Errorf("resample: upsample %dx%dx%d to %dx%d: %w: %v", H, W, B, h, w, ErrSize, err)
	}
	return &Upsampler{c: &hsi.Cube{H: H, W: W, B: B}, th: cubicTaps(H, h), tw: cubicTaps(W, w), read: read}, nil
}

// NewUpsampler prepares the upsampling of c to h x w pixels. It checks c
// and the size as Upsample does, except that the output need not fit in
// memory, and reports the first NaN or infinite value of c.
func NewUpsampler(c *hsi.Cube, h, w int) (*Upsampler, error) {
	u, err := NewUpsamplerUnchecked(c, h, w)
	if err != nil {
		return nil, err
	}
	if checkFinite(c) != nil {
		return nil, nonFinite("upsample", c)
	}
	return u, nil
}

// NewUpsamplerUnchecked is NewUpsampler without the scan of c's values,
// for a caller that checks the input a window reads itself (output pixel
// (u, v) reads input rows and columns within 2 of the input pixel holding
// its centre, clamped to the cube): a window reading only finite values
// equals the same window of Upsample, and one reading a NaN or infinite
// value comes out with non-finite values instead of an error.
func NewUpsamplerUnchecked(c *hsi.Cube, h, w int) (*Upsampler, error) {
	if c == nil {
		return nil, fmt.Errorf("resample: upsample: nil cube")
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("resample: upsample: %w", err)
	}
	if h < 1 || w < 1 {
		return nil, fmt.Errorf("resample: upsample %dx%dx%d to %dx%d: %w: output size must be at least 1x1", c.H, c.W, c.B, h, w, ErrSize)
	}
	if _, err := hsi.Elems(h, w, c.B); err != nil {
		return nil, fmt.Errorf("resample: upsample %dx%dx%d to %dx%d: %w: %v", c.H, c.W, c.B, h, w, ErrSize, err)
	}
	return &Upsampler{c: c, th: cubicTaps(c.H, h), tw: cubicTaps(c.W, w)}, nil
}

// Resized returns an upsampler of the same input (cube or row source) to
// h x w pixels, without checking the cube's values again.
func (u *Upsampler) Resized(h, w int) (*Upsampler, error) {
	c := u.c
	if h < 1 || w < 1 {
		return nil, fmt.Errorf("resample: upsample %dx%dx%d to %dx%d: %w: output size must be at least 1x1", c.H, c.W, c.B, h, w, ErrSize)
	}
	if _, err := hsi.Elems(h, w, c.B); err != nil {
		return nil, fmt.Errorf("resample: upsample %dx%dx%d to %dx%d: %w: %v", c.H, c.W, c.B, h, w, ErrSize, err)
	}
	return &Upsampler{c: c, th: cubicTaps(c.H, h), tw: cubicTaps(c.W, w), read: u.read}, nil
}

// Size returns the output size.
func (u *Upsampler) Size() (h, w int) { return u.th.out, u.tw.out }

// RenderRows writes output rows [u0, u1) to dst ((u1-u0)*w*B values,
// pixel-interleaved).
func (u *Upsampler) RenderRows(u0, u1 int, dst []float32) error {
	c, th, tw := u.c, u.th, u.tw
	if u0 < 0 || u1 > th.out || u0 >= u1 {
		return fmt.Errorf("resample: upsample: rows [%d, %d) outside a %d-row output", u0, u1, th.out)
	}
	row := tw.out * c.B
	if want := (u1 - u0) * row; len(dst) != want {
		return fmt.Errorf("resample: upsample: rows [%d, %d): destination holds %d values, want %d", u0, u1, len(dst), want)
	}
	// The input rows the output rows read.
	lo, hi := c.H, -1
	for _, i := range th.Idx[th.Off[u0]:th.Off[u1]] {
		lo, hi = min(lo, i), max(hi, i)
	}
	if th.identity() {
		lo, hi = u0, u1-1
	}
	n := hi - lo + 1
	var src []float32
	if u.read != nil {
		var err error
		if src, err = u.rows(lo, hi+1); err != nil {
			return err
		}
	} else {
		src = c.Data[lo*c.W*c.B : (hi+1)*c.W*c.B]
	}
	mid := src
	if !tw.identity() {
		if cap(u.mid) < n*row {
			u.mid = make([]float32, n*row)
		}
		mid = u.mid[:n*row]
		hpass(mid, src, n, c.W, c.B, tw, false) // finite: checked by NewUpsampler
	}
	if th.identity() {
		copy(dst, mid)
	} else {
		vpassRows(dst, mid, row, th, false, u0, u1, lo)
	}
	if !simd.Finite(dst) {
		// finite input rows, non-finite output: a sample near the float32
		// limit overflowed in the interpolation; name the largest
		in := &hsi.Cube{H: n, W: c.W, B: c.B, Data: src}
		y, x, b, v := in.LargestSample()
		return fmt.Errorf("resample: upsample: the input sample %v at row %d, column %d, band %d (0-based) makes the interpolation overflow float32 (keep samples within +-%.3g): %w",
			v, lo+y, x, b, float32(hsi.MaxSample), hsi.ErrMagnitude)
	}
	return nil
}

// rows returns input rows [lo, hi) from u.read, reading only the rows the
// previous call did not hold (consecutive bands of output rows share a few
// input rows).
func (u *Upsampler) rows(lo, hi int) ([]float32, error) {
	rowLen := u.c.W * u.c.B
	if lo >= u.srcLo && hi <= u.srcHi {
		return u.src[(lo-u.srcLo)*rowLen : (hi-u.srcLo)*rowLen], nil
	}
	need := (hi - lo) * rowLen
	buf := u.spare
	if cap(buf) < need {
		buf = make([]float32, need)
	}
	buf = buf[:need]
	from := lo
	if lo >= u.srcLo && lo < u.srcHi {
		// Keep the overlap with the rows held.
		copy(buf, u.src[(lo-u.srcLo)*rowLen:])
		from = u.srcHi
	}
	if err := u.read(from, hi, buf[(from-lo)*rowLen:]); err != nil {
		u.srcLo, u.srcHi = 0, 0
		return nil, err
	}
	u.spare = u.src
	u.src, u.srcLo, u.srcHi = buf, lo, hi
	return buf, nil
}

// RenderWindow writes output rows [u0, u1), columns [v0, v1) to dst
// ((u1-u0)*(v1-v0)*B values, pixel-interleaved): the same values as the
// window of Upsample's output, computing only the input rows and output
// columns the window needs. Unlike RenderRows it keeps no buffer between
// calls, so concurrent calls are safe. It needs the cube in memory
// (NewUpsampler, not NewRowUpsampler).
func (u *Upsampler) RenderWindow(u0, u1, v0, v1 int, dst []float32) error {
	c, th, tw := u.c, u.th, u.tw
	if u.read != nil {
		return fmt.Errorf("resample: upsample: a window of an upsampler reading rows from a source")
	}
	if u0 < 0 || u1 > th.out || u0 >= u1 || v0 < 0 || v1 > tw.out || v0 >= v1 {
		return fmt.Errorf("resample: upsample: window rows [%d, %d), columns [%d, %d) outside a %dx%d output", u0, u1, v0, v1, th.out, tw.out)
	}
	w := v1 - v0
	row := w * c.B
	if want := (u1 - u0) * row; len(dst) != want {
		return fmt.Errorf("resample: upsample: window %dx%d: destination holds %d values, want %d", u1-u0, w, len(dst), want)
	}
	rowsKept := th.identity()
	lo, hi := u0, u1-1
	if !rowsKept {
		lo, hi = c.H, -1
		for _, i := range th.Idx[th.Off[u0]:th.Off[u1]] {
			lo, hi = min(lo, i), max(hi, i)
		}
	}
	n := hi - lo + 1
	src := c.Data[lo*c.W*c.B : (hi+1)*c.W*c.B]
	mid := dst
	if !rowsKept {
		mid = make([]float32, n*row)
	}
	if tw.identity() {
		for i := 0; i < n; i++ {
			copy(mid[i*row:(i+1)*row], src[(i*c.W+v0)*c.B:])
		}
	} else {
		hpass(mid, src, n, c.W, c.B, tw.sub(v0, v1), false) // finite: checked by NewUpsampler
	}
	if !rowsKept {
		vpassRows(dst, mid, row, th, false, u0, u1, lo)
	}
	return nil
}
