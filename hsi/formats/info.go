package formats

import (
	"errors"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/products"
)

// Info describes the cube at path for `omnihsr info`: its size and
// metadata (c, whose Data may be nil), what the reader saw (info) and the
// statistics of its samples. An HDF5 or NetCDF-4 dataset (an EMIT swath
// included) is streamed into the statistics without the cube being held,
// so that a small file declaring a huge dataset allocates nothing from the
// declared size (products.StatHDF5); every other input is read as Read
// reads it, and a NaN or infinite sample is counted, not an error.
func Info(path string, opt hsi.ReadOptions) (c *hsi.Cube, info hsi.SourceInfo, st hsi.Stats, err error) {
	if err := checkRegular(path); err != nil {
		return nil, info, st, err
	}
	f, err := ForRead(path)
	if err != nil {
		return nil, info, st, err
	}
	if f.Name == "HDF5" {
		c, info, s, err := products.StatHDF5(path, opt)
		if err != nil {
			return nil, info, st, err
		}
		if s != nil {
			return c, info, *s, nil
		}
		if err := c.Validate(); err != nil {
			return nil, info, st, err
		}
		return c, info, hsi.StatsOf(c), nil
	}
	c, info, err = Read(path, opt)
	var nf *hsi.NonFiniteError
	if err != nil && !(errors.As(err, &nf) && c != nil) {
		return nil, info, st, err
	}
	return c, info, hsi.StatsOf(c), nil
}
