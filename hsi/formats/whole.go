package formats

import (
	"errors"
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
)

// ReadAll reads every row of src, which Open returned for path, into a
// cube with src's header, as Read reads the file: a NaN sample is kept as
// no-data (unless the Source refuses NaN); an infinite one gives the cube
// together with a *hsi.NonFiniteError locating the first of the image and
// counting them all, as Read's. A Source that Open read whole hands its
// cube over, without a copy, and serves no more rows; a streamed one is
// read into a new cube, its memory checked first (an error matching
// hsi.ErrTooLarge), a band of rows at a time. src is not closed.
func ReadAll(path string, src Source) (*hsi.Cube, error) {
	var (
		c       *hsi.Cube
		ro      hsi.ReadOptions
		srcPath string
	)
	switch s := src.(type) {
	case *cubeSource:
		if s.c == nil {
			return nil, fmt.Errorf("%s: formats.ReadAll: the source's cube was handed over already", path)
		}
		c, s.c, ro, srcPath = s.c, nil, s.ro, s.path
	case *rowsSource:
		if h, ok := s.r.(cubeHolder); ok {
			c, ro, srcPath = h.TakeCube(), s.ro, s.path
			if c == nil {
				return nil, fmt.Errorf("%s: formats.ReadAll: the source's cube was handed over already", path)
			}
		}
	}
	if c != nil {
		if err := rowPolicy(ro, srcPath, c.W, c.B, 0, c.Data); err != nil {
			return c, err
		}
		return c, nil
	}
	hd := src.Header()
	c, err := raw.NewCube(hd.H, hd.W, hd.B)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.Meta = hd.Meta
	var first *hsi.NonFiniteError
	row := hd.W * hd.B
	step := max(1, readAllBand/max(1, row))
	for y0 := 0; y0 < hd.H; y0 += step {
		y1 := min(hd.H, y0+step)
		err := src.ReadRows(y0, y1, c.Data[y0*row:y1*row])
		var nf *hsi.NonFiniteError
		switch {
		case errors.As(err, &nf):
			if first == nil {
				first = nf
			}
		case err != nil:
			return nil, err
		}
	}
	if first != nil {
		// Located and counted over the whole image, as Read does.
		f := hsi.FirstNonFinite
		if first.InfOnly {
			f = hsi.FirstInfinite
		}
		return c, f(first.Path, c.Data, c.W, c.B, 0)
	}
	return c, nil
}

// cubeHolder is a row reader that read its cube whole (products.OpenRows
// for a product assembled or remapped): TakeCube hands the cube over, nil
// once it has, and the reader serves no more rows.
type cubeHolder interface{ TakeCube() *hsi.Cube }

// readAllBand is the number of samples ReadAll asks a streamed Source for
// at a time (16 MiB of float32).
const readAllBand = 1 << 22
