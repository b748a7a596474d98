package atomicfile

import "syscall"

// DiskFree returns the space available to unprivileged users on the file
// system of dir, the figure a streamed output is checked against before it
// is written (hsi.ErrNoSpace), or false where it cannot be told.
func DiskFree(dir string) (uint64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || st.Bsize <= 0 {
		return 0, false
	}
	return st.Bavail * uint64(st.Bsize), true
}
