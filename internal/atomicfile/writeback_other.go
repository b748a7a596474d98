//go:build !linux

package atomicfile

// writebackSupported reports whether writeback does anything here.
const writebackSupported = false

// writeback does nothing: this system has no call to start the
// write-back of a file without waiting for it (see the Linux version).
func (f *File) writeback(off, n int64) {}
