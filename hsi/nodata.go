package hsi

import (
	"errors"
	"fmt"
	"math"
)

// ErrAllNoData is returned for an input whose every pixel is no-data.
var ErrAllNoData = errors.New("every pixel is no-data (the data ignore value)")

// NoDataMask is the no-data mask of an image: a pixel is no-data when all
// its bands hold Meta.DataIgnore (ENVI "data ignore value", GeoTIFF
// GDAL_NODATA). Upscalers fill those pixels from the nearest valid pixels
// (FillNoData), so the no-data value never enters an interpolation, and
// write the no-data value back into every output pixel whose centre falls
// in a no-data input pixel (Apply).
type NoDataMask struct {
	h, w  int
	valid []bool
	value float32
}

// FillNoData returns lr with its no-data pixels filled (each takes the
// mean of its already-filled 4-neighbours, growing outwards from the
// valid pixels) and the mask, or lr itself and nil when it has no no-data
// pixel. lr is not modified. A NaN no-data value (common in float GeoTIFFs)
// marks the pixels whose bands are all NaN.
func FillNoData(lr *Cube) (*Cube, *NoDataMask, error) {
	if !lr.Meta.HasDataIgnore {
		return lr, nil, nil
	}
	ign := float32(lr.Meta.DataIgnore)
	isNaN := math.IsNaN(lr.Meta.DataIgnore)
	if !isNaN && float64(ign) != lr.Meta.DataIgnore {
		// Not representable in float32: no value can equal it.
		return lr, nil, nil
	}
	h, w, b := lr.H, lr.W, lr.B
	valid := make([]bool, h*w)
	nValid := 0
	for p := range valid {
		for _, v := range lr.Data[p*b : (p+1)*b] {
			if (isNaN && v == v) || (!isNaN && v != ign) {
				valid[p] = true
				nValid++
				break
			}
		}
	}
	if nValid == len(valid) {
		return lr, nil, nil
	}
	if nValid == 0 {
		return nil, nil, fmt.Errorf("hsi: %dx%d image: %w", h, w, ErrAllNoData)
	}
	out := lr.Clone()
	done := append([]bool(nil), valid...)
	queued := append([]bool(nil), valid...)
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
	for p, ok := range valid {
		if ok {
			validPix = append(validPix, p)
		}
	}
	acc := make([]float64, b)
	// Breadth-first layers outwards from the valid pixels: every pixel of a
	// layer takes the mean of its neighbours in earlier layers.
	for front := next(validPix); len(front) > 0; front = next(front) {
		for _, p := range front {
			clear(acc)
			n := 0
			for _, q := range neighbours(p) {
				if !done[q] {
					continue
				}
				for k, v := range out.Data[q*b : (q+1)*b] {
					acc[k] += float64(v)
				}
				n++
			}
			dst := out.Data[p*b : (p+1)*b]
			for k := range dst {
				dst[k] = float32(acc[k] / float64(n))
			}
		}
		for _, p := range front {
			done[p] = true
		}
	}
	return out, &NoDataMask{h: h, w: w, valid: valid, value: ign}, nil
}

// KeepNoData runs a whole-image resampling f (an interpolation, a
// downsampling) on c without letting no-data values into it: f sees c with
// its no-data pixels filled (FillNoData), and the pixels of f's output that
// fall in no-data pixels of c get the no-data value back (Apply).
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

// Apply writes the no-data value into every band of the output pixels of
// rows [u0, u1) of an outH x outW grid (dst holds those rows, pixel-
// interleaved) whose centre lies in a no-data input pixel (half-pixel
// centres, SPEC section 3). A nil mask does nothing.
func (nd *NoDataMask) Apply(u0, u1, outH, outW, bands int, dst []float32) {
	if nd == nil {
		return
	}
	cols := make([]int, outW)
	for v := range cols {
		cols[v] = min(nd.w-1, int((float64(v)+0.5)*float64(nd.w)/float64(outW)))
	}
	for u := u0; u < u1; u++ {
		i := min(nd.h-1, int((float64(u)+0.5)*float64(nd.h)/float64(outH)))
		row := dst[(u-u0)*outW*bands : (u-u0+1)*outW*bands]
		for v, j := range cols {
			if nd.valid[i*nd.w+j] {
				continue
			}
			px := row[v*bands : (v+1)*bands]
			for k := range px {
				px[k] = nd.value
			}
		}
	}
}
