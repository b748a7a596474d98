package noise

import (
	"math"
	"slices"

	"github.com/omnihsr/omnihsr/hsi"
)

// Outlier rule constants (see Outliers): chosen on the training scenes of
// ../shared/data/hsi/train with garbage bands injected and with the
// synthetic sensor noises added (go run ./scripts/badbands; the figures are
// in docs/FORMATS.md, "Bad bands nobody flagged").
const (
	// OutlierFactor is how many times the reference noise of its spectral
	// neighbours a band's noise must exceed.
	OutlierFactor float64 = 6
	// OutlierNSR is the least noise-to-signal ratio (noise over the band's
	// mean absolute value) of an outlier: a band whose noise is far above
	// its neighbours' but small against its own signal is not garbage.
	OutlierNSR float64 = 0.1
)

// Outlier says why a band was judged unusable.
type Outlier struct {
	Band  int     // 0-based band of the cube
	Sigma float64 // its estimated noise (units of the cube)
	Ref   float64 // the reference noise of its spectral neighbours
	NSR   float64 // Sigma over the band's mean absolute value
}

// Outliers returns the bands of c whose estimated noise (sigmas, one per
// band, as from Bands) is far above their spectral neighbours': bands that
// nobody flagged bad but that carry mostly noise (atmospheric absorption,
// detector edges, subsets exported by other tools without a bad-band
// list).
//
// A band's reference is the median noise of the W = max(4, B/8) bands on
// each side of it, taken on the quieter side (a band at the edge of a
// block of garbage bands has one clean side), and no less than a quarter
// of the median over all bands (so that bands quantised to no measurable
// noise do not make their neighbours outliers). Bands are judged in
// passes; the outliers of a pass are left out of the references of the
// next, so that a block longer than W is peeled from its edges inwards. A band is an
// outlier when its noise exceeds OutlierFactor times its reference and
// OutlierNSR times its mean absolute value (samples at the cube's no-data
// value and non-finite ones left out). Cubes of fewer than 8 bands have
// none: a sparse multispectral sensor's bands are not alike enough.
func Outliers(c *hsi.Cube, sigmas []float64) []Outlier {
	return OutliersWith(c, sigmas, OutlierFactor, OutlierNSR)
}

// OutliersWith is Outliers with another factor and noise-to-signal ratio
// (for choosing them: scripts/badbands).
func OutliersWith(c *hsi.Cube, sigmas []float64, factor, minNSR float64) []Outlier {
	if len(sigmas) != c.B {
		return nil
	}
	return outliers(sigmas, func() []float64 { return meanAbs(c) }, factor, minNSR)
}

// outliers is OutliersWith with the bands' mean absolute values from
// signal, called only when a band's noise is far above its neighbours'.
func outliers(sigmas []float64, signal func() []float64, factor, minNSR float64) []Outlier {
	B := len(sigmas)
	if B < 8 {
		return nil
	}
	var finite []float64
	for _, s := range sigmas {
		if s >= 0 && !math.IsInf(s, 0) {
			finite = append(finite, s)
		}
	}
	if len(finite) < 8 {
		return nil
	}
	floor := 0.25 * medianF64(finite)
	w := max(4, B/8)
	flagged := make([]bool, B)
	// side is the median noise of the bands of [lo, hi) not judged yet.
	side := func(lo, hi int) (float64, bool) {
		var v []float64
		for k := max(lo, 0); k < min(hi, B); k++ {
			if s := sigmas[k]; s >= 0 && !math.IsInf(s, 0) && !flagged[k] {
				v = append(v, s)
			}
		}
		if len(v) < 2 {
			return 0, false
		}
		return medianF64(v), true
	}
	var sig []float64
	var out []Outlier
	// Bands are judged in passes, each leaving the outliers found so far
	// out of the references, so that a block of garbage bands longer than
	// the window is peeled from its edges inwards.
	for {
		var found []Outlier
		for b, s := range sigmas {
			if flagged[b] || !(s > 0) || math.IsInf(s, 0) {
				continue
			}
			ref := math.Inf(1)
			if l, ok := side(b-w, b); ok {
				ref = l
			}
			if r, ok := side(b+1, b+1+w); ok {
				ref = min(ref, r)
			}
			if math.IsInf(ref, 1) {
				continue
			}
			ref = max(ref, floor)
			if s <= factor*ref {
				continue
			}
			if sig == nil {
				sig = signal()
			}
			nsr := math.Inf(1)
			if sig[b] > 0 {
				nsr = s / sig[b]
			}
			if nsr >= minNSR {
				found = append(found, Outlier{Band: b, Sigma: s, Ref: ref, NSR: nsr})
			}
		}
		if len(found) == 0 {
			break
		}
		for _, o := range found {
			flagged[o.Band] = true
		}
		out = append(out, found...)
	}
	slices.SortFunc(out, func(a, b Outlier) int { return a.Band - b.Band })
	return out
}

// meanAbs returns each band's mean absolute value over its valid samples.
func meanAbs(c *hsi.Cube) []float64 {
	nd := c.Meta.NoData()
	sum := make([]float64, c.B)
	n := make([]int, c.B)
	for i, v := range c.Data {
		if nd.Is(v) || math.IsInf(float64(v), 0) {
			continue
		}
		b := i % c.B
		sum[b] += math.Abs(float64(v))
		n[b]++
	}
	for b := range sum {
		if n[b] > 0 {
			sum[b] /= float64(n[b])
		}
	}
	return sum
}

func medianF64(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	k := len(s) / 2
	if len(s)%2 == 1 {
		return s[k]
	}
	return (s[k-1] + s[k]) / 2
}

// Screen returns the bands of c that the model's noise screen judges
// unusable: Outliers of the Bands estimates of c's usable bands (not
// flagged bad, not no-data throughout: hsi.NoDataMask.Usable), numbered as
// in c; none when every usable band would be (the model then screens
// none). c is not modified.
func Screen(c *hsi.Cube) ([]Outlier, error) {
	_, _, out, err := screen(c)
	return out, err
}

// screen is Screen, with the usable bands of c and their noise estimates.
func screen(c *hsi.Cube) (usable []int, sigmas []float64, out []Outlier, err error) {
	_, nd, err := hsi.FillNoData(c)
	if err != nil {
		return nil, nil, nil, err
	}
	usable = nd.Usable(c.B)
	x := c
	if len(usable) < c.B {
		if x, err = c.SelectBands(usable); err != nil {
			return nil, nil, nil, err
		}
	}
	if sigmas, err = Bands(x, true); err != nil {
		return nil, nil, nil, err
	}
	out = Outliers(x, sigmas)
	if len(out) >= x.B {
		return usable, sigmas, nil, nil
	}
	for i := range out {
		out[i].Band = usable[out[i].Band]
	}
	return usable, sigmas, out, nil
}
