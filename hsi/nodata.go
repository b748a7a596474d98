package hsi

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/omnihsr/omnihsr/internal/simd"
)

// ErrAllNoData is returned for an input with nothing usable: every band is
// flagged bad or holds no-data in every pixel.
var ErrAllNoData = errors.New("nothing usable: every band is a bad band or no-data in every pixel")

// NoDataMask records which samples of an image are no-data, band by band.
// A sample is no-data when it holds Meta.DataIgnore (ENVI "data ignore
// value", GeoTIFF GDAL_NODATA) or is NaN. A bad band is a band flagged bad
// (Meta.BadBands, ENVI bbl = 0) or a band that is no-data in every pixel;
// every other band is usable, and its no-data samples are filled from
// valid neighbours of the same band (FillNoData) so that the no-data value
// never enters an interpolation. Apply writes the no-data value back into
// every sample of a bad band and into every sample of a usable band whose
// output pixel centre falls in a no-data input sample of that band.
type NoDataMask struct {
	h, w, b int
	value   float32
	bad     []bool // per band
	nBad    int
	groups  []maskGroup
}

// maskGroup is a set of usable bands whose no-data samples lie in the same
// pixels.
type maskGroup struct {
	bands []int
	valid []bool // h*w
}

// NoData is the no-data test of the samples of a cube (Meta.NoData), the
// one every reader, the model, the statistics, the noise estimate and the
// viewer apply: a sample is no-data when it is NaN or equals the data
// ignore value as a float32 sample holds it (IgnoreValue), compared in
// float32 as GDAL compares no-data in the band's type.
type NoData struct {
	ign float32
	has bool
}

// NoData returns the no-data test of samples described by m.
func (m Meta) NoData() NoData {
	ign, ok := m.IgnoreValue()
	return NoData{ign: ign, has: ok}
}

// Is reports whether sample v is no-data: NaN, or the data ignore value.
func (n NoData) Is(v float32) bool { return v != v || (n.has && v == n.ign) }

// noDataFill returns the value written for no-data: the data ignore value
// when it is set and a float32, NaN otherwise.
func noDataFill(m Meta) float32 {
	if ign, ok := m.IgnoreValue(); ok {
		return ign
	}
	return float32(math.NaN())
}

// IgnoreValue returns the data ignore value as a float32 sample holds it,
// and false when m declares none, declares NaN (a NaN sample is no-data
// whatever m declares), or declares a finite value beyond the float32
// range (no sample can equal it). The comparison is in the samples' type,
// as GDAL compares no-data in the band's type: -9999.9, which no float32
// holds exactly, is the float32 nearest to it (-9999.900390625), the value
// a float32 band written with that no-data value holds; -3.4028235e+38
// (FLT_MAX as printed to 8 digits) is -FLT_MAX.
func (m Meta) IgnoreValue() (float32, bool) {
	if !m.HasDataIgnore || math.IsNaN(m.DataIgnore) {
		return 0, false
	}
	ign := float32(m.DataIgnore)
	if math.IsInf(float64(ign), 0) && !math.IsInf(m.DataIgnore, 0) {
		return 0, false
	}
	return ign, true
}

// NoDataValue returns the no-data value an output made from c carries:
// the data ignore value when c declares one, NaN when c has NaN samples or
// bands flagged bad but declares none, and ok = false when c needs none.
func NoDataValue(c *Cube) (v float64, ok bool) {
	if c.Meta.HasDataIgnore {
		return c.Meta.DataIgnore, true
	}
	if slices.Contains(c.Meta.BadBands, true) || hasNaN(c.Data) {
		return math.NaN(), true
	}
	return 0, false
}

func hasNaN(d []float32) bool {
	if simd.Finite(d) {
		return false
	}
	for _, v := range d {
		if v != v {
			return true
		}
	}
	return false
}

