package noise

import (
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/par"
)

// madToSigma converts the median absolute value of a zero-mean Gaussian
// sample into its standard deviation (1 / Phi^-1(3/4)).
const madToSigma = 1.482602218505602

// lapNorm is the L2 norm of the 3 x 3 high-pass mask
//
//	 1 -2  1
//	-2  4 -2
//	 1 -2  1
//
// (the outer product of [1 -2 1] with itself), which is blind to planes and
// to quadratic ramps along either axis (J. Immerkaer, "Fast noise variance
// estimation", CVIU 64(2), 1996).
const lapNorm = 6

// Bands returns the estimated standard deviation of the noise of every band
// of c, in the units of c. Residuals that touch a sample at the cube's
// no-data value (Meta.DataIgnore) or a non-finite value are left out. A band with fewer than 3 x 3 valid
// pixels gets NaN.
//
// The residual of a band is the 3 x 3 mask above applied to the band; when
// the cube has at least three bands and spectral is true, the mask is
// applied to the band minus the mean of its two spectral neighbours
// instead (a spectral second difference), which removes the signal that
// the neighbouring bands share. Each estimate is the smaller of the two, so
// that a band whose neighbours are unlike it (a sparse multispectral
// sensor) falls back to the spatial residual. The estimate is the median
// absolute residual scaled to a Gaussian's standard deviation.
func Bands(c *hsi.Cube, spectral bool) ([]float64, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("noise: %w", err)
	}
	out := make([]float64, c.B)
	if c.H < 3 || c.W < 3 {
		for b := range out {
			out[b] = math.NaN()
		}
		return out, nil
	}
	spectral = spectral && c.B >= 3
	// The residuals are taken pixel by pixel over all bands at once (the
	// nine spectra of a 3 x 3 neighbourhood are contiguous in memory), on
	// a grid of every st-th row and column. The grid's rows are split over
	// the cores, each part collecting its own residuals; a median does not
	// depend on the order of its values, so the parts are simply joined.
	st := stride(c.H, c.W)
	ny, nx := (c.H-2+st-1)/st, (c.W-2+st-1)/st
	nw := par.Parts(ny, 8, runtime.GOMAXPROCS(0))
	psp := make([][][]float32, nw)
	psr := make([][][]float32, nw)
	par.Ranges(ny, nw, func(part, lo, hi int) {
		psp[part], psr[part] = residuals(c, spectral, st, 1+lo*st, 1+hi*st, (hi-lo)*nx)
	})
	sp, sr := psp[0], psr[0]
	for _, q := range psp[1:] {
		for b := range sp {
			sp[b] = append(sp[b], q[b]...)
		}
	}
	for _, q := range psr[1:] {
		for b := range sr {
			sr[b] = append(sr[b], q[b]...)
		}
	}
	B := c.B
	par.ForEach(B, runtime.GOMAXPROCS(0), func(b int) {
		out[b] = median(sp[b]) / lapNorm
		if !spectral {
			return
		}
		// Gain of the spectral difference on white noise of equal sigma:
		// sqrt(1 + 1/4 + 1/4) inside the band, sqrt(1 + 4 + 1) at the ends.
		g := math.Sqrt(1.5)
		if b == 0 || b == B-1 {
			g = math.Sqrt(6)
		}
		if ss := median(sr[b]) / lapNorm / g; ss < out[b] || math.IsNaN(out[b]) {
			out[b] = ss
		}
	})
	return out, nil
}

