package model

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/noise"
	"github.com/omnihsr/omnihsr/resample"
)

// GainWindow is the largest side, in low-res pixels, of the window of the
// input on which a noise companion's field gain is measured (its centre);
// it bounds the measurement's time and memory on a whole scene.
const GainWindow = 256

// fieldGain measures how much of the operator field m (a noise companion)
// should add to U_s X for the input x (the network's bands, no-data
// filled), whose noise has the per-band standard deviations sigmas (units
// of x): the self-validated gain of the field.
//
// The centre window of x (at most GainWindow on a side) is downsampled by
// 2 (antialiased bicubic, as the training pairs are made), white noise is
// added band by band to bring the noise of each band back to its level in
// x (the downsampling averages it down), and m super-resolves that back
// to the window's size. With U the bicubic upsampling of the downsampled
// window and F the model's output less U, the gain is the least-squares
// factor g minimising |U + g F - window|^2, clamped to [0, 1]. The noise of
// the window, independent of F, adds the same error whatever g is, so the
// noisy window is a fair target. A window that halves to fewer than 3 pixels on
// a side (resample.OutSize) or a zero field gives 1. The noise draw has a fixed
// seed, so the gain, like the output, is the same on every run. The
// encoding and the rendering stop when ctx is done, returning its error.
func (m *Model) fieldGain(ctx context.Context, x *hsi.Cube, sigmas []float64) (float64, error) {
	h, w := min(x.H, GainWindow), min(x.W, GainWindow)
	lh, lw := resample.OutSize(h, 2), resample.OutSize(w, 2)
	if lh < 3 || lw < 3 || len(sigmas) != x.B {
		return 1, nil
	}
	win, err := x.Crop((x.H-h)/2, (x.W-w)/2, h, w)
	if err != nil {
		return 0, fmt.Errorf("model: field gain: %w", err)
	}
	win.Meta = hsi.Meta{}
	d, err := resample.Downsample(win, lh, lw)
	if err != nil {
		return 0, fmt.Errorf("model: field gain: %w", err)
	}
	sd, err := noise.Bands(d, true)
	if err != nil {
		return 0, fmt.Errorf("model: field gain: %w", err)
	}
	add := make([]float64, x.B)
	for b, s := range sigmas {
		if v := s*s - sd[b]*sd[b]; v > 0 {
			add[b] = math.Sqrt(v)
		}
	}
	rng := rand.New(rand.NewPCG(7, 9))
	for i := range d.Data {
		if a := add[i%x.B]; a > 0 {
			d.Data[i] += float32(a * rng.NormFloat64())
		}
	}
	u, err := resample.Upsample(d, h, w)
	if err != nil {
		return 0, fmt.Errorf("model: field gain: %w", err)
	}
	// m.Upscale(d, h, w), stopping when ctx is done.
	e, err := m.EncodeImageContext(ctx, d, EncodeOptions{})
	if err != nil {
		return 0, fmt.Errorf("model: field gain: %w", err)
	}
	o, err := e.OutputContext(ctx, h, w)
	if err != nil {
		return 0, fmt.Errorf("model: field gain: %w", err)
	}
	p, err := o.Render()
	if err != nil {
		return 0, fmt.Errorf("model: field gain: %w", err)
	}
	return gainOf(u.Data, p.Data, win.Data), nil
}

// gainOf returns the factor g in [0, 1] that minimises the squared error
// of u + g (p - u) against t, or 1 when p equals u.
func gainOf(u, p, t []float32) float64 {
	var num, den float64
	for i, v := range u {
		f := float64(p[i] - v)
		num += f * float64(t[i]-v)
		den += f * f
	}
	if !(den > 0) {
		return 1
	}
	return max(0, min(1, num/den))
}
