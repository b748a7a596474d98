package metrics

import (
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/simd"
)

const (
	ssimSigma  = 1.5
	ssimRadius = 5 // int(3.5*1.5 + 0.5): skimage's truncate = 3.5
	ssimWin    = 2*ssimRadius + 1
	ssimK1     = 0.01
	ssimK2     = 0.03
	// stripCols is the width, in output columns, of the vertical strips
	// SSIM is computed in: it bounds the working set to
	// 5 maps x 11 rows x (stripCols+10) x B float64 per worker.
	stripCols = 64
)

func checkSSIMSize(c *hsi.Cube) error {
	if c.H < ssimWin || c.W < ssimWin {
		return fmt.Errorf("metrics: ssim: a %dx%d image is smaller than the %dx%d window", c.H, c.W, ssimWin, ssimWin)
	}
	return nil
}

// ssimWindow returns scipy's normalised 1-D Gaussian of sigma 1.5 and
// radius 5.
func ssimWindow() []float64 {
	g := make([]float64, ssimWin)
	var s float64
	for i := range g {
		x := float64(i - ssimRadius)
		g[i] = math.Exp(-0.5 / (ssimSigma * ssimSigma) * x * x)
		s += g[i]
	}
	for i := range g {
		g[i] /= s
	}
	return g
}

// ssim computes the per-band SSIM maps over the pixels 5 or more pixels
// from the border (the only ones skimage's crop keeps, and the only ones
// whose window lies inside the image, so the border mode never matters)
// and averages them. The image is cut into vertical strips of stripCols
// output columns, each processed top to bottom with a ring of 11
// horizontally filtered rows of the five maps x, y, x^2, y^2, xy.
func ssim(ref, est *hsi.Cube) (float64, []float64) {
	nb := ref.B
	hc, wc := ref.H-2*ssimRadius, ref.W-2*ssimRadius
	g := ssimWindow()
	nstrips := (wc + stripCols - 1) / stripCols
	sums := make([][]float64, nstrips)
	forEach(nstrips, func(s int) {
		x0 := s * stripCols
		sw := min(stripCols, wc-x0)
		sums[s] = ssimStrip(ref, est, g, x0, sw)
	})
	per := make([]float64, nb)
	var mean float64
	for b := 0; b < nb; b++ {
		var t float64
		for s := range sums {
			t += sums[s][b]
		}
		per[b] = t / float64(hc*wc)
		mean += per[b]
	}
	return mean / float64(nb), per
}

// ssimStrip returns, per band, the sum of the SSIM map over output columns
// x0 .. x0+sw-1 (cropped coordinates) and every output row.
func ssimStrip(ref, est *hsi.Cube, g []float64, x0, sw int) []float64 {
	nb := ref.B
	hc := ref.H - 2*ssimRadius
	in := (sw + 2*ssimRadius) * nb // one input row of the strip
	out := sw * nb                 // one filtered row
	prod := make([]float64, 5*in)  // x, y, x^2, y^2, xy of one input row
	ring := make([]float64, 5*ssimWin*out)
	mu := make([]float64, 5*out) // vertically filtered maps of one output row
	offH := make([]int, ssimWin)
	for k := range offH {
		offH[k] = k * nb
	}
	offV := make([]int, ssimWin)
	sum := make([]float64, nb)
	c1 := (ssimK1 * 1) * (ssimK1 * 1)
	c2 := (ssimK2 * 1) * (ssimK2 * 1)
	for r := 0; r < ref.H; r++ {
		base := (r*ref.W + x0) * nb
		xr := ref.Data[base : base+in]
		yr := est.Data[base : base+in]
		px, py, pxx, pyy, pxy := prod[0:in], prod[in:2*in], prod[2*in:3*in], prod[3*in:4*in], prod[4*in:5*in]
		for i := range xr {
			x, y := float64(xr[i]), float64(yr[i])
			px[i], py[i], pxx[i], pyy[i], pxy[i] = x, y, x*x, y*y, x*y
		}
		slot := r % ssimWin
		for m := 0; m < 5; m++ {
			simd.WSum64(ring[(m*ssimWin+slot)*out:(m*ssimWin+slot+1)*out], prod[m*in:(m+1)*in], offH, g)
		}
		cy := r - 2*ssimRadius // the output row whose window ends at r
		if cy < 0 || cy >= hc {
			continue
		}
		for k := range offV {
			offV[k] = ((cy + k) % ssimWin) * out
		}
		for m := 0; m < 5; m++ {
			simd.WSum64(mu[m*out:(m+1)*out], ring[m*ssimWin*out:(m+1)*ssimWin*out], offV, g)
		}
		ux, uy, uxx, uyy, uxy := mu[0:out], mu[out:2*out], mu[2*out:3*out], mu[3*out:4*out], mu[4*out:5*out]
		for x := 0; x < sw; x++ {
			i0 := x * nb
			for band := 0; band < nb; band++ {
				i := i0 + band
				a, b := ux[i], uy[i]
				vx := uxx[i] - a*a
				vy := uyy[i] - b*b
				vxy := uxy[i] - a*b
				sum[band] += ((2*a*b + c1) * (2*vxy + c2)) / ((a*a + b*b + c1) * (vx + vy + c2))
			}
		}
	}
	return sum
}
