//go:build !unix && !windows

package atomicfile

// isNoSpace reports whether err says that the file system is full: never
// told apart here.
func isNoSpace(error) bool { return false }
