package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// Issue 29: info on a 1.4 KB HDF5 file declaring a 179 TiB cube (and its
// gzip and 19 GiB variants) describes it without holding the cube: the
// rows the file never wrote (the Source's RowRun) count as their fill
// value (0 here) without being read, and a 149 GiB dataset with one chunk
// written has only the rows of that chunk read, and one whose written chunk lies in rows of 200000 x
// 300 samples (240 MB) has them read in windows of whole chunks, so less
// than 64 MiB is allocated (72 MiB with a window; before: "fatal error:
// runtime: out of memory"). A row of an image that is not chunked, wider than the memory
// limit allows (an ENVI row of 4.8 MB under 4 MiB), an EMIT granule whose
// 16000 x 16000 GLT was never written (-ortho) and a PRISMA product
// declaring (100000, bands, 100000) cubes, which are read whole, give the
// memory check's error naming the file.
func TestInfoDeclaredSizes(t *testing.T) {
	t.Setenv(memlimit.Env, "512M")
	dir := filepath.Join("..", "..", "hsi", "products", "testdata", "hostile")
	for _, tc := range []struct {
		file, shape, values string
		mib                 uint64 // allocated at most
	}{
		// 62 MiB of it is the noise screen's grid of 300 bands and its work
		{"huge.h5", "200000 x 200000 x 300", "0 .. 0", 64},
		{"huge_gzip.h5", "200000 x 200000 x 300", "0 .. 0", 64},
		{"huge2.h5", "50000 x 50000 x 2", "0 .. 0", 64},
		{"sparse_big.h5", "100000 x 100000 x 4", "0 .. 1024", 64},
		// the grid and a window of 64 x 64 x 300 samples (4.7 MiB)
		{"wide_written.h5", "200000 x 200000 x 300", "0 .. 1", 72},
	} {
		p := filepath.Join(dir, tc.file)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		code, out, stderr := runCmd(t, "info", p)
		runtime.ReadMemStats(&m1)
		if code != 0 || !strings.Contains(out, "shape:          "+tc.shape) || !strings.Contains(out, "value range:    "+tc.values+"\n") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", tc.file, code, out, stderr)
		}
		a := m1.TotalAlloc - m0.TotalAlloc
		if a > tc.mib<<20 {
			t.Errorf("%s: info allocated %d MiB", tc.file, a>>20)
		}
		t.Logf("%s: %.1f MiB allocated", tc.file, float64(a)/(1<<20))
	}
	t.Run("wide row", func(t *testing.T) {
		// 2 rows of 300000 x 4 float32 samples (4.8 MB each), all 0
		p := filepath.Join(t.TempDir(), "wide.hdr")
		hdr := "ENVI\nsamples = 300000\nlines = 2\nbands = 4\nheader offset = 0\ndata type = 4\ninterleave = bip\nbyte order = 0\n"
		if err := os.WriteFile(p, []byte(hdr), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(strings.TrimSuffix(p, ".hdr")+".img", nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(strings.TrimSuffix(p, ".hdr")+".img", 2*300000*4*4); err != nil {
			t.Fatal(err)
		}
		if code, out, stderr := runCmd(t, "info", p); code != 0 || !strings.Contains(out, "value range:    0 .. 0\n") {
			t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
		}
		t.Setenv(memlimit.Env, "4M")
		code, stderr := runRsCmd(t, "info", p)
		if code == 0 || !strings.Contains(stderr, p+": 1 row(s) of 300000 x 4 samples") || !strings.Contains(stderr, memlimit.ErrTooLarge.Error()) {
			t.Errorf("exit %d, stderr %q: want an error naming the file and the row, saying %q", code, stderr, memlimit.ErrTooLarge)
		}
	})
	for _, tc := range []struct {
		file string
		args []string
	}{
		{"emit_huge_glt.nc", []string{"-ortho"}},
		{"prisma_huge.he5", nil},
	} {
		p := filepath.Join(dir, tc.file)
		code, stderr := runRsCmd(t, append(append([]string{"info"}, tc.args...), p)...)
		if code == 0 || !strings.Contains(stderr, p) || !strings.Contains(stderr, memlimit.ErrTooLarge.Error()) {
			t.Errorf("%s: exit %d, stderr %q: want an error naming the file and saying %q", tc.file, code, stderr, memlimit.ErrTooLarge)
		}
	}
}
