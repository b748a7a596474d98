package npy

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// rowReader reads a .npy file a range of rows at a time (OpenRows).
type rowReader struct {
	path    string
	f       *os.File
	h       *header
	H, W, B int
	info    hsi.SourceInfo
	buf     []byte
	whole   *hsi.Cube // a Fortran-order array, read at the first ReadRows
}

// OpenRows opens the .npy file at path for reading a range of rows at a
// time, with the checks of Read (the header, and the file's size against
// the shape), reading no sample yet. A C-order array streams: ReadRows
// reads the rows asked and nothing else, through a buffer of at most
// raw.ChunkBytes. A Fortran-order array is read whole by the first
// ReadRows (after the memory check Read makes) and served from memory:
// each of its rows is scattered over the whole file (one value in every
// column of every band's column-major image), so that a range of rows
// touches every part of the file and reading one at a time would read
// the file once a row. ReadRows gives Read's values, non-finite ones
// included. Close it when done.
func OpenRows(path string) (hsi.RowReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("npy: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("npy: %w", err)
	}
	h, err := checkedHeader(f, st.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	H, W, B := h.dims()
	if _, err := hsi.Elems(H, W, B); err != nil {
		f.Close()
		return nil, fmt.Errorf("npy: %s: %w", path, err)
	}
	return &rowReader{path: path, f: f, h: h, H: H, W: W, B: B, info: sourceInfo(h)}, nil
}

func (r *rowReader) Header() hsi.Header {
	return hsi.Header{H: r.H, W: r.W, B: r.B, Info: r.info}
}

func (r *rowReader) ReadRows(y0, y1 int, dst []float32) error {
	if err := raw.CheckRows("npy: "+r.path, r.H, r.W, r.B, y0, y1, len(dst)); err != nil {
		return err
	}
	if r.f == nil {
		return fmt.Errorf("npy: %s: read after Close", r.path)
	}
	row := r.W * r.B
	if r.h.fortran {
		if r.whole == nil {
			st, err := r.f.Stat()
			if err != nil {
				return fmt.Errorf("npy: %w", err)
			}
			c, _, err := decode(r.f, st.Size(), r.path)
			var nf *hsi.NonFiniteError
			if err != nil && !errors.As(err, &nf) {
				return err
			}
			r.whole = c
		}
		copy(dst, r.whole.Data[y0*row:y1*row])
		return nil
	}
	es := r.h.typ.Size()
	read := func(b []byte, off int64) error {
		if err := readFull(r.f, b, off); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return fmt.Errorf("npy: %s: data ends early (file changed while reading?): %w", r.path, err)
			}
			return fmt.Errorf("npy: %s: %w", r.path, err)
		}
		return nil
	}
	chunk := max(raw.ChunkBytes/es, 1)
	n := len(dst)
	if need := min(chunk, n) * es; cap(r.buf) < need {
		r.buf = make([]byte, need)
	}
	base := r.h.dataStart + int64(y0)*int64(row)*int64(es)
	for i := 0; i < n; i += chunk {
		k := min(chunk, n-i)
		b := r.buf[:k*es]
		if err := read(b, base+int64(i)*int64(es)); err != nil {
			return err
		}
		sample.Decode(dst[i:], 1, b, k, r.h.typ, r.h.bigEndian)
	}
	return nil
}

// Streams reports whether ReadRows reads only the rows asked: false for
// a Fortran-order array, read whole.
func (r *rowReader) Streams() bool { return !r.h.fortran }

func (r *rowReader) Close() error {
	r.whole, r.buf = nil, nil
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}
