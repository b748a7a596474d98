package resample

import (
	"errors"
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/hsi"
)

// DegradeOptions describes how Degrade makes a low-resolution cube.
type DegradeOptions struct {
	// Scale is the factor s. The low-resolution size is
	// OutSize(H, s) x OutSize(W, s) unless H and W are set.
	Scale float64
	// H and W set the low-resolution size explicitly (both or neither).
	// The factor used for blur sigmas is then Scale if set, else the mean
	// of H_hr/H and W_hr/W (the effective factor of docs/CONVENTIONS.md section 4).
	H, W int
	// Blur is c: a Gaussian blur of sigma = c*s high-resolution pixels
	// (GaussianBlur) before downsampling; 0 for none.
	Blur float64
	// BandKappa is kappa: band b is blurred by kappa*s*(b-1)/(B-1) pixels
	// (BandBlur) before downsampling; 0 for none. Applied after Blur.
	BandKappa float64
	// Area selects the PyTorch mode='area' mean (AreaResize; the s x s block
	// mean for integer s) instead of antialiased bicubic (Downsample).
	Area bool
	// Noise is the standard deviation of Gaussian noise added to the
	// low-resolution cube (AddNoise with Seed); 0 for none.
	Noise float64
	Seed  uint64
}

// Factor returns the factor s used for the blur sigmas of a degradation of
// an hr cube of h x w pixels, and the low-resolution size.
func (o DegradeOptions) Factor(h, w int) (s float64, lh, lw int, err error) {
	if (o.H > 0) != (o.W > 0) || o.H < 0 || o.W < 0 {
		return 0, 0, 0, fmt.Errorf("resample: degrade: size %dx%d: %w: give both sides or neither", o.H, o.W, ErrSize)
	}
	if o.H > 0 {
		s = o.Scale
		if s == 0 {
			s = (float64(h)/float64(o.H) + float64(w)/float64(o.W)) / 2
		} else if err := CheckFactor(s); err != nil {
			return 0, 0, 0, fmt.Errorf("resample: degrade: %w", err)
		}
		return s, o.H, o.W, nil
	}
	if o.Scale == 0 {
		return 0, 0, 0, fmt.Errorf("resample: degrade: %w: no factor and no size given", ErrSize)
	}
	if err := CheckFactor(o.Scale); err != nil {
		return 0, 0, 0, fmt.Errorf("resample: degrade: %w", err)
	}
	lh, lw = OutSize(h, o.Scale), OutSize(w, o.Scale)
	if lh < 1 || lw < 1 {
		return 0, 0, 0, fmt.Errorf("resample: degrade: a %dx%d cube divided by %g gives %dx%d pixels: %w: the low-resolution side round(side/s) must be at least 1",
			h, w, o.Scale, lh, lw, ErrSize)
	}
	return o.Scale, lh, lw, nil
}

// Degrade makes a low-resolution cube from hr following docs/CONVENTIONS.md section 5: an
// optional Gaussian blur of sigma Blur*s, an optional band-dependent blur,
// antialiased bicubic downsampling (Downsample) or the area mean
// (AreaResize) to the low-resolution size, and optional Gaussian noise.
// The low-resolution side is round(side/s), rounded half away from zero
// (OutSize). The result's georeferencing is scaled to its grid.
//
// Errors: factor <= 0, NaN or Inf; a size that rounds to 0; negative or
// non-finite Blur, BandKappa or Noise; a blur wider than GaussianBlur
// accepts; NaN or Inf pixels in hr.
func Degrade(hr *hsi.Cube, o DegradeOptions) (*hsi.Cube, error) {
	if hr == nil {
		return nil, errors.New("resample: degrade: nil cube")
	}
	s, lh, lw, err := o.Factor(hr.H, hr.W)
	if err != nil {
		return nil, err
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"blur", o.Blur}, {"band blur kappa", o.BandKappa}, {"noise", o.Noise}} {
		if !(p.v >= 0) || math.IsInf(p.v, 0) {
			return nil, fmt.Errorf("resample: degrade: %s %v: %w: must be a finite number >= 0", p.name, p.v, ErrSize)
		}
	}
	if err := checkInput("degrade", hr, lh, lw); err != nil {
		return nil, err
	}
	if err := checkSigma("degrade: blur", o.Blur*s, hr); err != nil {
		return nil, err
	}
	if err := checkSigma("degrade: band blur", BandSigma(o.BandKappa*s, hr.B-1, hr.B), hr); err != nil {
		return nil, err
	}
	src := hr
	if o.Blur > 0 || o.BandKappa > 0 {
		if checkFinite(hr) != nil { // before blurring spreads a NaN
			return nil, nonFinite("degrade", hr)
		}
		src = hr.Clone()
		if o.Blur > 0 {
			blurInPlace(src.Data, src.H, src.W, src.B, gaussKernel(o.Blur*s), true)
		}
		bandBlurInPlace(src, o.BandKappa*s)
	}
	var lr *hsi.Cube
	if o.Area {
		lr, err = resample2D("degrade", src, areaTaps(src.H, lh), areaTaps(src.W, lw), true)
	} else {
		lr, err = resample2D("degrade", src, aaTaps(src.H, lh), aaTaps(src.W, lw), false)
	}
	if err != nil {
		return nil, err
	}
	addNoiseInPlace(lr.Data, o.Noise, o.Seed)
	return lr, nil
}
