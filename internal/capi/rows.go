package capi

import (
	"errors"
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// ErrNoStream marks a file that cannot be read a window at a time: one
// that formats.Open reads whole (see hsi/formats' documentation: MATLAB
// files, Fortran-order NPY arrays, the products assembled from several
// datasets or files, ENVI or PNG read with reader options, PNG with a
// palette, interlacing or fewer than 8 bits a sample). Each call of
// ReadRows opens the file anew, so such a file would be read whole for
// every window: the caller reads it once instead.
var ErrNoStream = errors.New("cannot be read a window at a time")

// ReadRows reads rows [y0, y1) of the image at path into dst ((y1-y0) x W
// x B samples, pixel-interleaved), with the reader options s, through
// formats.Open, as ReadFile reads them (NaN kept as no-data, an infinite
// sample an error naming its position); y0 == y1 reads no samples. It
// returns the image's metadata (MetaOf's, the shape the whole image's). A
// file that formats.Open does not stream gives an error wrapping
// ErrNoStream.
func ReadRows(path, s string, y0, y1 int, dst []float32) (any, error) {
	var ro readOptions
	if err := decodeStrict(s, &ro); err != nil {
		return nil, err
	}
	f, err := formats.ForRead(path)
	if err != nil {
		return nil, err
	}
	if f.Name == "MAT" || f.Name == "EnMAP" {
		return nil, fmt.Errorf("%s: %w (%s files are read whole)", path, ErrNoStream, f.Name)
	}
	src, err := formats.Open(path, ro.hsi())
	if err != nil {
		return nil, err
	}
	defer src.Close()
	if st, ok := src.(interface{ Streams() bool }); !ok || !st.Streams() {
		return nil, fmt.Errorf("%s: %w (this %s file is read whole)", path, ErrNoStream, f.Name)
	}
	hd := src.Header()
	meta := MetaOf(&hsi.Cube{H: hd.H, W: hd.W, B: hd.B, Meta: hd.Meta}, hd.Info)
	if br, ok := src.(interface{ BlockRows() int }); ok {
		meta.BlockRows = br.BlockRows()
	}
	if y0 == y1 && y0 >= 0 && y0 <= hd.H {
		return meta, nil
	}
	if y0 < 0 || y1 > hd.H || y0 > y1 {
		return nil, fmt.Errorf("libomnihsr: %w: %s: rows [%d, %d) outside an image of %d", ErrOption, path, y0, y1, hd.H)
	}
	if n := (y1 - y0) * hd.W * hd.B; len(dst) != n {
		return nil, fmt.Errorf("libomnihsr: %w: the buffer holds %d samples, rows [%d, %d) have %d", ErrOption, len(dst), y0, y1, n)
	}
	if err := src.ReadRows(y0, y1, dst); err != nil {
		return nil, err
	}
	return meta, nil
}
