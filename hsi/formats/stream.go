package formats

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/internal/rowstream"
	"github.com/omnihsr/omnihsr/hsi/npy"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/hsi/tiff"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// RowWriter receives an image a band of rows at a time, for outputs too
// large to hold in memory.
type RowWriter interface {
	// WriteRows appends whole rows, in order: data holds k*W*B values
	// (k >= 0) in the cube's pixel-interleaved order, row-major with each
	// pixel's spectrum contiguous (H x W x B). The writer does not keep
	// data after the call returns.
	WriteRows(data []float32) error
	// Commit finishes the file (header or trailer), syncs it and renames
	// it into place. It fails, leaving nothing, unless all H rows were
	// written.
	Commit() error
	// Abort removes everything written so far. It is idempotent and does
	// nothing after a successful Commit, so `defer w.Abort()` is safe.
	Abort()
}

// CreateFunc starts a streamed file of h x w x b values.
type CreateFunc func(path string, h, w, b int, meta hsi.Meta, opt hsi.WriteOptions) (RowWriter, error)

// The adapters return a nil interface, not a typed nil, on error.
func createENVI(path string, h, w, b int, meta hsi.Meta, opt hsi.WriteOptions) (RowWriter, error) {
	s, err := envi.Create(path, h, w, b, meta, opt)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func createNPY(path string, h, w, b int, meta hsi.Meta, opt hsi.WriteOptions) (RowWriter, error) {
	s, err := npy.Create(path, h, w, b, meta, opt)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func createTIFF(path string, h, w, b int, meta hsi.Meta, opt hsi.WriteOptions) (RowWriter, error) {
	s, err := tiff.Create(path, h, w, b, meta, opt)
	if err != nil {
		return nil, err
	}
	return &finiteRows{RowWriter: s, path: path, w: w, b: b}, nil
}

// finiteRows refuses infinite values for a writer that stores them (NaN is
// written to float types; the writer refuses it for integer types).
type finiteRows struct {
	RowWriter
	path string
	w, b int
	next int
}

func (f *finiteRows) WriteRows(data []float32) error {
	for i, v := range data {
		if v-v != 0 && v == v { // infinite
			f.Abort()
			return fmt.Errorf("formats: write %s: %w", f.path, raw.BadValue(data, f.w, f.b, f.next, i, sample.Float32))
		}
	}
	f.next += len(data) / max(1, f.w*f.b)
	return f.RowWriter.WriteRows(data)
}

// diskFree returns the bytes available to this user on the file system of
// dir, or false when unknown; a variable so that tests can replace it.
var diskFree = atomicfile.DiskFree

// Create starts the file at path, in the format its extension names, for
// an image of h rows, w columns and b bands with metadata meta, written
// with the options opt as Write would write it. Rows are then given in
// order with WriteRows, and Commit publishes the file.
//
// ENVI and NPY stream to disk: each call's rows are converted and written
// at once to a temporary file beside path, so that the memory held is
// bounded by one call's rows (and by raw.ChunkBytes), never by the image,
// and the result is byte for byte what Write stores for the whole cube.
// Create first checks that the file system has room for the whole file
// (an error matching hsi.ErrNoSpace otherwise). TIFF streams too, a strip
// or tile height of rows at a time (see tiff.Create; a COG also holds its
// overviews in memory, up to about 0.4 of the float32 image).
//
// The other formats (MAT, PNG) are written from a whole cube: Create
// checks that the h x w x b float32 cube fits in the memory available
// (an error matching hsi.ErrTooLarge that suggests ENVI or
// NPY otherwise), test-writes a one-pixel image with meta and opt so that a
// refused option fails now rather than at Commit, and collects the rows in
// memory; Commit writes them with Write.
//
// For every format an infinite value is an error from WriteRows naming its
// row, column and band, as is NaN or a value that does not fit an integer
// data type for ENVI, NPY and TIFF (MAT reports those at Commit). NaN is
// written to float types. Any
// error from WriteRows or Commit is final: the writer has removed
// everything it wrote.
func Create(path string, h, w, b int, meta hsi.Meta, opt hsi.WriteOptions) (RowWriter, error) {
	f, err := forWrite(path, opt)
	if err != nil {
		return nil, err
	}
	n, err := hsi.Elems(h, w, b)
	if err != nil {
		return nil, fmt.Errorf("formats: create %s: %w", path, err)
	}
	if f.Create != nil {
		if t, err := raw.WriteType(opt.DataType); err == nil {
			if err := checkDisk(path, uint64(n)*uint64(t.Size())); err != nil {
				return nil, err
			}
		} // else the format's Create reports the bad type
		return f.Create(path, h, w, b, meta, opt)
	}
	m, err := newMemWriter(f, path, h, w, b, meta, opt)
	if err != nil {
		return nil, err // not a typed nil
	}
	return m, nil
}

// checkDisk refuses a file of need bytes that its file system cannot hold.
func checkDisk(path string, need uint64) error {
	dir := filepath.Dir(path)
	free, ok := diskFree(dir)
	if ok && need > free {
		return fmt.Errorf("formats: create %s: the output needs %s on disk, but %s has only %s free: %w",
			path, memlimit.Format(need), dir, memlimit.Format(free), hsi.ErrNoSpace)
	}
	return nil
}

// memWriter is the rowstream.Sink of a format written from a whole cube:
// the rows are collected in the cube, which Commit writes.
type memWriter struct {
	f    *Format
	path string
	opt  hsi.WriteOptions
	c    *hsi.Cube
}

// checkMemOutput refuses an output of a format written from memory whose
// h x w x b float32 cube does not fit in the memory available.
func checkMemOutput(f *Format, path string, h, w, b int) error {
	n, _ := hsi.Elems(h, w, b) // checked by the caller
	what := fmt.Sprintf("%s output %dx%dx%d float32", f.Name, h, w, b)
	if err := memlimit.Check(uint64(n)*4, what); err != nil {
		return fmt.Errorf("formats: create %s: %w; %s is written from memory, so write ENVI (.hdr) or NPY (.npy) instead, which stream to disk",
			path, err, f.Name)
	}
	return nil
}

func newMemWriter(f *Format, path string, h, w, b int, meta hsi.Meta, opt hsi.WriteOptions) (*rowstream.Writer, error) {
	if err := checkMemOutput(f, path, h, w, b); err != nil {
		return nil, err
	}
	if err := probe(f, path, b, meta, opt); err != nil {
		return nil, err
	}
	c, err := hsi.New(h, w, b)
	if err != nil {
		return nil, fmt.Errorf("formats: create %s: %w", path, err)
	}
	c.Meta = meta.Clone()
	return rowstream.New("formats", path, h, w, b, &memWriter{f: f, path: path, opt: opt, c: c}), nil
}

// probeError is an error of a test write, with the probe file's name
// replaced by the destination's.
type probeError struct {
	msg string
	err error
}

func (e *probeError) Error() string { return e.msg }
func (e *probeError) Unwrap() error { return e.err }

// probe writes a one-pixel image with meta and opt beside path and removes
// it, so that options and metadata the format refuses, or a directory that
// cannot be written, are reported before any row is computed.
func probe(f *Format, path string, b int, meta hsi.Meta, opt hsi.WriteOptions) error {
	tmp, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("formats: %w", err)
	}
	name := tmp.Name()
	tmp.File.Close()
	defer tmp.Abort()
	c := &hsi.Cube{H: 1, W: 1, B: b, Data: make([]float32, b), Meta: meta}
	if err := f.Write(name, c, opt); err != nil {
		return &probeError{msg: strings.ReplaceAll(err.Error(), name, path), err: err}
	}
	return nil
}

// WriteRows copies n rows, rows y0 on, into the cube.
func (m *memWriter) WriteRows(data []float32, y0, _ int) error {
	c := m.c
	for i, v := range data {
		if v-v != 0 && v == v { // infinite; NaN is checked by the integer writers
			return raw.BadValue(data, c.W, c.B, y0, i, sample.Float32)
		}
	}
	copy(c.Data[y0*c.W*c.B:], data)
	return nil
}

// Commit writes the cube.
func (m *memWriter) Commit() error {
	if err := m.f.Write(m.path, m.c, m.opt); err != nil {
		return err
	}
	m.c = nil
	return nil
}

// Abort drops the cube; nothing was written.
func (m *memWriter) Abort() { m.c = nil }
