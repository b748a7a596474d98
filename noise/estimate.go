package noise

import (
	"fmt"
	"math"
	"runtime"

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
		if spectral {
			out[b] = bandSigma(sp[b], sr[b], b, B)
		} else {
			out[b] = bandSigma(sp[b], nil, b, B)
		}
	})
	return out, nil
}

// bandSigma is the noise estimate of band b of B from its absolute spatial
// residuals sp and, when sr is not nil, those of its spectral second
// difference: the smaller of the two scaled medians.
func bandSigma(sp, sr []float32, b, B int) float64 {
	s := median(sp) / lapNorm
	if sr == nil {
		return s
	}
	// Gain of the spectral difference on white noise of equal sigma:
	// sqrt(1 + 1/4 + 1/4) inside the band, sqrt(1 + 4 + 1) at the ends.
	g := math.Sqrt(1.5)
	if b == 0 || b == B-1 {
		g = math.Sqrt(6)
	}
	if ss := median(sr) / lapNorm / g; ss < s || math.IsNaN(s) {
		s = ss
	}
	return s
}

// residuals returns the absolute spatial residuals of every band (sp) and,
// when spectral, of its spectral second difference (sr), of the grid
// pixels (every st-th row and column from 1) in rows [y0, y1), at most n
// of them. Residuals that are not finite are left out.
func residuals(c *hsi.Cube, spectral bool, st, y0, y1, n int) (sp, sr [][]float32) {
	B, W := c.B, c.W
	sp, np := bandLists(B, n)
	var nr []int
	if spectral {
		sr, nr = bandLists(B, n)
	}
	fill, hasFill := float32(c.Meta.DataIgnore), c.Meta.HasDataIgnore
	r := make([]float64, B)
	d := make([]float64, B)
	for y := y0; y < min(y1, c.H-1); y += st {
		for x := 1; x < c.W-1; x += st {
			i := (y*W + x) * B
			up, mid, down := c.Data[i-W*B-B:i-W*B+2*B], c.Data[i-B:i+2*B], c.Data[i+W*B-B:i+W*B+2*B]
			up0, up1, up2 := up[:B], up[B:2*B], up[2*B:3*B]
			mid0, mid1, mid2 := mid[:B], mid[B:2*B], mid[2*B:3*B]
			down0, down1, down2 := down[:B], down[B:2*B], down[2*B:3*B]
			for b := range r {
				corners := float64(up0[b]) + float64(up2[b]) + float64(down0[b]) + float64(down2[b])
				edges := float64(up1[b]) + float64(down1[b]) + float64(mid0[b]) + float64(mid2[b])
				r[b] = 4*float64(mid1[b]) - 2*edges + corners
			}
			if hasFill {
				for b := range r {
					if up0[b] == fill || up1[b] == fill || up2[b] == fill ||
						mid0[b] == fill || mid1[b] == fill || mid2[b] == fill ||
						down0[b] == fill || down1[b] == fill || down2[b] == fill {
						r[b] = math.NaN() // a residual that touches no-data is left out
					}
				}
			}
			appendFinite(sp, np, r)
			if !spectral {
				continue
			}
			// The residual is linear, so the spectral difference of the
			// spatial residuals is the spatial residual of the spectral
			// difference.
			d[0] = r[0] - 2*r[1] + r[2]
			for b := 1; b < B-1; b++ {
				d[b] = r[b] - 0.5*(r[b-1]+r[b+1])
			}
			d[B-1] = r[B-1] - 2*r[B-2] + r[B-3]
			appendFinite(sr, nr, d)
		}
	}
	for b := range sp {
		sp[b] = sp[b][:np[b]]
		if spectral {
			sr[b] = sr[b][:nr[b]]
		}
	}
	return sp, sr
}

// bandLists returns b lists of n values, and their counts (0).
func bandLists(b, n int) ([][]float32, []int) {
	l := make([][]float32, b)
	for i := range l {
		l[i] = make([]float32, n)
	}
	return l, make([]int, b)
}

// appendFinite appends |r[b]| to list b (whose length is cnt[b]) for each
// finite r[b]. Every value is stored and only the count depends on the
// test, so that the loop does not branch on the data.
func appendFinite(lists [][]float32, cnt []int, r []float64) {
	cnt = cnt[:len(r)]
	lists = lists[:len(r)]
	for b, v := range r {
		lists[b][cnt[b]] = float32(math.Abs(v))
		if v-v == 0 { // false for NaN and for an infinity
			cnt[b]++
		}
	}
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
// a (values >= 0, not modified), NaN when there are none.
func median(a []float32) float64 {
	if len(a) == 0 {
		return math.NaN()
	}
	k := len(a) / 2
	v, eq := kth(a, k, make([]float32, len(a)))
	m := float64(v)
	if len(a)%2 == 0 {
		// The (k-1)-th value: v again when a value equal to v ranks
		// below it, otherwise the largest value below v.
		lo := v
		if eq == 0 {
			lo = 0
			for _, x := range a {
				if x < v {
					lo = max(lo, x)
				}
			}
		}
		m = 0.5 * (float64(lo) + m)
	}
	return madToSigma * m
}

// kth returns the k-th smallest value of a (counting from 0; the values
// are >= 0, so that their bits order as the values do) and how many values
// equal to it rank below it, without reordering a. It selects by radix, a
// byte of the bits at a time from the top: a histogram of the byte finds
// the bucket that holds the k-th value, and that bucket's values, copied
// to scratch (at least len(a) long), are the next byte's candidates. Each
// pass only counts and copies, so its cost does not depend on the order
// of the values.
func kth(a []float32, k int, scratch []float32) (float32, int) {
	var hist [256]int32
	cand := a
	// The exponent's byte (the sign bit is 0), then the mantissa's top,
	// middle and last bytes (the last shares bit 7 with the middle one).
	for _, shift := range [...]uint{23, 15, 7, 0} {
		if len(cand) == 1 {
			return cand[0], 0
		}
		clear(hist[:])
		for _, v := range cand {
			hist[math.Float32bits(v)>>shift&0xff]++
		}
		var b uint32
		b, k = bucketOf(&hist, k)
		// Copied forward in place from the second byte on (m <= i).
		next := scratch[:len(cand)]
		m := 0
		for _, v := range cand {
			next[m] = v
			if math.Float32bits(v)>>shift&0xff == b {
				m++
			}
		}
		cand = next[:m]
	}
	// Every candidate left has the same bits.
	return cand[0], k
}

// bucketOf returns the bucket of hist that holds the k-th value (counting
// from 0) and that value's rank inside the bucket.
func bucketOf(hist *[256]int32, k int) (uint32, int) {
	for b, n := range hist {
		if k < int(n) {
			return uint32(b), k
		}
		k -= int(n)
	}
	panic("noise: rank beyond the values")
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
