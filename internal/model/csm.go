package model

import (
	"fmt"
	"math"
	"runtime"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/par"
)

// BandMap is the linear band resampling C_B of CSM: it interpolates a
// spectrum of B bands, band b sitting at position b/(B-1) in [0,1], onto M
// equally spaced reference positions m/(M-1). Each reference position mixes
// at most two neighbouring bands. It has no learnable parameter.
type BandMap struct {
	B, M int
	Lo   []int     // first band of reference position m
	Wlo  []float32 // weight of band Lo[m]; band Lo[m]+1 gets 1-Wlo[m]
}

// NewBandMap returns C_B for B input bands and M reference positions.
// B = 1 maps the single band to every position.
func NewBandMap(b, m int) (*BandMap, error) {
	if b < 1 {
		return nil, fmt.Errorf("csm: %d bands: need at least one", b)
	}
	if m < 1 {
		return nil, fmt.Errorf("csm: %d reference positions: need at least one", m)
	}
	bm := &BandMap{B: b, M: m, Lo: make([]int, m), Wlo: make([]float32, m)}
	for i := 0; i < m; i++ {
		if b == 1 {
			bm.Lo[i], bm.Wlo[i] = 0, 1
			continue
		}
		t := 0.0
		if m > 1 {
			t = float64(i) / float64(m-1)
		} else {
			t = 0.5
		}
		pos := t * float64(b-1) // fractional band index
		lo := int(math.Floor(pos))
		if lo >= b-1 {
			lo = b - 2
		}
		frac := pos - float64(lo)
		bm.Lo[i] = lo
		bm.Wlo[i] = float32(1 - frac)
	}
	return bm, nil
}

// Apply maps every pixel's spectrum of x (h*w pixels of B values) to M
// values, multiplied by scale, writing h*w*M values into dst.
func (bm *BandMap) Apply(dst, x []float32, scale float32) {
	np := len(x) / bm.B
	par.Ranges(np, par.Parts(np, 4096, runtime.GOMAXPROCS(0)), func(_, lo, hi int) { bm.apply(dst, x, scale, lo, hi) })
}

// apply is Apply on pixels [lo, hi).
func (bm *BandMap) apply(dst, x []float32, scale float32, lo, hi int) {
	for p := lo; p < hi; p++ {
		src := x[p*bm.B : (p+1)*bm.B]
		out := dst[p*bm.M : (p+1)*bm.M]
		for i := range out {
			lo := bm.Lo[i]
			v := bm.Wlo[i] * src[lo]
			if bm.B > 1 {
				v += (1 - bm.Wlo[i]) * src[lo+1]
			}
			out[i] = v * scale
		}
	}
}

// ApplyT is the transpose of Apply: for every pixel it adds scale * C^T g
// to dst, g holding M values and dst B values per pixel (the same number
// of pixels).
func (bm *BandMap) ApplyT(dst, g []float32, scale float32) {
	np := len(g) / bm.M
	for p := 0; p < np; p++ {
		src := g[p*bm.M : (p+1)*bm.M]
		out := dst[p*bm.B : (p+1)*bm.B]
		for i, v := range src {
			v *= scale
			lo := bm.Lo[i]
			out[lo] += bm.Wlo[i] * v
			if bm.B > 1 {
				out[lo+1] += (1 - bm.Wlo[i]) * v
			}
		}
	}
}

// InputScale is the input normalisation of the model: the reciprocal of the
// mean absolute value of the cube, so that the network sees data of unit
// magnitude whatever the sensor's units (raw counts, reflectance, negative
// values). Scaling the input by c > 0 scales the scale by 1/c, the network
// input is unchanged, and since every row of W_s sums to one the output
// scales by c exactly. An all-zero cube gets scale 1.
func InputScale(c *hsi.Cube) float32 {
	return scaleOfSum(absSumBands(c, nil), len(c.Data))
}

// inputScaleBands is InputScale of the cube of c's bands listed in bands,
// without making that cube: the same sum in the same order, so the same
// bits as InputScale of c.SelectBands(bands).
func inputScaleBands(c *hsi.Cube, bands []int) float32 {
	return scaleOfSum(absSumBands(c, bands), c.H*c.W*len(bands))
}

// absSumBlock is the number of values of one block of absSumBands: the
// blocks are summed on every core, each in four float64 accumulators
// taking every fourth value, and the block sums added in order, so the
// sum does not depend on the number of cores.
const absSumBlock = 1 << 16

// absSumBands is the sum of |v| over the values of c's bands listed in
// bands (every band when bands is nil), pixel by pixel, in blocks of
// absSumBlock values of that sequence.
func absSumBands(c *hsi.Cube, bands []int) float64 {
	nb := len(bands)
	n := c.H * c.W * nb
	if bands == nil {
		n = len(c.Data)
	}
	sums := make([]float64, (n+absSumBlock-1)/absSumBlock)
	par.ForEach(len(sums), runtime.GOMAXPROCS(0), func(k int) {
		lo, hi := k*absSumBlock, min(n, (k+1)*absSumBlock)
		var a [4]float64
		if bands == nil {
			d := c.Data[lo:hi]
			i := 0
			for ; i+4 <= len(d); i += 4 {
				a[0] += math.Abs(float64(d[i]))
				a[1] += math.Abs(float64(d[i+1]))
				a[2] += math.Abs(float64(d[i+2]))
				a[3] += math.Abs(float64(d[i+3]))
			}
			for ; i < len(d); i++ {
				a[i&3] += math.Abs(float64(d[i]))
			}
		} else {
			for j := lo; j < hi; j++ {
				a[(j-lo)&3] += math.Abs(float64(c.Data[j/nb*c.B+bands[j%nb]]))
			}
		}
		sums[k] = (a[0] + a[1]) + (a[2] + a[3])
	})
	var s float64
	for _, v := range sums {
		s += v
	}
	return s
}

// scaleOfSum is the reciprocal of the mean absolute value s/n, or 1 when
// the sum is zero or not finite.
func scaleOfSum(s float64, n int) float32 {
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return 1
	}
	mean := s / float64(n)
	// A cube of denormal magnitude (1e-40) has a reciprocal mean beyond
	// float32 (1e40 became +Inf, and COFR failed on NaN offsets): the scale
	// stops at maxInputScale, so such a cube reaches the network at a
	// magnitude of about mean x 2^126 instead of 1. Every cube whose mean
	// is at least 2^-126 (1.2e-38) keeps its exact scale.
	return float32(min(1/mean, maxInputScale))
}

// maxInputScale is the largest input scale, 2^126: its reciprocal, the
// unit of the outputs, is the smallest normal float32.
const maxInputScale = 1 << 126
