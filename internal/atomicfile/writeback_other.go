//go:build !linux

package atomicfile

// StartWriteback does nothing: this system has no call to start the
// write-back of a file without waiting for it (see the Linux version).
func (f *File) StartWriteback() {}
