package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// Issue 29: info on a 1.4 KB HDF5 file declaring a 179 TiB cube, an EMIT
// granule with a 16000 x 16000 GLT never written (-ortho) and a PRISMA
// product declaring (100000, bands, 100000) cubes: a clear error naming
// the file (the memory check, before any allocation), not "fatal error:
// runtime: out of memory".
func TestInfoDeclaredSizes(t *testing.T) {
	t.Setenv(memlimit.Env, "512M")
	dir := filepath.Join("..", "..", "hsi", "products", "testdata", "hostile")
	for _, tc := range []struct {
		file string
		args []string
	}{
		{"huge.h5", nil},
		{"huge_gzip.h5", nil},
		{"huge2.h5", nil},
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
