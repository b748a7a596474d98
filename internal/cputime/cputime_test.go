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
	// Busy work until the CPU time has grown 10 ms, or a minute of wall
	// time has passed: on a loaded machine (or under emulation) 50 ms of
	// wall time may hold only a few ms of this process's CPU time.
	start := Process()
	x := 1.0
	d := time.Duration(0)
	for deadline := time.Now().Add(time.Minute); d < 10*time.Millisecond && time.Now().Before(deadline); d = Process() - start {
		for i := 0; i < 100000; i++ {
			x = x*1.0000001 + 1e-9
		}
	}
	if d < 10*time.Millisecond || x == 0 {
		t.Fatalf("a minute of busy work added %v of CPU time", d)
	}
}
