package main

import (
	"os"
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

// fileID returns the device and inode of a file (ok false where unknown).
func fileID(fi os.FileInfo) (id [2]uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return id, false
	}
	return [2]uint64{uint64(st.Dev), st.Ino}, true
}
