package raw

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// ReadFunc reads len(buf) bytes at byte offset off of a file, or returns
// an error. Each reader supplies its own, with its own policy for short
// reads.
type ReadFunc func(buf []byte, off int64) error

// ReadChunks reads total samples of size bytes each, stored contiguously
// from byte base, through one buffer of at most ChunkBytes (and at least one
// sample): for each chunk it calls read, then fn with the index of the
// chunk's first sample, its number of samples and its bytes. It returns the
// first error of read.
func ReadChunks(read ReadFunc, base int64, total, size int, fn func(i, n int, b []byte)) error {
	chunk := max(ChunkBytes/size, 1)
	buf := make([]byte, min(chunk, total)*size)
	for i := 0; i < total; i += chunk {
		n := min(chunk, total-i)
		b := buf[:n*size]
		if err := read(b, base+int64(i)*int64(size)); err != nil {
			return err
		}
		fn(i, n, b)
	}
	return nil
}

// DecodePixels fills c from samples of type t stored in the cube's own
// pixel-interleaved order (row-major, each pixel's spectrum contiguous:
// ENVI bip, C-order NPY) from byte base, a chunk at a time, and notes
// non-finite samples in tr.
func DecodePixels(read ReadFunc, base int64, c *hsi.Cube, t sample.Type, bigEndian bool, tr *FiniteTracker) error {
	return ReadChunks(read, base, len(c.Data), t.Size(), func(i, n int, b []byte) {
		first, nbad := sample.Decode(c.Data[i:], 1, b, n, t, bigEndian)
		if nbad > 0 {
			j := i + first
			p := j / c.B
			tr.Note(nbad, p/c.W, p%c.W, j%c.B, c.Data[j])
		}
	})
}

// EncodePixels converts data, whole rows of w pixels of b bands in the
// cube's pixel-interleaved order whose first row is row y0 of the image,
// to little-endian samples of type t, at most ChunkBytes at a time, and
// hands each chunk to write with the index in data of its first value.
// A value that Encode rejects is an error from BadValue, before anything of
// its chunk is written; an error of write is returned as is.
//
// buf is the encoding buffer: it is used when its capacity is large enough
// and replaced otherwise; the buffer used is returned for the next call.
func EncodePixels(buf []byte, data []float32, w, b, y0 int, t sample.Type, write func(p []byte, i int) error) ([]byte, error) {
	es := t.Size()
	chunk := max(ChunkBytes/es, 1)
	total := len(data)
	if need := min(chunk, total) * es; cap(buf) < need {
		buf = make([]byte, need)
	}
	buf = buf[:cap(buf)]
	for i := 0; i < total; i += chunk {
		k := min(chunk, total-i)
		if bad := sample.Encode(buf, data[i:], 1, k, t, false); bad >= 0 {
			return buf, BadValue(data, w, b, y0, i+bad, t)
		}
		if err := write(buf[:k*es], i); err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// BadValue describes the value data[i] that Encode rejected, where data
// holds whole rows of w pixels of b bands starting at row y0 of the image:
// an infinite value, NaN for an integer type, or a value outside the range
// of t, named by its row, column and band (0-based).
func BadValue(data []float32, w, b, y0, i int, t sample.Type) error {
	p := i / b
	v := data[i]
	if v-v != 0 {
		what := "non-finite values cannot be written"
		if v != v {
			what = "non-finite values cannot be written as " + t.String()
		}
		return fmt.Errorf("the cube holds %v at row %d, column %d, band %d (0-based); %s", v, y0+p/w, p%w, i%b, what)
	}
	lo, hi := t.Range()
	return fmt.Errorf("value %v at row %d, column %d, band %d (0-based) does not fit %s (%g..%g); choose another data type",
		v, y0+p/w, p%w, i%b, t, lo, hi)
}

// CheckRows refuses a ReadRows call for rows [y0, y1) of an image of h rows
// of w x b samples into dst of n values: rows outside the image, none, or
// a destination of another size. name prefixes the error (the reader and
// its file).
func CheckRows(name string, h, w, b, y0, y1, n int) error {
	if y0 < 0 || y1 > h || y0 >= y1 {
		return fmt.Errorf("%s: rows [%d, %d) outside an image of %d", name, y0, y1, h)
	}
	if want := (y1 - y0) * w * b; n != want {
		return fmt.Errorf("%s: rows [%d, %d): destination holds %d values, want %d", name, y0, y1, n, want)
	}
	return nil
}
