//go:build !linux

package bench

// resetPeakRSS does nothing where the system has no way to reset a
// process's peak resident memory.
func resetPeakRSS() {}
