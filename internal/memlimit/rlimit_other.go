//go:build !linux

package memlimit

// addressSpaceLeft returns 0 (no limit known) off Linux.
func addressSpaceLeft() uint64 { return 0 }
