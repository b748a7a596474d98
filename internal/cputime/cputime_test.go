package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessGrows checks that busy work shows in the CPU time, on the
// systems that report it.
func TestProcessGrows(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no getrusage on", runtime.GOOS)
	}
	start := Process()
	x := 1.0
	for deadline := time.Now().Add(50 * time.Millisecond); time.Now().Before(deadline); {
		for i := 0; i < 1000; i++ {
			x = x*1.0000001 + 1e-9
		}
	}
	if d := Process() - start; d < 10*time.Millisecond || x == 0 {
		t.Fatalf("50 ms of busy work added %v of CPU time", d)
	}
}
