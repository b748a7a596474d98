package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// TestTIFFCreationFlags: convert and upscale write what -of and -co ask
// for, and the values read back exactly.
func TestTIFFCreationFlags(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "lr.npy")
	lr := testrand.Cube(testrand.New(uint64(40), uint64(36)), 40, 36, 3)
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		detail []string
	}{
		{[]string{"convert", "-co", "COMPRESS=ZSTD", "-co", "PREDICTOR=3", "-co", "TILED=YES", "-co", "BLOCKXSIZE=32", "-co", "BLOCKYSIZE=16"},
			[]string{"ZSTD", "predictor 3", "tiles 32x16"}},
		{[]string{"convert", "-compress", "zstd"}, []string{"ZSTD", "predictor 3", "strips"}},
		{[]string{"convert", "-of", "COG", "-co", "BLOCKSIZE=16", "-co", "BIGTIFF=YES"},
			[]string{"LZW", "tiles 16x16", "BigTIFF", "2 other pages skipped"}},
		{[]string{"upscale", "-method", "bicubic", "-size", "40x36", "-of", "cog", "-co", "COMPRESS=DEFLATE", "-co", "BLOCKSIZE=16"},
			[]string{"deflate", "tiles 16x16", "2 other pages skipped"}},
		{[]string{"upscale", "-method", "bicubic", "-size", "40x36", "-co", "COMPRESS=LZW", "-co", "BLOCKYSIZE=7"},
			[]string{"LZW", "strips of 7 rows"}},
	} {
		out := filepath.Join(dir, "o.tif")
		args := append([]string{tc.args[0], "-in", in, "-out", out}, tc.args[1:]...)
		if code, _, errs := runCmd(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		got, info, err := formats.Read(out, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.detail {
			if !strings.Contains(info.Detail, w) {
				t.Errorf("%v: detail %q lacks %q", tc.args, info.Detail, w)
			}
		}
		// Bicubic at the input's own size returns the input.
		for i := range lr.Data {
			if got.Data[i] != lr.Data[i] {
				t.Fatalf("%v: value %d = %v, want %v", tc.args, i, got.Data[i], lr.Data[i])
			}
		}
	}
}

func TestTIFFCreationFlagErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "lr.npy")
	if err := formats.Write(in, testrand.Cube(testrand.New(uint64(6), uint64(5)), 6, 5, 2), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	tif := filepath.Join(dir, "out", "o.tif")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"convert", "-out", tif, "-co", "COMPRESS=JPEG"}, 2, "COMPRESS=JPEG: want NONE, DEFLATE, LZW or ZSTD"},
		{[]string{"convert", "-out", tif, "-co", "QUALITY=9"}, 2, "QUALITY is not known to the GTiff driver"},
		{[]string{"convert", "-out", tif, "-co", "COMPRESS"}, 2, "want KEY=VALUE"},
		{[]string{"convert", "-out", tif, "-of", "HFA"}, 2, `output format "HFA"`},
		{[]string{"convert", "-out", tif, "-of", "COG", "-co", "TILED=YES"}, 2, "TILED is not known to the COG driver"},
		{[]string{"convert", "-out", tif, "-co", "BLOCKXSIZE=20", "-co", "TILED=YES"}, 2, "multiple of 16"},
		{[]string{"convert", "-out", tif, "-compress", "lzw", "-co", "COMPRESS=ZSTD"}, 2, "given both"},
		{[]string{"convert", "-out", filepath.Join(dir, "out", "o.hdr"), "-co", "COMPRESS=LZW"}, 2, "apply to TIFF output"},
		{[]string{"convert", "-out", tif, "-co", "COMPRESS=LZW", "-co", "PREDICTOR=3", "-type", "uint16"}, 1, "PREDICTOR=3 (floating point) does not apply to uint16"},
		{[]string{"upscale", "-out", tif, "-scale", "2", "-method", "bicubic", "-co", "BIGTIFF=MAYBE"}, 2, "BIGTIFF=MAYBE"},
		{[]string{"upscale", "-out", filepath.Join(dir, "out", "u.npy"), "-scale", "2", "-method", "bicubic", "-of", "COG"}, 2, "apply to TIFF output"},
	} {
		args := append([]string{tc.args[0], "-in", in}, tc.args[1:]...)
		code, _, errs := runCmd(t, args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d, %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "out")); len(ents) != 0 {
		t.Fatalf("left behind: %v", ents)
	}
}
