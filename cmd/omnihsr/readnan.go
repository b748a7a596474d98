package main

import (
	"errors"
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/formats/raw"
)

// readNaNAsNoData reads in as formats.Read does, but takes NaN samples as
// no-data (as GDAL does; reflectance products mark bad bands so) instead of
// refusing them; an infinite value is still an error naming its position.
func readNaNAsNoData(in string, ro hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	c, info, err := formats.Read(in, ro)
	var nf *raw.NonFiniteError
	if !errors.As(err, &nf) || c == nil {
		return c, info, err
	}
	for i, v := range c.Data {
		if math.IsInf(float64(v), 0) {
			p := i / c.B
			return nil, info, fmt.Errorf("%s: infinite value %v at row %d, column %d, band %d (0-based): not accepted (NaN is read as no-data)", in, v, p/c.W, p%c.W, i%c.B)
		}
	}
	return c, info, nil
}

// declareNaNNoData makes c declare NaN as its no-data value when it has
// NaN samples and declares no other value (a NaN read by readNaNAsNoData).
func declareNaNNoData(c *hsi.Cube) {
	if c.Meta.HasDataIgnore {
		return
	}
	for _, v := range c.Data {
		if v != v {
			c.Meta.DataIgnore, c.Meta.HasDataIgnore = math.NaN(), true
			return
		}
	}
}
