package model

import (
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/hsi"
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
	for p := 0; p < np; p++ {
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
	var s float64
	for _, v := range c.Data {
		s += math.Abs(float64(v))
	}
	return scaleOfSum(s, len(c.Data))
}

// inputScaleBands is InputScale of the cube of c's bands listed in bands,
// without making that cube: the same sum in the same order, so the same
// bits as InputScale of c.SelectBands(bands).
func inputScaleBands(c *hsi.Cube, bands []int) float32 {
	var s float64
	for p := 0; p < c.H*c.W; p++ {
		px := c.Data[p*c.B : (p+1)*c.B]
		for _, b := range bands {
			s += math.Abs(float64(px[b]))
		}
	}
	return scaleOfSum(s, c.H*c.W*len(bands))
}

// scaleOfSum is the reciprocal of the mean absolute value s/n, or 1 when
// the sum is zero or not finite.
func scaleOfSum(s float64, n int) float32 {
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return 1
	}
	mean := s / float64(n)
	return float32(1 / mean)
}
