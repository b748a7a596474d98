package formats

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
)

// bigValue is the sample (y, x, b) of the generated images.
func bigValue(y, x, b int) float32 { return float32((y*7+x*3+b*11)%1000) * 0.25 }

// TestRowsMemoryBounded writes a tiled TIFF (deflate, floating-point
// predictor), a stripped one (LZW, predictor 2) and a
// C-order NPY of 1024 x 512 x 8 float32 samples (8192 x 4096 x 8, 1 GiB
// each, with OMNIHSR_BIG=1; OMNIHSR_BIG_DIR the directory) and reads each
// 16 rows at a time through Open: every sample is the one written, and
// the reads allocate at most a tile row of float32 samples (the rows kept
// between calls) plus 16 MiB of buffers, whatever the image's size. The
// allocations and the read speed are logged.
func TestRowsMemoryBounded(t *testing.T) {
	h, w, b := 1024, 512, 8
	dir := t.TempDir()
	if os.Getenv("OMNIHSR_BIG") == "1" {
		h, w = 8192, 4096
		if d := os.Getenv("OMNIHSR_BIG_DIR"); d != "" {
			dir = d
		}
	}
	for _, tc := range []struct {
		name     string
		creation []string
		keep     int // rows a strip or tile row holds (kept between calls)
	}{
		{"tiled.tif", []string{"TILED=YES", "COMPRESS=DEFLATE", "PREDICTOR=3"}, 256},
		{"strips.tif", []string{"COMPRESS=LZW", "PREDICTOR=2"}, 64},
		{"c.npy", nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			defer os.Remove(p)
			wr, err := Create(p, h, w, b, hsi.Meta{}, hsi.WriteOptions{Creation: tc.creation})
			if err != nil {
				t.Fatal(err)
			}
			rows := make([]float32, 16*w*b)
			for y0 := 0; y0 < h; y0 += 16 {
				for i := range rows {
					p := i / b
					rows[i] = bigValue(y0+p/w, p%w, i%b)
				}
				if err := wr.WriteRows(rows); err != nil {
					t.Fatal(err)
				}
			}
			if err := wr.Commit(); err != nil {
				t.Fatal(err)
			}
			src, err := Open(p, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			if hd := src.Header(); hd.H != h || hd.W != w || hd.B != b {
				t.Fatalf("header %dx%dx%d", hd.H, hd.W, hd.B)
			}
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var el time.Duration
			var peak uint64 // the heap's largest size after a call, beyond before's
			bad := 0
			for y0 := 0; y0 < h; y0 += 16 {
				start := time.Now()
				if err := src.ReadRows(y0, y0+16, rows); err != nil {
					t.Fatal(err)
				}
				el += time.Since(start)
				var m runtime.MemStats
				if y0%(16*16) == 0 {
					runtime.ReadMemStats(&m)
					peak = max(peak, m.HeapAlloc-min(m.HeapAlloc, before.HeapAlloc))
				}
				for i, v := range rows {
					p := i / b
					if v != bigValue(y0+p/w, p%w, i%b) {
						bad++
					}
				}
			}
			runtime.ReadMemStats(&after)
			if bad > 0 {
				t.Errorf("%d samples differ from those written", bad)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			// The rows kept and the decoders' buffers, twice over for the
			// garbage the collector lets accumulate (GOGC=100).
			bound := 2 * (uint64(tc.keep*w*b*4) + 16<<20)
			image := uint64(h * w * b * 4)
			t.Logf("%s: %d x %d x %d (%d MiB of float32): reading 16 rows at a time: heap at most %.1f MiB above its start, %.1f MiB allocated in all, %.0f MiB/s of samples; process peak RSS %s",
				tc.name, h, w, b, image>>20, float64(peak)/(1<<20), float64(alloc)/(1<<20), float64(image)/(1<<20)/el.Seconds(), peakRSS())
			if peak > bound {
				t.Errorf("the heap grew by %d MiB, more than twice a tile row and 16 MiB (%d MiB)", peak>>20, bound>>20)
			}
		})
	}
}

// peakRSS is the process's peak resident memory (VmHWM), "" where
// /proc does not tell.
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	return "unknown"
}
