//go:build !linux

package atomicfile

// DiskFree does not know the free space outside Linux.
func DiskFree(dir string) (uint64, bool) { return 0, false }
