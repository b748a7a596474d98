package tiff

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
)

// Options are the TIFF creation options, named and defaulted as GDAL's GTiff
// and COG drivers name them; ParseOptions builds them from "KEY=VALUE"
// strings.
type Options struct {
	// COG selects a Cloud Optimized GeoTIFF (GDAL's COG driver): tiled,
	// with internal overviews, IFDs first and the smallest overview's tiles
	// first.
	COG bool
	// Compression is the TIFF compression code: 1 none, 5 LZW, 8 deflate,
	// 50000 ZSTD.
	Compression int
	// Predictor is 1 (none), 2 (horizontal differencing), 3 (floating
	// point), or 0 for "YES": 2 for integer samples, 3 for floats.
	Predictor int
	// Tiled stores tiles of BlockW x BlockH pixels; otherwise strips of
	// BlockH rows.
	Tiled bool
	// BlockW and BlockH are the tile size, or the strip height; 0 picks the
	// default (tiles 256x256, COG 512x512, strips of about 64 KiB per band).
	BlockW, BlockH int
	// BigTIFF is "YES", "NO", "IF_NEEDED" (default) or "IF_SAFER".
	BigTIFF string
	// Level is the deflate (ZLEVEL, 1-9) or ZSTD (ZSTD_LEVEL, 1-22) level;
	// 0 picks the default (deflate 1, ZSTD 9).
	Level int
	// Overviews (COG only) builds overviews down to one tile (OVERVIEWS=AUTO,
	// default); false for OVERVIEWS=NONE.
	Overviews bool
	// Resampling (COG only) is how overviews are computed: "AVERAGE"
	// (default) or "NEAREST".
	Resampling string
}

// Compression codes.
const cZSTD = 50000

var compressions = map[string]int{"NONE": cNone, "DEFLATE": cDeflate, "LZW": cLZW, "ZSTD": cZSTD}

// optionKeys lists the keys each driver accepts, for error messages.
var optionKeys = map[bool][]string{
	false: {"COMPRESS", "PREDICTOR", "TILED", "BLOCKXSIZE", "BLOCKYSIZE", "BIGTIFF", "ZLEVEL", "ZSTD_LEVEL"},
	true:  {"COMPRESS", "PREDICTOR", "BLOCKSIZE", "BIGTIFF", "LEVEL", "ZLEVEL", "ZSTD_LEVEL", "OVERVIEWS", "RESAMPLING"},
}

