package npy

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/rowstream"
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
	rs *rowstream.Writer
}

// streamSink is the rowstream.Sink of a StreamWriter: rows encoded onto
// the end of the temporary file.
type streamSink struct {
	w, b int
	t    sample.Type
	f    *atomicfile.File
	buf  []byte
}

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
	return &StreamWriter{rs: rowstream.New("npy", path, h, w, b, &streamSink{w: w, b: b, t: t, f: f})}, nil
}

// Rows returns the number of rows written so far.
func (s *StreamWriter) Rows() int { return s.rs.Rows() }

// WriteRows appends whole rows: data holds k*w*b values, k >= 0, in the
// cube's pixel-interleaved order, which is the file's C order. A NaN or
// infinite value, or one that does not fit the data type, is an error
// naming its row, column and band.
func (s *StreamWriter) WriteRows(data []float32) error { return s.rs.WriteRows(data) }

// Commit checks that all rows were written and publishes the file. With
// rows missing it fails and removes the temporary file. Commit after a
// successful Commit does nothing.
func (s *StreamWriter) Commit() error { return s.rs.Commit() }

// Abort removes the temporary file. It is idempotent and does nothing after
// a successful Commit, so `defer w.Abort()` is always safe.
func (s *StreamWriter) Abort() { s.rs.Abort() }

// WriteRows appends n rows, rows y0 on, to the file.
func (s *streamSink) WriteRows(data []float32, y0, _ int) error {
	buf, err := encodeRows(s.buf, s.f.Tracked(), data, s.w, s.b, y0, s.t)
	s.buf = buf
	return err
}

// Commit syncs the file and renames it into place.
func (s *streamSink) Commit() error {
	if err := s.f.Commit(); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	s.buf = nil
	return nil
}

// Abort removes the temporary file.
func (s *streamSink) Abort() {
	s.f.Abort()
	s.buf = nil
}
