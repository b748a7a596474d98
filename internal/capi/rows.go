package capi

import (
	"errors"
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// ErrNoStream marks a file that cannot be read a window at a time: only
// ENVI has a row reader (envi.RowReader); the other readers decode whole
// images (TIFF strips and tiles, HDF5 chunks, MATLAB and NPY arrays, the
// products' companions).
var ErrNoStream = errors.New("cannot be read a window at a time")

// ReadRows reads rows [y0, y1) of the image at path into dst ((y1-y0) x W
// x B samples, pixel-interleaved), with the reader options s, as ReadFile
// reads them (NaN kept as no-data, an infinite sample an error naming its
// position); y0 == y1 reads no samples. It returns the image's metadata
// (MetaOf's, the shape the whole image's). A format other than ENVI, or
// reader options, give an error wrapping ErrNoStream.
func ReadRows(path, s string, y0, y1 int, dst []float32) (any, error) {
	var ro readOptions
	if err := decodeStrict(s, &ro); err != nil {
		return nil, err
	}
	if ro != (readOptions{}) {
		return nil, fmt.Errorf("%s: %w (reader options %+v)", path, ErrNoStream, ro)
	}
	if f, err := formats.ForRead(path); err != nil || f.Name != "ENVI" {
		return nil, fmt.Errorf("%s: %w (ENVI only)", path, ErrNoStream)
	}
	rr, err := envi.OpenRows(path)
	if err != nil {
		return nil, err
	}
	defer rr.Close()
	meta := MetaOf(&hsi.Cube{H: rr.H, W: rr.W, B: rr.B, Meta: rr.Meta}, rr.Info)
	if y0 == y1 && y0 >= 0 && y0 <= rr.H {
		return meta, nil
	}
	if y0 < 0 || y1 > rr.H || y0 > y1 {
		return nil, fmt.Errorf("libomnihsr: %w: %s: rows [%d, %d) outside an image of %d", ErrOption, path, y0, y1, rr.H)
	}
	if n := (y1 - y0) * rr.W * rr.B; len(dst) != n {
		return nil, fmt.Errorf("libomnihsr: %w: the buffer holds %d samples, rows [%d, %d) have %d", ErrOption, len(dst), y0, y1, n)
	}
	err = rr.ReadRows(y0, y1, dst)
	var nf *hsi.NonFiniteError
	if errors.As(err, &nf) {
		// ReadFile's policy: NaN is no-data, an infinite sample an error.
		if inf := hsi.FirstInfinite(nf.Path, dst, rr.W, rr.B, y0); inf != nil {
			return nil, inf
		}
		err = nil
	}
	if err != nil {
		return nil, err
	}
	return meta, nil
}
