//go:build !linux

package memlimit

// Physical returns 0 (unknown) off Linux: Limit then rests on
// OMNIHSR_MEM_LIMIT or its 1 TiB default.
func Physical() uint64 { return 0 }
