//go:build linux

package capi

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/childtest"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// Issue 39, failure 2: Python's omnihsr.upscale(np.ones((4, 4, 3)),
// size=(20000, 20000)) aborted the host process under an address-space
// limit: the caller's 4.5 GiB output buffer fit, the library's rendering
// of the output did not, and Go's allocator aborted. In a child whose
// RLIMIT_AS leaves 6 GiB, with the caller's buffer mapped as Python's is,
// the call is an error wrapping ErrTooLarge.
func TestUpscaleIntoCallersBufferUnderAddressSpaceLimit(t *testing.T) {
	if childtest.Role() == "rlimit-array" {
		if err := childtest.LowerAddressSpace(6 << 30); err != nil {
			t.Skipf("cannot lower RLIMIT_AS: %v", err)
		}
		const n = 20000 * 20000 * 3
		buf, err := syscall.Mmap(-1, 0, 4*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			t.Skipf("cannot map the caller's buffer: %v", err)
		}
		defer syscall.Munmap(buf)
		const opts = `{"size": [20000, 20000], "method": "bicubic"}`
		in := make([]float32, 4*4*3)
		err = CheckArrayOutput(4, 4, 3, opts)
		if !errors.Is(err, hsi.ErrTooLarge) {
			t.Fatalf("checkArrayOutput: %v; want ErrTooLarge", err)
		}
		_, _, err = UpscaleArray(context.Background(), in, 4, 4, 3, opts, nil)
		if !errors.Is(err, hsi.ErrTooLarge) {
			t.Fatalf("upscaleArray: %v; want ErrTooLarge", err)
		}
		t.Logf("refused: %v", err)
		return
	}
	out, err := childtest.Run(t, "TestUpscaleIntoCallersBufferUnderAddressSpaceLimit", "rlimit-array", memlimit.Env+"=")
	if strings.Contains(out, "SKIP") {
		t.Skipf("child skipped:\n%s", childtest.Tail(out))
	}
	if err != nil || !strings.Contains(out, "refused: ") {
		t.Fatalf("child: %v\n%s", err, childtest.Tail(out))
	}
}
