package noise

import (
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// Sampler screens a cube whose samples arrive one at a time, in any order
// (a file streamed chunk by chunk), for the bands that Outliers judges
// unusable, without holding the cube: it keeps the spatial residuals of
// the sampling grid Bands uses (at most 32,768 pixels) for every band,
// and each band's sums for its mean absolute value and no-data count.
// Fed every sample of a cube, Outliers gives what Outliers of Bands of
// the cube's usable bands gives (up to the rounding of the sums, which
// are taken in another order). A sample never added counts as a valid 0,
// the value it has in a new cube.
//
// The residuals held are at most samplerBudget in all (32 MiB): a cube of
// more than 128 bands is sampled on a coarser grid than Bands uses (every
// st-th row and column, st larger), so that its figures may differ from
// the in-memory screen's by the sampling (a median of fewer residuals).
type Sampler struct {
	h, w, b, st, ny, nx int
	fill                float32 // as Bands compares it (Meta.DataIgnore)
	hasFill             bool
	nodata              hsi.NoData // as meanAbs and the no-data mask test it
	r                   []float64  // spatial residual of grid pixel g, band k at g*b+k
	sum                 []float64  // each band's sum of |v| over its valid samples
	nd                  []int64    // each band's no-data samples (the ignore value, NaN)
	inf                 []int64    // each band's infinite samples

	// The grid positions near the last row and column Add was given:
	// samples arrive in runs along one axis, so most lookups repeat.
	lastRow, lastCol int
	rowHits, colHits hits
}

// hits lists the grid positions (their index on the axis) whose 3 x 3
// neighbourhood holds a position on that axis, with the mask's weight there.
type hits struct {
	n int
	k [3]int
	w [3]float64
}

// hitsOf returns the grid positions 1, 1+st, ... (at most n-2) within one
// of position i.
func (s *Sampler) hitsOf(i, n int) hits {
	var h hits
	for d := -1; d <= 1; d++ {
		g := i + d // the grid position whose neighbourhood holds i
		if g < 1 || g > n-2 || (g-1)%s.st != 0 {
			continue
		}
		h.k[h.n], h.w[h.n] = (g-1)/s.st, maskWeight(d)
		h.n++
	}
	return h
}

// samplerBudget bounds the residuals a Sampler holds (8 bytes each).
const samplerBudget = 1 << 22

// NewSampler returns a Sampler for an h x w x b cube with m's no-data
// value. Its memory (8 bytes a band per grid pixel) is checked first: an
// error wrapping memlimit.ErrTooLarge says that it does not fit.
func NewSampler(h, w, b int, m hsi.Meta) (*Sampler, error) {
	if h < 1 || w < 1 || b < 1 {
		return nil, fmt.Errorf("noise: sampler for a %dx%dx%d cube", h, w, b)
	}
	s := &Sampler{h: h, w: w, b: b, fill: float32(m.DataIgnore), hasFill: m.HasDataIgnore}
	s.nodata = m.NoData()
	if h >= 3 && w >= 3 {
		s.st = stride(h, w)
		grid := func() { s.ny, s.nx = (h-2+s.st-1)/s.st, (w-2+s.st-1)/s.st }
		grid()
		for uint64(s.ny)*uint64(s.nx)*uint64(b) > samplerBudget && s.ny*s.nx > 1 {
			s.st += max(1, s.st/16)
			grid()
		}
	}
	g := uint64(s.ny) * uint64(s.nx)
	if err := memlimit.Check((g+4)*8*uint64(b), fmt.Sprintf("the noise residuals of %d bands", b)); err != nil {
		return nil, fmt.Errorf("noise: %w", err)
	}
	s.r = make([]float64, int(g)*b)
	s.sum = make([]float64, b)
	s.nd = make([]int64, b)
	s.inf = make([]int64, b)
	s.lastRow, s.lastCol = -1, -1
	return s, nil
}

// maskWeight is the weight of the 3 x 3 high-pass mask (see Bands) at a
// row or column offset d in {-1, 0, 1}.
func maskWeight(d int) float64 {
	if d == 0 {
		return -2
	}
	return 1
}

// Add takes the sample v at (row, col, band); samples outside the cube are
// ignored. A sample at the no-data value or NaN makes the residuals it
// touches NaN, so that they are left out as Bands leaves them out.
func (s *Sampler) Add(v float32, row, col, band int) {
	if row < 0 || row >= s.h || col < 0 || col >= s.w || band < 0 || band >= s.b {
		return
	}
	switch {
	case s.nodata.Is(v):
		s.nd[band]++
	case math.IsInf(float64(v), 0):
		s.inf[band]++
	default:
		s.sum[band] += math.Abs(float64(v))
	}
	if s.st == 0 {
		return
	}
	if row != s.lastRow {
		s.lastRow, s.rowHits = row, s.hitsOf(row, s.h)
	}
	if s.rowHits.n == 0 {
		return
	}
	if col != s.lastCol {
		s.lastCol, s.colHits = col, s.hitsOf(col, s.w)
	}
	x := float64(v)
	if s.hasFill && v == s.fill {
		x = math.NaN()
	}
	for a := 0; a < s.rowHits.n; a++ {
		ky, wy := s.rowHits.k[a], s.rowHits.w[a]
		for c := 0; c < s.colHits.n; c++ {
			i := (ky*s.nx+s.colHits.k[c])*s.b + band
			s.r[i] += wy * s.colHits.w[c] * x
		}
	}
}

// Outliers returns the bands that Outliers judges unusable among the
// usable bands of the cube fed so far (not flagged in bad, not no-data
// throughout), numbered as in the cube; none when every usable band would
// be (the model screens none then).
func (s *Sampler) Outliers(bad []bool) []Outlier {
	var usable []int
	for k := 0; k < s.b; k++ {
		if (k < len(bad) && bad[k]) || s.nd[k] == int64(s.h)*int64(s.w) {
			continue
		}
		usable = append(usable, k)
	}
	sig := s.bands(usable)
	out := outliers(sig, func() []float64 {
		m := make([]float64, len(usable))
		for i, k := range usable {
			if n := int64(s.h)*int64(s.w) - s.nd[k] - s.inf[k]; n > 0 {
				m[i] = s.sum[k] / float64(n)
			}
		}
		return m
	}, OutlierFactor, OutlierNSR)
	if len(out) >= len(usable) {
		return nil
	}
	for i := range out {
		out[i].Band = usable[out[i].Band]
	}
	return out
}

// bands is Bands (spectral) of the cube of the listed bands, band by band
// (two lists of the grid's residuals at a time).
func (s *Sampler) bands(use []int) []float64 {
	B := len(use)
	out := make([]float64, B)
	if s.st == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	g := s.ny * s.nx
	spectral := B >= 3
	sp := make([]float32, g)
	var sr []float32
	if spectral {
		sr = make([]float32, g)
	}
	finite := func(v float64) bool { return v-v == 0 }
	for i, k := range use {
		np, nr := 0, 0
		for p := 0; p < g; p++ {
			row := s.r[p*s.b : (p+1)*s.b]
			if v := row[k]; finite(v) {
				sp[np] = float32(math.Abs(v))
				np++
			}
			if !spectral {
				continue
			}
			// As residuals takes the spectral difference of the spatial
			// residuals.
			var d float64
			switch i {
			case 0:
				d = row[use[0]] - 2*row[use[1]] + row[use[2]]
			case B - 1:
				d = row[use[B-1]] - 2*row[use[B-2]] + row[use[B-3]]
			default:
				d = row[k] - 0.5*(row[use[i-1]]+row[use[i+1]])
			}
			if finite(d) {
				sr[nr] = float32(math.Abs(d))
				nr++
			}
		}
		if spectral {
			out[i] = bandSigma(sp[:np], sr[:nr], i, B)
		} else {
			out[i] = bandSigma(sp[:np], nil, i, B)
		}
	}
	return out
}
