package formats

import (
	"path/filepath"
	"strconv"
	"syscall"
)

// freeBytes returns the space available to unprivileged users on the file
// system of dir.
func freeBytes(dir string) (uint64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || st.Bsize <= 0 {
		return 0, false
	}
	return st.Bavail * uint64(st.Bsize), true
}

// fsKey names the file system that path's directory lives on, so that
// outputs sharing one are counted together.
func fsKey(path string) string {
	var st syscall.Stat_t
	if err := syscall.Stat(filepath.Dir(path), &st); err != nil {
		return filepath.Dir(path)
	}
	return strconv.FormatUint(uint64(st.Dev), 10)
}
