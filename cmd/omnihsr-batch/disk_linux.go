package main

import (
	"os"
	"syscall"
)

// fileID returns the device and inode of a file (ok false where unknown).
func fileID(fi os.FileInfo) (id [2]uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return id, false
	}
	return [2]uint64{uint64(st.Dev), st.Ino}, true
}