// FillNoData returns lr with the no-data samples of its usable bands
// filled and the no-data samples of its bad bands set to zero, and the
// mask; or lr itself and a nil mask when lr has no no-data sample and no
// band flagged bad. In each usable band, a no-data sample takes the mean of
// its already-filled 4-neighbours in the same band, growing outwards from
// the band's valid samples in breadth-first layers. lr is not modified.
// When lr declares no data ignore value but needs one (NaN samples, bands
// flagged bad), the result declares NaN. It returns ErrAllNoData when no
// band is usable.
func FillNoData(lr *Cube) (*Cube, *NoDataMask, error) {
	h, w, b := lr.H, lr.W, lr.B
	bad := make([]bool, b)
	nBad := 0
	for k, v := range lr.Meta.BadBands {
		if v && k < b {
			bad[k] = true
			nBad++
		}
	}
	nd, value := lr.Meta.NoData(), noDataFill(lr.Meta)
	if nBad == 0 && !(lr.Meta.HasDataIgnore && !math.IsNaN(lr.Meta.DataIgnore)) && simd.FiniteParallel(lr.Data) {
		return lr, nil, nil // fast path: nothing can be no-data
	}
	// Count the no-data samples of each band, and hash their positions so
	// that bands with the same mask share one fill.
	count := make([]int, b)
	hash := make([]uint64, b)
	for p := 0; p < h*w; p++ {
		for k, v := range lr.Data[p*b : (p+1)*b] {
			if nd.Is(v) {
				count[k]++
				hash[k] = (hash[k] ^ uint64(p)) * 1099511628211
			}
		}
	}
	if nBad == 0 && !slices.ContainsFunc(count, func(n int) bool { return n > 0 }) {
		return lr, nil, nil
	}
	m := &NoDataMask{h: h, w: w, b: b, value: value, bad: bad}
	type key struct {
		n int
		h uint64
	}
	byKey := map[key][]int{} // group indices
	scratch := make([]bool, h*w)
	for k := 0; k < b; k++ {
		if bad[k] {
			continue
		}
		if count[k] == h*w {
			bad[k] = true
			nBad++
			continue
		}
		if count[k] == 0 {
			continue
		}
		for p := range scratch {
			scratch[p] = !nd.Is(lr.Data[p*b+k])
		}
		kk := key{count[k], hash[k]}
		found := false
		for _, g := range byKey[kk] {
			if slices.Equal(m.groups[g].valid, scratch) {
				m.groups[g].bands = append(m.groups[g].bands, k)
				found = true
				break
			}
		}
		if !found {
			byKey[kk] = append(byKey[kk], len(m.groups))
			m.groups = append(m.groups, maskGroup{bands: []int{k}, valid: slices.Clone(scratch)})
		}
	}
	m.nBad = nBad
	if nBad == b {
		return nil, nil, fmt.Errorf("hsi: %dx%dx%d image: %w", h, w, b, ErrAllNoData)
	}
	out := lr.Clone()
	if !out.Meta.HasDataIgnore {
		out.Meta.DataIgnore, out.Meta.HasDataIgnore = math.NaN(), true
	}
	for k, isBad := range bad {
		if !isBad {
			continue
		}
		for p := 0; p < h*w; p++ {
			if nd.Is(out.Data[p*b+k]) {
				out.Data[p*b+k] = 0
			}
		}
	}
	for _, g := range m.groups {
		fillGroup(out.Data, h, w, b, g)
	}
	return out, m, nil
}

// fillGroup fills the no-data samples of the bands of g in data (h x w x b,
// pixel-interleaved): breadth-first layers outwards from the valid pixels,
// every pixel of a layer taking the mean of its neighbours in earlier
// layers.
func fillGroup(data []float32, h, w, b int, g maskGroup) {
	done := slices.Clone(g.valid)
	queued := slices.Clone(g.valid)
	var nb [4]int
	// neighbours lists the in-image 4-neighbours of pixel p.
	neighbours := func(p int) []int {
		y, x := p/w, p%w
		n := nb[:0]
		if y > 0 {
			n = append(n, p-w)
		}
		if y < h-1 {
			n = append(n, p+w)
		}
		if x > 0 {
			n = append(n, p-1)
		}
		if x < w-1 {
			n = append(n, p+1)
		}
		return n
	}
	// next returns the pixels next to layer that are neither filled nor queued.
	next := func(layer []int) []int {
		var out []int
		for _, p := range layer {
			for _, q := range neighbours(p) {
				if !queued[q] {
					queued[q] = true
					out = append(out, q)
				}
			}
		}
		return out
	}
	var validPix []int
	for p, ok := range g.valid {
		if ok {
			validPix = append(validPix, p)
		}
	}
	acc := make([]float64, len(g.bands))
	for front := next(validPix); len(front) > 0; front = next(front) {
		for _, p := range front {
			clear(acc)
			n := 0
			for _, q := range neighbours(p) {
				if !done[q] {
					continue
				}
				for i, k := range g.bands {
					acc[i] += float64(data[q*b+k])
				}
				n++
			}
			for i, k := range g.bands {
				data[p*b+k] = float32(acc[i] / float64(n))
			}
		}
		for _, p := range front {
			done[p] = true
		}
	}
}

// Usable returns the indices of the bands that are not bad, in order (all
// bands for a nil mask of a b-band image).
func (nd *NoDataMask) Usable(b int) []int {
	var out []int
	for k := 0; k < b; k++ {
		if nd == nil || !nd.bad[k] {
			out = append(out, k)
		}
	}
	return out
}

// BadBands returns the number of bad bands (0 for a nil mask).
func (nd *NoDataMask) BadBands() int {
	if nd == nil {
		return 0
	}
	return nd.nBad
}

