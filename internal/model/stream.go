package model

import (
	"sync/atomic"

	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// RowSink receives output rows in order (pixel-interleaved, whole rows).
type RowSink interface {
	WriteRows(data []float32) error
}

// bandBytes bounds one band of output rows (float32), or a sixteenth of
// the memory limit (memlimit.Limit, OMNIHSR_MEM_LIMIT) when that is less.
// StreamRows holds two bands, one rendered while the other is written:
// together at most 64 MiB, an eighth of the limit; StreamRowsCut's bands
// may hold twice as many rows (BandEnd), at most 128 MiB together.
const bandBytes = 32 << 20

// StripRows returns the number of output rows of width outW and b bands
// rendered at once when streaming: as many as fit bandBytes (and a
// sixteenth of memlimit.Limit), at least one.
func StripRows(outW, b int) int {
	budget := uint64(bandBytes)
	if lim := memlimit.Limit() / 16; lim < budget {
		budget = lim
	}
	return max(1, int(budget/4/uint64(outW)/uint64(b)))
}

// StreamRows renders an outH x outW x b output into sink a band of rows at
// a time (StripRows), render(u0, u1, dst) filling rows [u0, u1), so that
// an output far larger than memory can stream to disk.
//
// Rendering and writing overlap: while sink.WriteRows writes band k on a
// goroutine of its own, render fills band k+1 in a second buffer, so two
// bands of rows are held. render is called on the calling goroutine, one
// band after another; WriteRows gets the bands in order, one call at a
// time, and no call is under way when StreamRows returns. The first error
// ends the stream: after a failed write no further band is rendered, after
// a failed render no further band is written, and the error is returned as
// it came. progress, if not nil, is called on the calling goroutine with
// the rows written, in order.
func StreamRows(outH, outW, b int, render func(u0, u1 int, dst []float32) error, sink RowSink, progress func(done, total int)) error {
	return StreamRowsCut(outH, outW, b, nil, render, sink, progress)
}

// StreamRowsCut is StreamRows with bands that end where cut says, when
// not nil (BandEnd): a band may then hold up to twice StripRows rows.
func StreamRowsCut(outH, outW, b int, cut func(u int) int, render func(u0, u1 int, dst []float32) error, sink RowSink, progress func(done, total int)) error {
	rowFloats := outW * b
	rows := StripRows(outW, b)
	if outH <= rows {
		// One band: nothing to overlap.
		d := make([]float32, outH*rowFloats)
		if err := render(0, outH, d); err != nil {
			return err
		}
		if err := sink.WriteRows(d); err != nil {
			return err
		}
		if progress != nil {
			progress(outH, outH)
		}
		return nil
	}
	w := startWriter(sink)
	defer w.finish()
	var bufs [2][]float32
	for k, u0 := 0, 0; u0 < outH; k++ {
		// Band k reuses band k-2's buffer: wait for its write, and for
		// every write handed over once one has failed.
		for w.pending >= 2 || w.pending > 0 && w.failed.Load() {
			if err := w.wait(progress, outH); err != nil {
				return err
			}
		}
		u1 := BandEnd(u0, rows, outH, cut)
		n := (u1 - u0) * rowFloats
		if cap(bufs[k%2]) < n {
			bufs[k%2] = make([]float32, max(n, rows*rowFloats))
		}
		d := bufs[k%2][:n]
		if err := render(u0, u1, d); err != nil {
			return err
		}
		w.pending++
		w.jobs <- strip{d: d, u1: u1}
		u0 = u1
	}
	for w.pending > 0 {
		if err := w.wait(progress, outH); err != nil {
			return err
		}
	}
	return nil
}

// BandEnd returns the end of the band of rows that starts at row u0 when
// bands hold rows rows and end where cut says (nil: anywhere): cut(u) is
// the first row of the block of rows (a row of COFR's groups of cells,
// cofr.Renderer.RowCut) that holds row u, a block that renders fastest
// whole. The band ends at the last block boundary within rows rows of u0;
// when there is none (u0 and u0+rows in one block), at the first one, or
// the end of the output, within 2*rows rows; when there is none either,
// after rows rows.
func BandEnd(u0, rows, outH int, cut func(u int) int) int {
	u1 := min(outH, u0+rows)
	if cut == nil || u1 == outH {
		return u1
	}
	if c := cut(u1); c > u0 && c <= u1 {
		return c
	}
	for u := u1 + 1; u <= min(outH, u0+2*rows); u++ {
		if u == outH || cut(u) == u {
			return u
		}
	}
	return u1
}

// strip is one band of rendered rows handed to the writer goroutine, ending
// at output row u1; the writer sends it back with the write's outcome.
type strip struct {
	d     []float32
	u1    int
	err   error
	panic any // a panic of WriteRows, raised again on the rendering goroutine
}

// rowWriter runs a sink's WriteRows on a goroutine of its own.
type rowWriter struct {
	jobs    chan strip
	done    chan strip
	stop    atomic.Bool // set by finish: skip the writes not yet begun
	failed  atomic.Bool // a write has failed (or panicked)
	pending int         // bands handed over and not yet waited for
}

func startWriter(sink RowSink) *rowWriter {
	w := &rowWriter{jobs: make(chan strip, 2), done: make(chan strip, 2)}
	go func() {
		defer close(w.done)
		failed := false
		for s := range w.jobs {
			if !failed && !w.stop.Load() {
				s.err, s.panic = writeRows(sink, s.d)
				if s.err != nil || s.panic != nil {
					failed = true
					w.failed.Store(true)
				}
			}
			w.done <- s
		}
	}()
	return w
}

// writeRows calls sink.WriteRows, returning a panic of it as a value.
func writeRows(sink RowSink, d []float32) (err error, p any) {
	defer func() { p = recover() }()
	return sink.WriteRows(d), nil
}

// wait waits for the oldest band handed over to be written, reporting its
// rows to progress, and returns the write's error.
func (w *rowWriter) wait(progress func(done, total int), total int) error {
	w.pending--
	s := <-w.done
	if s.panic != nil {
		panic(s.panic)
	}
	if s.err != nil {
		return s.err
	}
	if progress != nil {
		progress(s.u1, total)
	}
	return nil
}

// finish stops the writer goroutine, skipping the writes not yet begun,
// and waits for it, so that no WriteRows is under way when it returns.
func (w *rowWriter) finish() {
	w.stop.Store(true)
	close(w.jobs)
	for range w.done {
	}
}
