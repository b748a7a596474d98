package main

import (
	"math"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
)

// readNaNAsNoData reads in as formats.Read does, but takes NaN samples as
// no-data (as GDAL does; reflectance products mark bad bands so) instead of
// refusing them; an infinite value is still an error naming its position
// (omnihsr.ReadFile, the library's front door, holds the policy).
func readNaNAsNoData(in string, ro hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	return omnihsr.ReadFile(in, ro)
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
