package tiff

import (
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

func TestParseOptions(t *testing.T) {
	gtiff := Options{Compression: cNone, Predictor: 1, BigTIFF: "IF_NEEDED"}
	cog := Options{COG: true, Compression: cLZW, Predictor: 1, Tiled: true, BigTIFF: "IF_NEEDED", Overviews: true, Resampling: "AVERAGE"}
	with := func(o Options, f func(*Options)) Options { f(&o); return o }
	for _, tc := range []struct {
		driver   string
		compress string
		co       []string
		want     Options
	}{
		{"", "", nil, gtiff},
		{"gtiff", "", nil, gtiff},
		{"COG", "", nil, cog},
		{"cog", "", []string{"compress=zstd", "Predictor=Floating_Point", "BLOCKSIZE=256", "overviews=none"},
			with(cog, func(o *Options) {
				o.Compression, o.Predictor, o.BlockW, o.BlockH, o.Overviews = cZSTD, 3, 256, 256, false
			})},
		{"", "", []string{"COMPRESS=DEFLATE", "PREDICTOR=2", "ZLEVEL=6"}, with(gtiff, func(o *Options) { o.Compression, o.Predictor, o.Level = cDeflate, 2, 6 })},
		{"", "", []string{"COMPRESS=ZSTD", "ZSTD_LEVEL=1", "PREDICTOR=YES"}, with(gtiff, func(o *Options) { o.Compression, o.Predictor, o.Level = cZSTD, 0, 1 })},
		{"", "", []string{"TILED=YES", "BLOCKXSIZE=32", "BLOCKYSIZE=64"}, with(gtiff, func(o *Options) { o.Tiled, o.BlockW, o.BlockH = true, 32, 64 })},
		{"", "", []string{"TILED=NO", "BLOCKYSIZE=7"}, with(gtiff, func(o *Options) { o.BlockH = 7 })},
		{"", "", []string{"BIGTIFF=yes"}, with(gtiff, func(o *Options) { o.BigTIFF = "YES" })},
		{"", "lzw", nil, with(gtiff, func(o *Options) { o.Compression, o.Predictor = cLZW, 0 })},
		{"", "zstd", []string{"PREDICTOR=1"}, with(gtiff, func(o *Options) { o.Compression, o.Predictor = cZSTD, 1 })},
		{"COG", "", []string{"COMPRESS=NONE", "RESAMPLING=nearest", "LEVEL=3"}, Options{}}, // LEVEL does not apply to NONE
		{"COG", "", []string{"COMPRESS=DEFLATE", "LEVEL=3", "RESAMPLING=nearest"},
			with(cog, func(o *Options) { o.Compression, o.Level, o.Resampling = cDeflate, 3, "NEAREST" })},
	} {
		got, err := ParseOptions(hsi.WriteOptions{Driver: hsi.Driver(tc.driver), Compression: hsi.Compression(tc.compress), Creation: tc.co})
		if tc.want == (Options{}) {
			if err == nil {
				t.Errorf("%s %v: no error", tc.driver, tc.co)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s %q %v:\n got %+v, %v\nwant %+v", tc.driver, tc.compress, tc.co, got, err, tc.want)
		}
	}
}

func TestParseOptionsErrors(t *testing.T) {
	for _, tc := range []struct {
		driver, compress string
		co               []string
		want             string
	}{
		{"PNG", "", nil, `output format "PNG"`},
		{"", "", []string{"COMPRESS"}, "want KEY=VALUE"},
		{"", "", []string{"=LZW"}, "want KEY=VALUE"},
		{"", "", []string{"COMPRESS="}, "want KEY=VALUE"},
		{"", "", []string{"QUALITY=75"}, "QUALITY is not known to the GTiff driver"},
		{"", "", []string{"BLOCKSIZE=256"}, "BLOCKSIZE is not known to the GTiff driver"},
		{"COG", "", []string{"TILED=YES"}, "TILED is not known to the COG driver"},
		{"COG", "", []string{"BLOCKXSIZE=256"}, "BLOCKXSIZE is not known to the COG driver"},
		{"", "", []string{"COMPRESS=JPEG"}, "COMPRESS=JPEG: want NONE, DEFLATE, LZW or ZSTD"},
		{"", "", []string{"COMPRESS=LZW", "COMPRESS=ZSTD"}, "COMPRESS is given twice"},
		{"", "deflate", []string{"COMPRESS=ZSTD"}, "given both"},
		{"", "brotli", nil, `compression "brotli" is not supported`},
		{"", "", []string{"PREDICTOR=2"}, "PREDICTOR=2 needs a compression"},
		{"", "", []string{"COMPRESS=LZW", "PREDICTOR=4"}, "PREDICTOR=4: want 1, 2, 3"},
		{"", "", []string{"TILED=MAYBE"}, "TILED=MAYBE: want YES or NO"},
		{"", "", []string{"BLOCKXSIZE=32"}, "BLOCKXSIZE applies to tiles"},
		{"", "", []string{"TILED=YES", "BLOCKXSIZE=30"}, "a multiple of 16"},
		{"", "", []string{"TILED=YES", "BLOCKYSIZE=0"}, "an integer from 16"},
		{"", "", []string{"BLOCKYSIZE=-3"}, "an integer from 1"},
		{"", "", []string{"BLOCKYSIZE=ten"}, "BLOCKYSIZE=ten"},
		{"COG", "", []string{"BLOCKSIZE=100"}, "a multiple of 16"},
		{"", "", []string{"BIGTIFF=MAYBE"}, "YES, NO, IF_NEEDED or IF_SAFER"},
		{"", "", []string{"COMPRESS=LZW", "ZLEVEL=5"}, "ZLEVEL does not apply to COMPRESS=LZW"},
		{"", "", []string{"COMPRESS=DEFLATE", "ZLEVEL=12"}, "an integer from 1 to 9"},
		{"", "", []string{"COMPRESS=ZSTD", "ZSTD_LEVEL=23"}, "an integer from 1 to 22"},
		{"COG", "", []string{"COMPRESS=DEFLATE", "ZLEVEL=2", "LEVEL=3"}, "one level option only"},
		{"COG", "", []string{"OVERVIEWS=SOME"}, "AUTO or NONE"},
		{"COG", "", []string{"RESAMPLING=CUBIC"}, "AVERAGE or NEAREST"},
	} {
		_, err := ParseOptions(hsi.WriteOptions{Driver: hsi.Driver(tc.driver), Compression: hsi.Compression(tc.compress), Creation: tc.co})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q %v: err = %v, want %q", tc.driver, tc.compress, tc.co, err, tc.want)
		}
	}
}