// residuals returns the absolute spatial residuals of every band (sp) and,
// when spectral, of its spectral second difference (sr), of the grid
// pixels (every st-th row and column from 1) in rows [y0, y1), at most n
// of them.
func residuals(c *hsi.Cube, spectral bool, st, y0, y1, n int) (sp, sr [][]float32) {
	sp = make([][]float32, c.B)
	if spectral {
		sr = make([][]float32, c.B)
	}
	for b := range sp {
		sp[b] = make([]float32, 0, n)
		if spectral {
			sr[b] = make([]float32, 0, n)
		}
	}
	B, W := c.B, c.W
	fill, hasFill := float32(c.Meta.DataIgnore), c.Meta.HasDataIgnore
	r := make([]float64, B)
	for y := y0; y < min(y1, c.H-1); y += st {
		for x := 1; x < c.W-1; x += st {
			i := (y*W + x) * B
			up, mid, down := c.Data[i-W*B-B:i-W*B+2*B], c.Data[i-B:i+2*B], c.Data[i+W*B-B:i+W*B+2*B]
			for b := 0; b < B; b++ {
				corners := float64(up[b]) + float64(up[b+2*B]) + float64(down[b]) + float64(down[b+2*B])
				edges := float64(up[b+B]) + float64(down[b+B]) + float64(mid[b]) + float64(mid[b+2*B])
				r[b] = 4*float64(mid[b+B]) - 2*edges + corners
				if hasFill && (up[b] == fill || up[b+B] == fill || up[b+2*B] == fill ||
					mid[b] == fill || mid[b+B] == fill || mid[b+2*B] == fill ||
					down[b] == fill || down[b+B] == fill || down[b+2*B] == fill) {
					r[b] = math.NaN() // a residual that touches no-data is left out
				}
			}
			for b := 0; b < B; b++ {
				if !math.IsNaN(r[b]) && !math.IsInf(r[b], 0) {
					sp[b] = append(sp[b], float32(math.Abs(r[b])))
				}
				if !spectral {
					continue
				}
				// The residual is linear, so the spectral difference of
				// the spatial residuals is the spatial residual of the
				// spectral difference.
				var d float64
				switch b {
				case 0:
					d = r[0] - 2*r[1] + r[2]
				case B - 1:
					d = r[B-1] - 2*r[B-2] + r[B-3]
				default:
					d = r[b] - 0.5*(r[b-1]+r[b+1])
				}
				if !math.IsNaN(d) && !math.IsInf(d, 0) {
					sr[b] = append(sr[b], float32(math.Abs(d)))
				}
			}
		}
	}
	return sp, sr
}

// maxResiduals bounds the residuals one band's median is taken over: the
// median of n Gaussian magnitudes has a relative standard error of about
// 1.1/sqrt(n), 0.6 % here.
const maxResiduals = 1 << 15

// stride is the step between the residuals that are used on an h x w
// plane, so that at most about maxResiduals are.
func stride(h, w int) int {
	s := 1
	for (h-2)/s*((w-2)/s) > maxResiduals {
		s++
	}
	return s
}

// median returns madToSigma times the median of the absolute residuals
// a (values >= 0; a may be reordered), NaN when there are none.
func median(a []float32) float64 {
	if len(a) == 0 {
		return math.NaN()
	}
	k := len(a) / 2
	if len(a) < radixMin {
		m := float64(selectK(a, k))
		if len(a)%2 == 0 {
			// The largest of the lower half, which selectK left below k.
			m = 0.5 * (float64(slices.Max(a[:k])) + m)
		}
		return madToSigma * m
	}
	m := float64(radixSelect(a, k))
	if len(a)%2 == 0 {
		m = 0.5 * (float64(radixSelect(a, k-1)) + m)
	}
	return madToSigma * m
}

// radixMin is the length from which median selects by radix: below it
// quickselect's few passes cost less than the histograms.
const radixMin = 1024

// radixSelect returns the k-th smallest value of a, whose values are >= 0
// (so that their bits order as the values do), without moving them: a
// histogram of the top 12 bits finds the bucket that holds the k-th
// value, a second of the next 12 bits finds it inside that bucket, and
// quickselect finishes on the few values left.
func radixSelect(a []float32, k int) float32 {
	var hist [1 << 12]int32
	for _, v := range a {
		hist[math.Float32bits(v)>>20]++
	}
	top, k := bucketOf(&hist, k)
	clear(hist[:])
	for _, v := range a {
		if b := math.Float32bits(v); b>>20 == top {
			hist[b>>8&0xfff]++
		}
	}
	mid, k := bucketOf(&hist, k)
	want := top<<12 | mid
	rest := make([]float32, 0, hist[mid])
	for _, v := range a {
		if math.Float32bits(v)>>8 == want {
			rest = append(rest, v)
		}
	}
	return selectK(rest, k)
}

// bucketOf returns the bucket of hist that holds the k-th value (counting
// from 0) and that value's rank inside the bucket.
func bucketOf(hist *[1 << 12]int32, k int) (uint32, int) {
	for b, n := range hist {
		if k < int(n) {
			return uint32(b), k
		}
		k -= int(n)
	}
	panic("noise: rank beyond the values")
}

// selectK reorders a so that a[k] is its k-th smallest value, with no
// larger value before it and no smaller after it, and returns a[k]
// (Hoare's quickselect, median-of-three pivots).
func selectK(a []float32, k int) float32 {
	lo, hi := 0, len(a)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		p := a[mid]
		i, j := lo, hi
		for i <= j {
			for a[i] < p {
				i++
			}
			for a[j] > p {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return a[k]
		}
	}
	return a[k]
}

// Level summarises per-band noise estimates as one number: the root mean
// square over the bands with a finite estimate (NaN when there is none).
func Level(sigmas []float64) float64 {
	var s float64
	n := 0
	for _, v := range sigmas {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			s += v * v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return math.Sqrt(s / float64(n))
}
