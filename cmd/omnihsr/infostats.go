package main

import (
	"errors"
	"math"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/noise"
)

// described is what info computes from the samples of a file.
type described struct {
	st hsi.Stats
	// ns holds the noise screen's residuals (noise.Sampler); nil, with
	// why, when they do not fit in memory.
	ns  *noise.Sampler
	why error
	// unusable is true when every band is flagged bad or no-data in every
	// pixel: the screen has no band to judge (hsi.ErrAllNoData).
	unusable bool
}

// describe reads the rows of src a band at a time (about 4 MiB of float32,
// at least one row) into the statistics info prints and the residuals of
// the noise screen, so that the memory held is what src holds (a band of
// rows for a streamed Source) and the screen's grid (at most 32 MiB). A
// NaN or infinite sample is counted, not an error.
func describe(src formats.Source) (described, error) {
	hd := src.Header()
	H, W, B := hd.H, hd.W, hd.B
	d := described{st: *hsi.NewStats(hd.Meta)}
	d.ns, d.why = noise.NewSampler(H, W, B, hd.Meta)
	nd := hd.Meta.NoData()
	valid := make([]bool, B)
	step := max(1, (1<<20)/max(1, W*B))
	buf := make([]float32, min(step, H)*W*B)
	for y0 := 0; y0 < H; y0 += step {
		y1 := min(H, y0+step)
		rows := buf[:(y1-y0)*W*B]
		var nf *hsi.NonFiniteError
		if err := src.ReadRows(y0, y1, rows); err != nil && !errors.As(err, &nf) {
			return described{}, err
		}
		st := &d.st
		for i, v := range rows {
			p := i / B
			y, x, b := y0+p/W, p%W, i%B
			if !math.IsInf(float64(v), 0) && !nd.Is(v) {
				st.Lo, st.Hi = min(st.Lo, v), max(st.Hi, v) // the common case, inline
				valid[b] = true
			} else {
				st.Add(v, y, x, b)
				valid[b] = valid[b] || !nd.Is(v)
			}
			if d.ns != nil {
				d.ns.Add(v, y, x, b)
			}
		}
	}
	d.unusable = true
	for b, ok := range valid {
		if ok && !(b < len(hd.Meta.BadBands) && hd.Meta.BadBands[b]) {
			d.unusable = false
		}
	}
	return d, nil
}
