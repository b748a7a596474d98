package main

import (
	"os/exec"
	"strings"
	"testing"
)

func TestParseScene(t *testing.T) {
	for _, c := range []struct {
		in   string
		want [3]int
		ok   bool
	}{
		{"512x512x102", [3]int{512, 512, 102}, true},
		{"1242X1280x285", [3]int{1242, 1280, 285}, true},
		{"512x512", [3]int{}, false},
		{"512x0x102", [3]int{}, false},
		{"axbxc", [3]int{}, false},
		{"1x2x3x4", [3]int{}, false},
	} {
		got, err := parseScene(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("parseScene(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestBenchSceneUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "-scene", "512x512"},
		{"bench", "-scene", "8x8x2", "-scene-factors", "0"},
	} {
		code, _, errs := runCmd(t, args...)
		if code != 2 || !strings.Contains(errs, "-scene") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error naming -scene", args, code, errs)
		}
	}
}

func TestBenchSceneFormatUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "-scene", "8x8x2", "-of", "PNG"},
		{"bench", "-scene", "8x8x2", "-co", "TILED=YES"},
		{"bench", "-scene", "8x8x2", "-of", "GTiff", "-co", "COMPRESS=BOGUS"},
		{"bench", "-co", "TILED=YES"},
	} {
		code, _, errs := runCmd(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, errs)
		}
	}
}

// bench -scene on a tiny scene writing tiled, DEFLATE-compressed GeoTIFF:
// every command runs (this test binary stands in for omnihsr, and GDAL
// when gdal_translate is on the PATH) and the table names the format and
// its creation options.
func TestBenchSceneGTiff(t *testing.T) {
	t.Setenv("OMNIHSR_TEST_MAIN", "1") // the children are this binary run as omnihsr
	code, out, errs := runCmd(t, "bench", "-scene", "16x12x6", "-scene-factors", "2", "-dir", t.TempDir(),
		"-of", "GTiff", "-co", "TILED=YES", "-co", "COMPRESS=DEFLATE")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := []string{"GTiff (TILED=YES, COMPRESS=DEFLATE) out", "| x2 | 32 x 24 | `omnihsr upscale -method bicubic` |", "| x2 | 32 x 24 | `omnihsr upscale` |", "| encoder |"}
	if _, err := exec.LookPath("gdal_translate"); err == nil {
		want = append(want, "| x2 | 32 x 24 | `gdal_translate -r cubic` |")
	} else {
		t.Log("gdal_translate is not on the PATH: GDAL's rows not checked")
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}
