//go:build linux

package omnihsr

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/childtest"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// Issue 39, failure 2: an output larger than the address space left under
// RLIMIT_AS (4 x 4 x 3 to 20000 x 20000, 4.5 GiB, under VmSize + 2 GiB)
// made Go's allocator abort the process. It is an error wrapping
// hsi.ErrTooLarge, before any work.
func TestUpscaleUnderAddressSpaceLimit(t *testing.T) {
	if childtest.Role() == "rlimit-upscale" {
		if err := childtest.LowerAddressSpace(2 << 30); err != nil {
			t.Skipf("cannot lower RLIMIT_AS: %v", err)
		}
		_, _, err := Upscale(context.Background(), testCube(1, 4, 4, 3), Options{Size: [2]int{20000, 20000}, Method: MethodBicubic})
		if !errors.Is(err, hsi.ErrTooLarge) {
			t.Fatalf("4x4x3 to 20000x20000 under RLIMIT_AS = VmSize + 2 GiB: %v; want ErrTooLarge", err)
		}
		t.Logf("refused: %v", err)
		return
	}
	out, err := childtest.Run(t, "TestUpscaleUnderAddressSpaceLimit", "rlimit-upscale", memlimit.Env+"=")
	if err != nil || !strings.Contains(out, "refused: ") {
		t.Fatalf("child: %v\n%s", err, childtest.Tail(out))
	}
}