// ParseOptions checks the TIFF options of opt: the driver (opt.Driver, ""
// or "GTiff", or "COG"), the creation options (opt.Creation, "KEY=VALUE",
// keys and values in any case) and opt.Compression, the compression of
// the format-independent -compress option (with it, the predictor is YES
// unless PREDICTOR is given). The GTiff defaults are COMPRESS=NONE, strips,
// PREDICTOR=1 and BIGTIFF=IF_NEEDED; the COG defaults COMPRESS=LZW,
// BLOCKSIZE=512, PREDICTOR=1, OVERVIEWS=AUTO and RESAMPLING=AVERAGE.
func ParseOptions(opt hsi.WriteOptions) (Options, error) {
	drv, err := hsi.ParseDriver(string(opt.Driver))
	if err != nil {
		return Options{}, err
	}
	if drv == "" {
		drv = hsi.GTiff
	}
	o := Options{COG: drv == hsi.COG, Compression: cNone, Predictor: 1, BigTIFF: "IF_NEEDED"}
	if o.COG {
		o.Compression, o.Tiled, o.Overviews, o.Resampling = cLZW, true, true, "AVERAGE"
	}
	seen := map[string]string{}
	for _, kv := range opt.Creation {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.ToUpper(strings.TrimSpace(k)), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return Options{}, fmt.Errorf("creation option %q: want KEY=VALUE", kv)
		}
		known := false
		for _, n := range optionKeys[o.COG] {
			known = known || n == k
		}
		if !known {
			return Options{}, fmt.Errorf("creation option %s is not known to the %s driver (have %s)", k, drv, strings.Join(optionKeys[o.COG], ", "))
		}
		if _, dup := seen[k]; dup {
			return Options{}, fmt.Errorf("creation option %s is given twice", k)
		}
		seen[k] = v
	}
	bad := func(k, want string) error {
		return fmt.Errorf("creation option %s=%s: want %s", k, seen[k], want)
	}
	if c := strings.ToLower(string(opt.Compression)); c != "" {
		if _, dup := seen["COMPRESS"]; dup {
			return Options{}, fmt.Errorf("compression is given both as %q and as COMPRESS=%s", opt.Compression, seen["COMPRESS"])
		}
		switch c {
		case "none":
			o.Compression = cNone
		case "deflate", "zip", "zlib":
			o.Compression = cDeflate
		case "lzw":
			o.Compression = cLZW
		case "zstd":
			o.Compression = cZSTD
		default:
			return Options{}, fmt.Errorf("compression %q is not supported (none, deflate, lzw, zstd)", opt.Compression)
		}
		if o.Compression != cNone {
			o.Predictor = 0
		}
	}
	if v, ok := seen["COMPRESS"]; ok {
		c, ok := compressions[strings.ToUpper(v)]
		if !ok {
			return Options{}, bad("COMPRESS", "NONE, DEFLATE, LZW or ZSTD")
		}
		o.Compression = c
	}
	if v, ok := seen["PREDICTOR"]; ok {
		switch strings.ToUpper(v) {
		case "1", "NO", "NONE", "FALSE":
			o.Predictor = 1
		case "2", "STANDARD":
			o.Predictor = 2
		case "3", "FLOATING_POINT":
			o.Predictor = 3
		case "YES", "TRUE":
			o.Predictor = 0
		default:
			return Options{}, bad("PREDICTOR", "1, 2, 3 (or NO, STANDARD, FLOATING_POINT, YES)")
		}
		if o.Compression == cNone && o.Predictor != 1 {
			return Options{}, fmt.Errorf("creation option PREDICTOR=%s needs a compression (COMPRESS=DEFLATE, LZW or ZSTD)", v)
		}
	}
	if v, ok := seen["TILED"]; ok {
		b, ok := parseBool(v)
		if !ok {
			return Options{}, bad("TILED", "YES or NO")
		}
		o.Tiled = b
	}
	num := func(k string, lo, hi int) (int, error) {
		n, err := strconv.Atoi(seen[k])
		if err != nil || n < lo || n > hi {
			return 0, bad(k, fmt.Sprintf("an integer from %d to %d", lo, hi))
		}
		return n, nil
	}
	tileSize := func(k string) (int, error) {
		n, err := num(k, 16, 1<<16)
		if err == nil && n%16 != 0 {
			err = bad(k, "a multiple of 16 (TIFF tiles)")
		}
		return n, err
	}
	if _, ok := seen["BLOCKXSIZE"]; ok {
		if !o.Tiled {
			return Options{}, fmt.Errorf("creation option BLOCKXSIZE applies to tiles: add TILED=YES")
		}
		if o.BlockW, err = tileSize("BLOCKXSIZE"); err != nil {
			return Options{}, err
		}
	}
	if _, ok := seen["BLOCKYSIZE"]; ok {
		if o.Tiled {
			o.BlockH, err = tileSize("BLOCKYSIZE")
		} else {
			o.BlockH, err = num("BLOCKYSIZE", 1, 1<<30)
		}
		if err != nil {
			return Options{}, err
		}
	}
	if _, ok := seen["BLOCKSIZE"]; ok {
		n, err := tileSize("BLOCKSIZE")
		if err != nil {
			return Options{}, err
		}
		o.BlockW, o.BlockH = n, n
	}
	if v, ok := seen["BIGTIFF"]; ok {
		switch u := strings.ToUpper(v); u {
		case "YES", "NO", "IF_NEEDED", "IF_SAFER":
			o.BigTIFF = u
		default:
			return Options{}, bad("BIGTIFF", "YES, NO, IF_NEEDED or IF_SAFER")
		}
	}
	for _, k := range []string{"ZLEVEL", "ZSTD_LEVEL", "LEVEL"} {
		if _, ok := seen[k]; !ok {
			continue
		}
		if o.Level != 0 {
			return Options{}, fmt.Errorf("creation option %s: give one level option only", k)
		}
		var want, lo, hi int
		switch k {
		case "ZLEVEL":
			want, lo, hi = cDeflate, 1, 9
		case "ZSTD_LEVEL":
			want, lo, hi = cZSTD, 1, 22
		default:
			want, lo, hi = o.Compression, 1, 9
			if o.Compression == cZSTD {
				hi = 22
			}
		}
		if o.Compression != want || (want != cDeflate && want != cZSTD) {
			return Options{}, fmt.Errorf("creation option %s does not apply to COMPRESS=%s", k, compressionKey(o.Compression))
		}
		if o.Level, err = num(k, lo, hi); err != nil {
			return Options{}, err
		}
	}
	if v, ok := seen["OVERVIEWS"]; ok {
		switch strings.ToUpper(v) {
		case "AUTO", "IGNORE_EXISTING":
			o.Overviews = true
		case "NONE":
			o.Overviews = false
		default:
			return Options{}, bad("OVERVIEWS", "AUTO or NONE")
		}
	}
	if v, ok := seen["RESAMPLING"]; ok {
		switch u := strings.ToUpper(v); u {
		case "AVERAGE", "NEAREST":
			o.Resampling = u
		default:
			return Options{}, bad("RESAMPLING", "AVERAGE or NEAREST")
		}
	}
	return o, nil
}

func compressionKey(c int) string {
	for k, v := range compressions {
		if v == c {
			return k
		}
	}
	return strconv.Itoa(c)
}

// parseBool reads a GDAL boolean option value.
func parseBool(v string) (bool, bool) {
	switch strings.ToUpper(v) {
	case "YES", "TRUE", "ON", "1":
		return true, true
	case "NO", "FALSE", "OFF", "0":
		return false, true
	}
	return false, false
}
