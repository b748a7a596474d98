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

// describeBand is the samples describe reads at a time (4 MiB of float32)
// when a row is narrower.
const describeBand = 1 << 20

// windowed is what the Source of an HDF5 or NetCDF-4 dataset tells and
// reads besides rows (see formats.Source): the runs of rows and columns
// never written, and windows of a row too wide to read whole.
type windowed interface {
	RowRun(y int) (end int, written bool, fill float32)
	ChunkSize() (rows, cols int)
	ColRun(y0, y1, x int) (end int, written bool, fill float32)
	ReadWindow(y0, y1, x0, x1 int, dst []float32) error
}

// describe reads the rows of src a band at a time (about 4 MiB of float32,
// at least one row) into the statistics info prints and the residuals of
// the noise screen, so that the memory held is what src holds (a band of
// rows for a streamed Source) and the screen's grid (at most 32 MiB). A
// NaN or infinite sample is counted, not an error. The rows a Source says
// were never written (formats.Source's RowRun: an HDF5 dataset declared
// large and written in part or not at all) are counted as the samples
// ReadRows would give (the dataset's fill value), without being read; a row of a chunked dataset
// wider than the band is read a chunk row at a time in windows of whole
// chunks (about the band, at least a chunk's columns), its columns never
// written counted likewise. Another row wider than the band is read
// whole, its buffer checked against the memory limit.
func describe(src formats.Source, path string) (described, error) {
	return describeIn(src, path, describeBand)
}

// describeIn is describe reading band samples at a time.
func describeIn(src formats.Source, path string, band int) (described, error) {
	hd := src.Header()
	H, W, B := hd.H, hd.W, hd.B
	d := &describer{described: described{st: *hsi.NewStats(hd.Meta)}, path: path, W: W, B: B, band: band,
		nd: hd.Meta.NoData(), valid: make([]bool, B)}
	d.ns, d.why = noise.NewSampler(H, W, B, hd.Meta)
	win, _ := src.(windowed)
	step := max(1, band/max(1, W*B))
	ch, cw := 0, 0 // a chunk's rows and columns, where rows are read in windows
	if win != nil && step == 1 {
		ch, cw = win.ChunkSize()
	}
	for y := 0; y < H; {
		end, written, fill := H, true, float32(0)
		if win != nil {
			if e, w, v := win.RowRun(y); e > y {
				end, written, fill = min(e, H), w, v
			}
		}
		var err error
		switch {
		case !written:
			d.unwritten(int64(end-y)*int64(W)*int64(B), fill, y, 0)
		case ch > 0 && cw > 0:
			err = d.pieces(win, y, end, ch, cw)
		default:
			for ; y < end && err == nil; y += step {
				y1 := min(end, y+step)
				var rows []float32
				if rows, err = d.buffer(y1-y, W); err == nil {
					var nf *hsi.NonFiniteError
					if err = src.ReadRows(y, y1, rows); errors.As(err, &nf) {
						err = nil
					}
				}
				if err == nil {
					d.add(rows, y, 0, W)
				}
			}
		}
		if err != nil {
			return described{}, err
		}
		y = end
	}
	d.unusable = true
	for b, ok := range d.valid {
		if ok && !(b < len(hd.Meta.BadBands) && hd.Meta.BadBands[b]) {
			d.unusable = false
		}
	}
	return d.described, nil
}

// describer is describe's state.
type describer struct {
	described
	path  string
	W, B  int
	band  int // samples read at a time
	nd    hsi.NoData
	valid []bool // a band has a sample other than no-data
	buf   []float32
}

// buffer returns the buffer for h rows of w pixels, grown when short: past
// the band, its size comes from the file and is checked against the memory
// limit.
func (d *describer) buffer(h, w int) ([]float32, error) {
	n := h * w * d.B
	if cap(d.buf) < n {
		if n > d.band {
			if err := memlimit.Check(4*uint64(n), fmt.Sprintf("%s: %d row(s) of %d x %d samples", d.path, h, w, d.B)); err != nil {
				return nil, err
			}
		}
		d.buf = make([]float32, n)
	}
	return d.buf[:n], nil
}

// pieces reads rows [y0, y1) of a chunked dataset wider than the band a
// chunk row (ch rows) at a time, in windows of whole chunks (cw columns),
// so that each chunk is decoded once; the columns never written are
// counted without reading.
func (d *describer) pieces(win windowed, y0, y1, ch, cw int) error {
	W, B := d.W, d.B
	for cy := y0; cy < y1; {
		cy1 := min(y1, (cy/ch+1)*ch)
		rows := cy1 - cy
		pw := max(cw, d.band/(rows*B)/cw*cw)
		for x := 0; x < W; {
			xe, written, fill := win.ColRun(cy, cy1, x)
			if xe <= x {
				xe, written = W, true
			}
			if !written {
				d.unwritten(int64(rows)*int64(xe-x)*int64(B), fill, cy, x)
				x = xe
				continue
			}
			for ; x < xe; x += pw {
				x1 := min(xe, x+pw)
				buf, err := d.buffer(rows, x1-x)
				if err != nil {
					return err
				}
				if err := win.ReadWindow(cy, cy1, x, x1, buf); err != nil {
					return err
				}
				d.add(buf, cy, x, x1-x)
			}
			x = xe
		}
		cy = cy1
	}
	return nil
}

// add counts the samples of a window of rows from row y0, columns x0 ..
// x0+w, in the statistics and the screen.
func (d *describer) add(rows []float32, y0, x0, w int) {
	B, nd, valid := d.B, d.nd, d.valid
	st := &d.st
	for i, v := range rows {
		p := i / B
		y, x, b := y0+p/w, x0+p%w, i%B
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

// unwritten counts n samples the file never wrote, each v (the
// dataset's fill value, as ReadRows gives it), the first at row y, column
// x, band 0, as add would count them. The screen takes a sample never
// added as a valid 0 already; it cannot be told of another value, nor
// that the value is no-data there: it is then given up.
func (d *describer) unwritten(n int64, v float32, y, x int) {
	if n <= 0 {
		return
	}
	if f := float64(v); !math.IsNaN(f) && !math.IsInf(f, 0) {
		d.st.AddRepeat(v, n)
	} else { // the first counted and located as add would, then the rest
		before := d.st
		d.st.Add(v, y, x, 0)
		switch {
		case d.st.NaN != before.NaN:
			d.st.NaN += n - 1
		case d.st.Inf != before.Inf:
			d.st.Inf += n - 1
		default:
			d.st.Ignored += n - 1
		}
	}
	if !d.nd.Is(v) {
		for b := range d.valid {
			d.valid[b] = true
		}
	}
	switch {
	case d.ns == nil:
	case d.nd.Is(v):
		d.ns, d.why = nil, fmt.Errorf("part of the dataset was never written, and %v is its no-data value", v)
	case v != 0:
		d.ns, d.why = nil, fmt.Errorf("part of the dataset was never written, and its fill value %v is not 0", v)
	}
}
