package resample

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
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
}

// NewUpsampler prepares the upsampling of c to h x w pixels. It checks c
// and the size as Upsample does, except that the output need not fit in
// memory, and reports the first NaN or infinite value of c.
func NewUpsampler(c *hsi.Cube, h, w int) (*Upsampler, error) {
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
	if checkFinite(c) != nil {
		return nil, nonFinite("upsample", c)
	}
	return &Upsampler{c: c, th: cubicTaps(c.H, h), tw: cubicTaps(c.W, w)}, nil
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
	src := c.Data[lo*c.W*c.B : (hi+1)*c.W*c.B]
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
		return nil
	}
	vpassRows(dst, mid, row, th, false, u0, u1, lo)
	return nil
}
