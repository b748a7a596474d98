//go:build !linux

package formats

import "path/filepath"

// freeBytes does not know the free space outside Linux.
func freeBytes(dir string) (uint64, bool) { return 0, false }

// fsKey names the file system of path by its directory outside Linux.
func fsKey(path string) string { return filepath.Dir(path) }
