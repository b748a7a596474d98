//go:build linux

package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/internal/childtest"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// Issue 39, failures 2 and 3: the hostile EMIT granule (14 KB declaring a
// 16000 x 16000 GLT: 10.5 GiB with its ortho cube) passed the memory
// check against the physical memory, and under `ulimit -v` Go's allocator
// aborted the process (7.0 GB and 21 s without one). In a child whose
// RLIMIT_AS leaves 4 GiB, `info -ortho` and `convert -ortho` exit 1 with
// the memory check's message, before reading the tables.
func TestOrthoHugeGLTUnderAddressSpaceLimit(t *testing.T) {
	glt := filepath.Join("..", "..", "hsi", "products", "testdata", "hostile", "emit_huge_glt.nc")
	if childtest.Role() == "rlimit-glt" {
		if err := childtest.LowerAddressSpace(4 << 30); err != nil {
			t.Skipf("cannot lower RLIMIT_AS: %v", err)
		}
		for _, args := range [][]string{
			{"info", "-ortho", glt},
			{"convert", "-ortho", "-in", glt, "-out", filepath.Join(t.TempDir(), "o.npy")},
		} {
			var out, errb bytes.Buffer
			code := run(args, &out, &errb)
			if code != 1 || !strings.Contains(errb.String(), "the 16000x16000 GLT and its 16000x16000x7 ortho cube needs 10.5 GiB") {
				t.Fatalf("%s -ortho: exit %d, %q", args[0], code, errb.String())
			}
		}
		t.Logf("refused")
		return
	}
	out, err := childtest.Run(t, "TestOrthoHugeGLTUnderAddressSpaceLimit", "rlimit-glt", memlimit.Env+"=")
	if strings.Contains(out, "--- SKIP") {
		t.Skipf("child skipped:\n%s", childtest.Tail(out))
	}
	if err != nil || !strings.Contains(out, "refused") {
		t.Fatalf("child: %v\n%s", err, childtest.Tail(out))
	}
}
