package formats

import (
	"errors"
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/npy"
	"github.com/omnihsr/omnihsr/hsi/png"
	"github.com/omnihsr/omnihsr/hsi/products"
	"github.com/omnihsr/omnihsr/hsi/tiff"
)

// Source is an open file whose cube is read a range of rows at a time, as
// zip.File.Open gives a file's contents: Header first (nothing sized from
// the samples has been allocated), then ReadRows for the rows wanted.
// The Sources Open returns also have a method Streams() bool, false for
// one that read the file whole (see the package documentation), which a
// caller that would open the file once a window asks through an
// interface { Streams() bool }. A Source of an HDF5 or NetCDF-4 dataset
// has a method RowRun(y int) (end int, written bool, fill float32) too:
// rows [y, end) hold data the file wrote, or none (written false: a
// dataset declared large and written in part, or not at all), every
// sample of them then being fill (the dataset's fill value, 0 when the
// file defines none) as ReadRows gives it, so that a caller describing
// the file (omnihsr info) counts them without reading them. Within a
// written run, methods ChunkSize() (rows, cols int) (the chunk's rows and
// columns, 0 when not chunked), ColRun(y0, y1, x int) (end int, written
// bool, fill float32) (the same along the columns of rows [y0, y1)) and
// ReadWindow(y0, y1, x0, x1 int, dst []float32) error (columns [x0, x1)
// of those rows, the samples as ReadRows gives them, without its
// non-finite policy's error) read a row too wide for memory in pieces,
// each chunk decoded once. A Source of a TIFF or of an HDF5 or NetCDF-4
// dataset has a method BlockRows() int: the rows its reader decodes
// together (a strip or tile row; a chunk's rows, 0 when not chunked), so
// that a caller reading a window at a time (Python's dask chunks) can
// align its windows on them and decode each block once.
type Source interface {
	// Header is the cube's shape, metadata and description.
	Header() hsi.Header
	// ReadRows fills dst with rows [y0, y1) ((y1-y0) x W x B values,
	// pixel-interleaved as hsi.Cube.Data), applying hsi.ReadOptions'
	// non-finite policy to them: an infinite sample (or, with RefuseNaN, a
	// NaN) is a *hsi.NonFiniteError locating the first one and counting
	// those of these rows, dst filled all the same; a NaN sample is
	// otherwise no-data, tested with the header's Meta.NoData as every
	// no-data sample is.
	ReadRows(y0, y1 int, dst []float32) error
	// Close releases the file.
	Close() error
}

// Open opens the file at path, in the format ForRead tells, for reading
// with ro. See the package documentation for which formats stream and
// which are read whole by Open (as Read reads them) and served from
// memory, and why.
func Open(path string, ro hsi.ReadOptions) (Source, error) {
	if err := checkRegular(path); err != nil {
		return nil, err
	}
	f, err := ForRead(path)
	if err != nil {
		return nil, err
	}
	switch f.Name {
	case "NPY":
		return openRows(path, ro, npy.OpenRows)
	case "TIFF":
		return openRows(path, ro, tiff.OpenRows)
	case "HDF5":
		return openRows(path, ro, func(p string) (hsi.RowReader, error) { return products.OpenRows(p, ro) })
	}
	if (ro == hsi.ReadOptions{RefuseNaN: ro.RefuseNaN}) {
		switch f.Name {
		case "ENVI":
			rr, err := envi.OpenRows(path)
			if err != nil {
				return nil, err
			}
			return &enviSource{rr: rr, ro: ro}, nil
		case "PNG":
			rr, err := png.OpenRows(path)
			if err == nil {
				return &pngSource{rr}, nil
			}
			if !errors.Is(err, png.ErrNotStreamed) {
				return nil, err
			}
		}
	}
	c, info, err := read(path, ro)
	var nf *hsi.NonFiniteError
	if err != nil && !(c != nil && errors.As(err, &nf)) {
		return nil, err
	}
	return &cubeSource{c: c, info: info, ro: ro, path: path}, nil
}

// enviSource streams an ENVI image (envi.RowReader).
type enviSource struct {
	rr *envi.RowReader
	ro hsi.ReadOptions
}

func (s *enviSource) Header() hsi.Header {
	return hsi.Header{H: s.rr.H, W: s.rr.W, B: s.rr.B, Meta: s.rr.Meta, Info: s.rr.Info}
}

func (s *enviSource) ReadRows(y0, y1 int, dst []float32) error {
	err := s.rr.ReadRows(y0, y1, dst)
	var nf *hsi.NonFiniteError
	if !errors.As(err, &nf) {
		return err
	}
	return rowPolicy(s.ro, nf.Path, s.rr.W, s.rr.B, y0, dst[:(y1-y0)*s.rr.W*s.rr.B])
}

func (s *enviSource) Close() error { return s.rr.Close() }

// Streams reports true: the Source reads the rows asked from the file.
func (s *enviSource) Streams() bool { return true }

// pngSource streams a PNG image (png.RowReader); its samples are finite.
type pngSource struct{ rr *png.RowReader }

func (s *pngSource) Header() hsi.Header {
	return hsi.Header{H: s.rr.H, W: s.rr.W, B: s.rr.B, Meta: s.rr.Meta, Info: s.rr.Info}
}

func (s *pngSource) ReadRows(y0, y1 int, dst []float32) error {
	if want := (y1 - y0) * s.rr.W * s.rr.B; y0 >= y1 || len(dst) != want {
		return fmt.Errorf("png: rows [%d, %d): destination holds %d values", y0, y1, len(dst))
	}
	return s.rr.ReadRows(y0, y1, dst)
}

