package capi

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// FuzzFrontDoor: any options and metadata strings, as Python, QGIS or a C
// caller pass them, give a result or an error, never a panic: upscaling a
// small array (outputs the test cannot hold are checked by
// CheckArrayOutput and skipped; an adaptation is stopped by the context
// after a second), writing it to a file of each writable format, and
// reading that file back a range of rows at a time.
func FuzzFrontDoor(f *testing.F) {
	exts := []string{".tif", ".hdr", ".npy", ".mat", ".png"}
	for _, s := range []string{
		`{}`, `{"scale": 2}`, `{"size": [7, 9]}`, `{"scale": "2.5", "method": "bicubic"}`,
		`{"scale": 2, "nodata": -1, "wavelengths": [400, 500, 600], "bad_bands": [0, 1, 0]}`,
		`{"scale": 2, "noise": "clean", "clamp": "input"}`, `{"scale": 3, "noise": [0.01, 0.02, 0.03]}`,
		`{"scale": 2, "adapt": 1}`, `{"scale": 2, "method": "omnihsr-se", "keep_noisy_bands": true}`,
		`{"type": "uint8", "interleave": "bil"}`, `{"var": "x", "creation": ["COMPRESS=ZSTD"]}`,
	} {
		for i := range exts {
			f.Add(s, `{"wavelengths": [0.45, 0.55, 0.65], "nodata": -1, "crs_wkt": "", "transform": [0, 1, 0, 0, 0, -1]}`, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, opts, meta string, ext uint8) {
		const h, w, b = 6, 5, 3
		data := make([]float32, h*w*b)
		for i := range data {
			data[i] = float32(i%7) + float32(i%b)*0.5
		}
		data[4] = -1 // a no-data sample when the options say -1
		if err := CheckArrayOutput(h, w, b, opts); err == nil {
			if oh, ow, err := OutputSize(h, w, opts); err == nil && int64(oh)*int64(ow)*b <= 1<<20 {
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				out, _, err := UpscaleArray(ctx, append([]float32(nil), data...), h, w, b, opts, nil)
				cancel()
				if err == nil && len(out) != oh*ow*b {
					t.Fatalf("%s: %d samples out, want %d x %d x %d", opts, len(out), oh, ow, b)
				}
			}
		}
		p := filepath.Join(t.TempDir(), "f"+exts[int(ext)%len(exts)])
		if _, err := WriteArray(context.Background(), append([]float32(nil), data...), h, w, b, meta, p, opts); err != nil {
			return
		}
		if _, err := ReadRows(p, opts, 0, 0, nil); err != nil {
			return
		}
		c, _, err := ReadFile(p, opts)
		if err != nil {
			return
		}
		rows := make([]float32, c.W*c.B)
		if _, err := ReadRows(p, opts, c.H-1, c.H, rows); err != nil {
			t.Fatalf("%s: ReadFile reads it, its last row: %v", p, err)
		}
	})
}