// Select returns the mask of the bands listed of the image (band k of the
// result is band bands[k]); nil for a nil mask. It panics on a band
// outside the image, as indexing does.
func (nd *NoDataMask) Select(bands []int) *NoDataMask {
	if nd == nil {
		return nil
	}
	out := &NoDataMask{h: nd.h, w: nd.w, b: len(bands), value: nd.value, bad: make([]bool, len(bands))}
	for k, b := range bands {
		if nd.bad[b] {
			out.bad[k] = true
			out.nBad++
		}
	}
	for _, g := range nd.groups {
		var sel []int
		for k, b := range bands {
			if slices.Contains(g.bands, b) {
				sel = append(sel, k)
			}
		}
		if len(sel) > 0 {
			out.groups = append(out.groups, maskGroup{bands: sel, valid: g.valid})
		}
	}
	return out
}

// Crop returns the mask of the window of h x w pixels whose top-left
// pixel is (y0, x0) (the window of Cube.Crop); nil for a nil mask. It
// panics on a window outside the image, as indexing does.
func (nd *NoDataMask) Crop(y0, x0, h, w int) *NoDataMask {
	if nd == nil {
		return nil
	}
	if y0 < 0 || x0 < 0 || h < 1 || w < 1 || y0+h > nd.h || x0+w > nd.w {
		panic(fmt.Sprintf("hsi: crop %dx%d at (%d, %d) of a %dx%d no-data mask", h, w, y0, x0, nd.h, nd.w))
	}
	out := &NoDataMask{h: h, w: w, b: nd.b, value: nd.value, bad: nd.bad, nBad: nd.nBad}
	for _, g := range nd.groups {
		valid := make([]bool, h*w)
		for y := range h {
			copy(valid[y*w:(y+1)*w], g.valid[(y0+y)*nd.w+x0:])
		}
		out.groups = append(out.groups, maskGroup{bands: g.bands, valid: valid})
	}
	return out
}

// KeepNoData runs a whole-image resampling f (an interpolation, a
// downsampling) on c without letting no-data values into it: f sees c with
// its no-data samples filled (FillNoData), and the samples of f's output
// that fall in no-data samples of c, and every sample of a bad band, get
// the no-data value back (Apply).
func KeepNoData(c *Cube, f func(*Cube) (*Cube, error)) (*Cube, error) {
	filled, nd, err := FillNoData(c)
	if err != nil {
		return nil, err
	}
	out, err := f(filled)
	if err != nil {
		return nil, err
	}
	nd.Apply(0, out.H, out.H, out.W, out.B, out.Data)
	return out, nil
}

// Apply writes the no-data value into the output samples of rows [u0, u1)
// of an outH x outW grid (dst holds those rows, pixel-interleaved, with
// the input's bands): every sample of a bad band, and every sample of a
// usable band whose pixel centre lies in a no-data sample of that band
// (half-pixel centres, docs/CONVENTIONS.md section 4). A nil mask does nothing.
func (nd *NoDataMask) Apply(u0, u1, outH, outW, bands int, dst []float32) {
	nd.ApplyWindow(u0, u1, 0, outW, outH, outW, bands, dst)
}

// ApplyWindow is Apply on the window of rows [u0, u1) and columns
// [v0, v1) of the outH x outW grid: dst holds that window,
// pixel-interleaved.
func (nd *NoDataMask) ApplyWindow(u0, u1, v0, v1, outH, outW, bands int, dst []float32) {
	if nd == nil {
		return
	}
	if bands != nd.b {
		panic(fmt.Sprintf("hsi: no-data mask of %d bands applied to %d bands", nd.b, bands))
	}
	cols := make([]int, v1-v0)
	for v := range cols {
		cols[v] = min(nd.w-1, int((float64(v0+v)+0.5)*float64(nd.w)/float64(outW)))
	}
	width := v1 - v0
	var badIdx []int
	for k, isBad := range nd.bad {
		if isBad {
			badIdx = append(badIdx, k)
		}
	}
	for u := u0; u < u1; u++ {
		i := min(nd.h-1, int((float64(u)+0.5)*float64(nd.h)/float64(outH)))
		row := dst[(u-u0)*width*bands : (u-u0+1)*width*bands]
		for _, k := range badIdx {
			for v := 0; v < width; v++ {
				row[v*bands+k] = nd.value
			}
		}
		for _, g := range nd.groups {
			valid := g.valid[i*nd.w : (i+1)*nd.w]
			for v, j := range cols {
				if valid[j] {
					continue
				}
				px := row[v*bands : (v+1)*bands]
				for _, k := range g.bands {
					px[k] = nd.value
				}
			}
		}
	}
}