func (s *pngSource) Close() error { return s.rr.Close() }

func (s *pngSource) Streams() bool { return true }

// rowsSource is a format's hsi.RowReader with ReadOptions' policy
// applied to the rows it reads.
type rowsSource struct {
	r    hsi.RowReader
	hd   hsi.Header
	ro   hsi.ReadOptions
	path string
}

// openRows opens path with a format's OpenRows.
func openRows(path string, ro hsi.ReadOptions, open func(string) (hsi.RowReader, error)) (Source, error) {
	r, err := open(path)
	if err != nil {
		return nil, err
	}
	return &rowsSource{r: r, hd: r.Header(), ro: ro, path: path}, nil
}

func (s *rowsSource) Header() hsi.Header { return s.hd }

func (s *rowsSource) ReadRows(y0, y1 int, dst []float32) error {
	if err := raw.CheckRows(s.path, s.hd.H, s.hd.W, s.hd.B, y0, y1, len(dst)); err != nil {
		return err
	}
	if err := s.r.ReadRows(y0, y1, dst); err != nil {
		return err
	}
	return rowPolicy(s.ro, s.path, s.hd.W, s.hd.B, y0, dst)
}

func (s *rowsSource) Close() error { return s.r.Close() }

// RowRun returns the end of the run of rows that starts at row y (see
// Source): rows [y, end) are written, or all fill without being stored
// (written false). A format whose reader does not say has every row
// written.
func (s *rowsSource) RowRun(y int) (end int, written bool, fill float32) {
	if rr, ok := s.r.(interface {
		RowRun(int) (int, bool, float32)
	}); ok {
		return rr.RowRun(y)
	}
	return s.hd.H, true, 0
}

// windowed is the window reads of an HDF5 dataset's reader (see Source).
type windowed interface {
	ChunkSize() (rows, cols int)
	ColRun(y0, y1, x int) (end int, written bool, fill float32)
	ReadWindow(y0, y1, x0, x1 int, dst []float32) error
}

// ChunkSize returns the rows and columns of a chunk of the dataset read
// (see Source); 0, 0 when the format's reader has no window reads.
func (s *rowsSource) ChunkSize() (rows, cols int) {
	if w, ok := s.r.(windowed); ok {
		return w.ChunkSize()
	}
	return 0, 0
}

// ColRun is RowRun along the columns of rows [y0, y1) (see Source).
func (s *rowsSource) ColRun(y0, y1, x int) (end int, written bool, fill float32) {
	if w, ok := s.r.(windowed); ok {
		return w.ColRun(y0, y1, x)
	}
	return s.hd.W, true, 0
}

// ReadWindow reads columns [x0, x1) of rows [y0, y1) (see Source).
func (s *rowsSource) ReadWindow(y0, y1, x0, x1 int, dst []float32) error {
	if w, ok := s.r.(windowed); ok {
		return w.ReadWindow(y0, y1, x0, x1, dst)
	}
	return fmt.Errorf("%s: the %s reader has no window reads", s.path, s.hd.Info.Format)
}

// BlockRows returns the rows the format's reader decodes together (see
// Source): a TIFF's strip or tile rows, an HDF5 dataset's chunk rows; 0
// when a range of rows costs only its own rows.
func (s *rowsSource) BlockRows() int {
	if b, ok := s.r.(interface{ BlockRows() int }); ok {
		return b.BlockRows()
	}
	if w, ok := s.r.(windowed); ok {
		rows, _ := w.ChunkSize()
		return min(rows, s.hd.H)
	}
	return 0
}

// Streams reports whether the format's reader streams: one that reads the
// file whole (a Fortran-order NPY array, an assembled product) says so
// with a Streams method of its own.
func (s *rowsSource) Streams() bool {
	st, ok := s.r.(interface{ Streams() bool })
	return !ok || st.Streams()
}

// cubeSource serves the rows of a cube read whole.
type cubeSource struct {
	c    *hsi.Cube
	info hsi.SourceInfo
	ro   hsi.ReadOptions
	path string
}

func (s *cubeSource) Header() hsi.Header {
	return hsi.Header{H: s.c.H, W: s.c.W, B: s.c.B, Meta: s.c.Meta, Info: s.info}
}

func (s *cubeSource) ReadRows(y0, y1 int, dst []float32) error {
	c := s.c
	if y0 < 0 || y1 > c.H || y0 >= y1 {
		return fmt.Errorf("%s: rows [%d, %d) outside an image of %d", s.path, y0, y1, c.H)
	}
	if want := (y1 - y0) * c.W * c.B; len(dst) != want {
		return fmt.Errorf("%s: rows [%d, %d): destination holds %d values, want %d", s.path, y0, y1, len(dst), want)
	}
	copy(dst, c.Data[y0*c.W*c.B:y1*c.W*c.B])
	return rowPolicy(s.ro, s.path, c.W, c.B, y0, dst)
}

func (s *cubeSource) Close() error { s.c = nil; return nil }

// Streams reports false: the cube was read whole.
func (s *cubeSource) Streams() bool { return false }

// rowPolicy applies ro's non-finite policy to rows of w x b samples whose
// first is row y0: a *hsi.NonFiniteError for an infinite sample (or any
// non-finite one with RefuseNaN), locating the first and counting those of
// the rows; nil when every non-finite sample is a NaN read as no-data.
func rowPolicy(ro hsi.ReadOptions, path string, w, b, y0 int, rows []float32) error {
	f := hsi.FirstInfinite
	if ro.RefuseNaN {
		f = hsi.FirstNonFinite
	}
	if e := f(path, rows, w, b, y0); e != nil {
		return e
	}
	return nil
}
