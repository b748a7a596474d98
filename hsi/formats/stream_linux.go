package formats

import (
	"path/filepath"
	"strconv"
	"syscall"
)

// fsKey names the file system that path's directory lives on, so that
// outputs sharing one are counted together.
func fsKey(path string) string {
	var st syscall.Stat_t
	if err := syscall.Stat(filepath.Dir(path), &st); err != nil {
		return filepath.Dir(path)
	}
	return strconv.FormatUint(uint64(st.Dev), 10)
}
