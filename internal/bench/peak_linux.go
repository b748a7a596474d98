package bench

import (
	"os"
	"runtime/debug"
)

// resetPeakRSS returns the freed heap to the system and resets this
// process's peak resident memory to its current value (Linux
// /proc/self/clear_refs, "5"). A child started with Go's os/exec shares this
// process's address space until it execs, and Linux carries that address
// space's peak into the child's rusage: without the reset a child's peak
// RSS is at least this process's own peak (the synthetic scene it wrote).
// Kernels without the file leave the peak as it is.
func resetPeakRSS() {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}
