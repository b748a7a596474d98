//go:build !linux

package formats

import "path/filepath"

// fsKey names the file system of path by its directory outside Linux.
func fsKey(path string) string { return filepath.Dir(path) }
