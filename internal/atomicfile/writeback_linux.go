package atomicfile

import "golang.org/x/sys/unix"

// writebackSupported reports whether writeback does anything here.
const writebackSupported = true

// writeback asks the kernel to start writing the n bytes of the file at
// offset off to disk now (sync_file_range with SYNC_FILE_RANGE_WRITE),
// without waiting for the writes to complete (it may wait for room in the
// disk's request queue), so that the sync of Commit finds little left to
// write: a streamed output is written back while the rest of it is
// computed instead of all at the end. It is a hint: it makes nothing
// durable (Commit does) and its failure changes nothing, so it returns no
// error. On systems without such a call it does nothing.
func (f *File) writeback(off, n int64) {
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) {
			_ = unix.SyncFileRange(int(fd), off, n, unix.SYNC_FILE_RANGE_WRITE)
		})
	}
}
