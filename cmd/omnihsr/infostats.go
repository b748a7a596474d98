package main

import (
	"errors"
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/memlimit"
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
// at least one row: a wider row is read whole, its buffer checked against
// the memory limit) into the statistics info prints and the residuals of
// the noise screen, so that the memory held is what src holds (a band of
// rows for a streamed Source) and the screen's grid (at most 32 MiB). A
// NaN or infinite sample is counted, not an error. The rows a Source says
// were never written (formats.Source's RowRun: an HDF5 dataset declared
// large and written in part or not at all) are counted as the 0 samples
// ReadRows would give, without being read.
func describe(src formats.Source, path string) (described, error) {
	hd := src.Header()
	H, W, B := hd.H, hd.W, hd.B
	d := described{st: *hsi.NewStats(hd.Meta)}
	d.ns, d.why = noise.NewSampler(H, W, B, hd.Meta)
	nd := hd.Meta.NoData()
	valid := make([]bool, B)
	run, _ := src.(interface{ RowRun(int) (int, bool) })
	step := max(1, (1<<20)/max(1, W*B))
	var buf []float32
	for y := 0; y < H; {
		end, written := H, true
		if run != nil {
			if e, w := run.RowRun(y); e > y {
				end, written = min(e, H), w
			}
		}
		if !written {
			d.unwritten(int64(end-y)*int64(W)*int64(B), nd, valid)
			y = end
			continue
		}
		if buf == nil {
			n := min(step, H) * W * B
			if step == 1 { // a row wider than the band of rows: sized from the file
				if err := memlimit.Check(4*uint64(n), fmt.Sprintf("%s: a row of %d x %d samples", path, W, B)); err != nil {
					return described{}, err
				}
			}
			buf = make([]float32, n)
		}
		for ; y < end; y += step {
			if err := d.add(src, y, min(end, y+step), buf, nd, valid); err != nil {
				return described{}, err
			}
		}
		y = end
	}
	d.unusable = true
	for b, ok := range valid {
		if ok && !(b < len(hd.Meta.BadBands) && hd.Meta.BadBands[b]) {
			d.unusable = false
		}
	}
	return d, nil
}

// add reads rows [y0, y1) of src into the statistics and the screen
// (valid[b] set for a band with a sample other than no-data).
func (d *described) add(src formats.Source, y0, y1 int, buf []float32, nd hsi.NoData, valid []bool) error {
	hd := src.Header()
	W, B := hd.W, hd.B
	rows := buf[:(y1-y0)*W*B]
	var nf *hsi.NonFiniteError
	if err := src.ReadRows(y0, y1, rows); err != nil && !errors.As(err, &nf) {
		return err
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
	return nil
}

// unwritten counts n samples the file never wrote, 0 each. The screen
// takes a sample never added as a valid 0 already, but cannot be told
// that 0 is no-data there: it is then given up.
func (d *described) unwritten(n int64, nd hsi.NoData, valid []bool) {
	d.st.AddRepeat(0, n)
	if !nd.Is(0) {
		for b := range valid {
			valid[b] = true
		}
	} else if d.ns != nil {
		d.ns, d.why = nil, errors.New("part of the dataset was never written, and 0 is its no-data value")
	}
}
