package rowstream

import (
	"errors"
	"fmt"
)

// Sink is what a format's streaming writer does with the rows Writer
// accepts.
type Sink interface {
	// WriteRows encodes n whole rows (data holds n*w*b values in the
	// cube's pixel-interleaved order), rows y0 to y0+n-1 of the image.
	// Writer calls it with n >= 1 and rows in order; an error is wrapped
	// as "FORMAT: write PATH: %w".
	WriteRows(data []float32, y0, n int) error
	// Commit publishes the files once every row was written. Its error is
	// returned as it is, so it names the format and file itself.
	Commit() error
	// Abort removes the temporary files and releases the buffers. Writer
	// calls it once, on the first error or on Abort.
	Abort()
}

// ErrAborted is the sticky error of an aborted writer.
var ErrAborted = errors.New("the writer was aborted")

// Writer holds the state of a streaming writer of an image of h rows, w
// columns and b bands. The zero value is not usable; call New.
type Writer struct {
	format, path string
	h, w, b      int
	sink         Sink
	next         int   // rows written so far
	err          error // sticky error
	committed    bool
}

// New returns a Writer of an image of h rows, w columns and b bands (w*b
// >= 1) written to path by sink; format ("envi", "npy", "tiff") begins its
// errors.
func New(format, path string, h, w, b int, sink Sink) *Writer {
	return &Writer{format: format, path: path, h: h, w: w, b: b, sink: sink}
}

// Rows returns the number of rows written so far.
func (s *Writer) Rows() int { return s.next }

// fail makes err the sticky error and has the sink remove its files.
func (s *Writer) fail(err error) error {
	s.err = err
	s.sink.Abort()
	return err
}

func (s *Writer) failf(format string, args ...any) error {
	return s.fail(fmt.Errorf("%s: write %s: "+format, append([]any{s.format, s.path}, args...)...))
}

// WriteRows appends whole rows: data holds k*w*b values, k >= 0. Values
// that are not whole rows, rows past the end and an error of the sink are
// final; rows after Commit are refused without undoing it.
func (s *Writer) WriteRows(data []float32) error {
	if s.err != nil {
		return s.err
	}
	if s.committed {
		return fmt.Errorf("%s: write %s: rows written after Commit", s.format, s.path)
	}
	row := s.w * s.b
	if len(data)%row != 0 {
		return s.failf("%d values are not whole rows of %d pixels x %d bands", len(data), s.w, s.b)
	}
	n := len(data) / row
	if n > s.h-s.next {
		return s.failf("%d more rows after %d of %d", n, s.next, s.h)
	}
	if n == 0 {
		return nil
	}
	if err := s.sink.WriteRows(data, s.next, n); err != nil {
		return s.failf("%w", err)
	}
	s.next += n
	return nil
}

// Commit checks that all rows were written and has the sink publish its
// files. With rows missing it fails and removes everything. Commit after a
// successful Commit does nothing.
func (s *Writer) Commit() error {
	if s.err != nil {
		return s.err
	}
	if s.committed {
		return nil
	}
	if s.next != s.h {
		return s.failf("only %d of %d rows were written", s.next, s.h)
	}
	if err := s.sink.Commit(); err != nil {
		return s.fail(err)
	}
	s.committed = true
	return nil
}

// Abort removes the temporary files. It is idempotent and does nothing
// after a successful Commit or an error.
func (s *Writer) Abort() {
	if s.committed || s.err != nil {
		return
	}
	s.failf("%w", ErrAborted)
}
