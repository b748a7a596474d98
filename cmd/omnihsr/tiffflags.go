package main

import (
	"flag"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/tiff"
)

// tiffFlags are the GDAL-style output flags of the commands that write
// TIFF: -of GTiff|COG and -co KEY=VALUE (repeatable).
type tiffFlags struct {
	of string
	co multiString
}

// multiString is a repeatable string flag.
type multiString []string

func (m *multiString) String() string     { return strings.Join(*m, " ") }
func (m *multiString) Set(v string) error { *m = append(*m, v); return nil }

// tiffFlagsHelp describes -of and -co for command help text.
const tiffFlagsHelp = `TIFF output takes GDAL's options: -of COG writes a Cloud Optimized GeoTIFF
(tiled 512x512, LZW, internal overviews averaged 2x2 down to one tile, IFDs
first, smallest overview's tiles first); -co KEY=VALUE, repeatable, sets
COMPRESS=NONE|DEFLATE|LZW|ZSTD, PREDICTOR=1|2|3 (or YES), ZLEVEL=1-9,
ZSTD_LEVEL=1-22, BIGTIFF=YES|NO|IF_NEEDED|IF_SAFER and, for GTiff,
TILED=YES, BLOCKXSIZE=N, BLOCKYSIZE=N (tiles are multiples of 16), for COG
BLOCKSIZE=N, OVERVIEWS=AUTO|NONE, RESAMPLING=AVERAGE|NEAREST. Defaults as
GDAL's: GTiff uncompressed strips, COG COMPRESS=LZW, PREDICTOR=1.
`

func (t *tiffFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&t.of, "of", "", "TIFF output driver: GTiff (default) or COG (Cloud Optimized GeoTIFF)")
	fs.Var(&t.co, "co", "TIFF creation option KEY=VALUE, as GDAL's (repeatable; see above)")
}

// apply puts the flags into wo, checking them against every output path:
// a bad option, or one given for a format other than TIFF, is a usage
// error.
func (t *tiffFlags) apply(wo *hsi.WriteOptions, outs ...string) error {
	if t.of == "" && len(t.co) == 0 {
		return nil
	}
	for _, out := range outs {
		if f, err := formats.ForWrite(out); err == nil && f.Name != "TIFF" {
			return usagef("-of and -co apply to TIFF output (.tif, .tiff), not %s", out)
		}
	}
	drv, err := hsi.ParseDriver(t.of)
	if err != nil {
		return usagef("%v", err)
	}
	wo.Driver, wo.Creation = drv, t.co
	if _, err := tiff.ParseOptions(*wo); err != nil {
		return usagef("%v", err)
	}
	return nil
}
