package npy

import (
	"errors"
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// StreamWriter writes a .npy file whose rows arrive in order, for arrays
// too large to hold in memory. Create writes the header (the shape is known
// up front) to a temporary file; WriteRows appends rows, converted as by
// Write, through a buffer bounded by the rows of one call and by
// raw.ChunkBytes, and hands them to the disk as it goes
// (atomicfile.File.Wrote); Commit syncs and renames the file into place;
// Abort removes it. The file is byte for byte what Write stores for the
// same cube.
//
// An error from WriteRows or Commit is final: the writer has removed its
// temporary file and returns the same error from then on. A StreamWriter is
// not safe for concurrent use.
type StreamWriter struct {
	path      string
	h, w, b   int
	t         sample.Type
	f         *atomicfile.File
	next      int // rows written so far
	buf       []byte
	err       error // sticky error
	committed bool
}

var errAborted = errors.New("the writer was aborted")

// Create starts a C-order array of shape (h, w, b) at path with the data
// type of opt, like Write (a one-band image too has shape (h, w, 1)). NPY
// holds no metadata: meta is accepted for symmetry with the other formats
// and ignored. Nothing appears at path before Commit.
func Create(path string, h, w, b int, meta hsi.Meta, opt hsi.WriteOptions) (*StreamWriter, error) {
	if _, err := hsi.Elems(h, w, b); err != nil {
		return nil, fmt.Errorf("npy: create %s: %w", path, err)
	}
	t, descr, err := writeType(opt)
	if err != nil {
		return nil, fmt.Errorf("npy: create %s: %w", path, err)
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("npy: %w", err)
	}
	if _, err := f.Write(headerBytes(descr, []int{h, w, b})); err != nil {
		f.Abort()
		return nil, fmt.Errorf("npy: write %s: %w", path, err)
	}
	f.ExpectSize(int64(h) * int64(w) * int64(b) * int64(t.Size()))
	return &StreamWriter{path: path, h: h, w: w, b: b, t: t, f: f}, nil
}

// Rows returns the number of rows written so far.
func (s *StreamWriter) Rows() int { return s.next }

func (s *StreamWriter) fail(err error) error {
	s.f.Abort()
	s.err = err
	s.buf = nil
	return err
}

// WriteRows appends whole rows: data holds k*w*b values, k >= 0, in the
// cube's pixel-interleaved order, which is the file's C order. A NaN or
// infinite value, or one that does not fit the data type, is an error
// naming its row, column and band.
func (s *StreamWriter) WriteRows(data []float32) error {
	if s.err != nil {
		return s.err
	}
	if s.committed {
		return fmt.Errorf("npy: write %s: rows written after Commit", s.path)
	}
	row := s.w * s.b
	if len(data)%row != 0 {
		return s.fail(fmt.Errorf("npy: write %s: %d values are not whole rows of %d pixels x %d bands", s.path, len(data), s.w, s.b))
	}
	n := len(data) / row
	if n > s.h-s.next {
		return s.fail(fmt.Errorf("npy: write %s: %d more rows after %d of %d", s.path, n, s.next, s.h))
	}
	buf, err := encodeRows(s.buf, s.f.Tracked(), data, s.w, s.b, s.next, s.t)
	s.buf = buf
	if err != nil {
		return s.fail(fmt.Errorf("npy: write %s: %w", s.path, err))
	}
	s.next += n
	return nil
}

// Commit checks that all rows were written and publishes the file. With
// rows missing it fails and removes the temporary file. Commit after a
// successful Commit does nothing.
func (s *StreamWriter) Commit() error {
	if s.err != nil {
		return s.err
	}
	if s.committed {
		return nil
	}
	if s.next != s.h {
		return s.fail(fmt.Errorf("npy: write %s: only %d of %d rows were written", s.path, s.next, s.h))
	}
	if err := s.f.Commit(); err != nil {
		return s.fail(fmt.Errorf("npy: %w", err))
	}
	s.committed = true
	s.buf = nil
	return nil
}

// Abort removes the temporary file. It is idempotent and does nothing after
// a successful Commit, so `defer w.Abort()` is always safe.
func (s *StreamWriter) Abort() {
	if s.committed || s.err != nil {
		return
	}
	s.fail(fmt.Errorf("npy: write %s: %w", s.path, errAborted))
}
