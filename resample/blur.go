package resample

import (
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/simd"
)

// GaussianBlur returns c with every band convolved with a Gaussian of
// standard deviation sigma pixels (of c), separable, truncated at
// int(4*sigma+0.5) pixels from the centre and normalised to sum to one, with
// the 'reflect' border of scipy.ndimage (the image mirrored about its edge,
// edge pixel repeated: d c b a | a b c d | d c b a, repeated as often as
// the kernel needs). It equals
// scipy.ndimage.gaussian_filter(band, sigma, mode='reflect', truncate=4.0)
// to float32 precision. sigma = 0 returns a copy. Errors: sigma < 0, NaN
// or Inf, or so large that the kernel radius exceeds twice the larger side
// of the image; NaN or Inf pixels.
func GaussianBlur(c *hsi.Cube, sigma float64) (*hsi.Cube, error) {
	if !(sigma >= 0) || math.IsInf(sigma, 0) {
		return nil, fmt.Errorf("resample: blur: sigma %v: %w: must be a finite number >= 0", sigma, ErrSize)
	}
	if err := checkInput("blur", c, 1, 1); err != nil {
		return nil, err
	}
	if err := checkSigma("blur", sigma, c); err != nil {
		return nil, err
	}
	if checkFinite(c) != nil {
		return nil, nonFinite("blur", c)
	}
	out := c.Clone()
	if sigma == 0 {
		return out, nil
	}
	blurInPlace(out.Data, c.H, c.W, c.B, gaussKernel(sigma), true)
	return out, nil
}

// BandBlur returns c with band b (counted from 1) blurred as GaussianBlur
// does with sigma_b = kappa*s*(b-1)/(B-1) pixels: no blur on the first band,
// kappa*s on the last (docs/CONVENTIONS.md section 5, the paper's "blur that
// grows along the spectrum"; s is the factor of the degradation that follows). A 1-band
// cube is returned unblurred. Errors: kappa < 0, s <= 0, either NaN or
// Inf; NaN or Inf pixels.
func BandBlur(c *hsi.Cube, kappa, s float64) (*hsi.Cube, error) {
	if !(kappa >= 0) || math.IsInf(kappa, 0) {
		return nil, fmt.Errorf("resample: band blur: kappa %v: %w: must be a finite number >= 0", kappa, ErrSize)
	}
	if err := CheckFactor(s); err != nil {
		return nil, fmt.Errorf("resample: band blur: %w", err)
	}
	if err := checkInput("band blur", c, 1, 1); err != nil {
		return nil, err
	}
	if err := checkSigma("band blur", BandSigma(kappa*s, c.B-1, c.B), c); err != nil {
		return nil, err
	}
	if checkFinite(c) != nil {
		return nil, nonFinite("band blur", c)
	}
	out := c.Clone()
	bandBlurInPlace(out, kappa*s)
	return out, nil
}

// BandSigma returns the blur of band b (0-based) of a B-band cube under
// BandBlur: kappaS*b/(B-1), 0 for B = 1.
func BandSigma(kappaS float64, b, bands int) float64 {
	if bands <= 1 {
		return 0
	}
	return kappaS * float64(b) / float64(bands-1)
}

// bandBlurInPlace blurs band b of c by BandSigma(kappaS, b, c.B), bands in
// parallel.
func bandBlurInPlace(c *hsi.Cube, kappaS float64) {
	if kappaS == 0 || c.B == 1 {
		return
	}
	n := c.H * c.W
	parallel(c.B, 1, func(lo, hi int) {
		plane := make([]float32, n)
		for b := lo; b < hi; b++ {
			sg := BandSigma(kappaS, b, c.B)
			if sg == 0 {
				continue
			}
			for p := 0; p < n; p++ {
				plane[p] = c.Data[p*c.B+b]
			}
			blurInPlace(plane, c.H, c.W, 1, gaussKernel(sg), false)
			for p := 0; p < n; p++ {
				c.Data[p*c.B+b] = plane[p]
			}
		}
	})
}

// checkSigma refuses a blur whose kernel radius int(4*sigma+0.5) exceeds
// twice the larger side of the image: its cost grows with the radius and
// such a blur flattens the image to its mean anyway.
func checkSigma(op string, sigma float64, c *hsi.Cube) error {
	if r := 4*sigma + 0.5; r > float64(2*max(c.H, c.W)) {
		return fmt.Errorf("resample: %s: sigma %g pixels: %w: its kernel radius %.0f exceeds twice the larger side of the %dx%d image",
			op, sigma, ErrSize, math.Floor(r), c.H, c.W)
	}
	return nil
}

// gaussKernel returns scipy's _gaussian_kernel1d(sigma, 0, int(4*sigma+0.5)).
func gaussKernel(sigma float64) []float32 {
	r := int(4*sigma + 0.5)
	k := make([]float64, 2*r+1)
	var sum float64
	for i := -r; i <= r; i++ {
		v := math.Exp(-0.5 / (sigma * sigma) * float64(i*i))
		k[i+r] = v
		sum += v
	}
	out := make([]float32, len(k))
	for i := range k {
		out[i] = float32(k[i] / sum)
	}
	return out
}

// reflect maps index i onto [0, n) with scipy's 'reflect' rule.
func reflect(i, n int) int {
	if n == 1 {
		return 0
	}
	p := 2 * n
	i %= p
	if i < 0 {
		i += p
	}
	if i >= n {
		i = p - 1 - i
	}
	return i
}

// blurInPlace convolves the h x w x b image data with the kernel k along W
// then along H, reflecting at the borders; in parallel when par.
func blurInPlace(data []float32, h, w, b int, k []float32, par bool) {
	run := parallel
	if !par {
		run = func(n, _ int, fn func(lo, hi int)) { fn(0, n) }
	}
	r := len(k) / 2
	rowLen := w * b
	// Along W: pad each row by reflection, then every output pixel is a
	// weighted sum of the row shifted by 0..2r pixels.
	off := make([]int, len(k))
	for i := range off {
		off[i] = i * b
	}
	run(h, 1, func(lo, hi int) {
		pad := make([]float32, (w+2*r)*b)
		for y := lo; y < hi; y++ {
			row := data[y*rowLen : (y+1)*rowLen]
			for x := -r; x < w+r; x++ {
				sx := reflect(x, w)
				copy(pad[(x+r)*b:(x+r+1)*b], row[sx*b:(sx+1)*b])
			}
			simd.WSum32(row, pad, off, k)
		}
	})
	// Along H: output row y sums rows reflect(y-r .. y+r) of a copy.
	src := append([]float32(nil), data...)
	run(h, 1, func(lo, hi int) {
		offR := make([]int, len(k))
		for y := lo; y < hi; y++ {
			for i := range k {
				offR[i] = reflect(y+i-r, h) * rowLen
			}
			simd.WSum32(data[y*rowLen:(y+1)*rowLen], src, offR, k)
		}
	})
}
