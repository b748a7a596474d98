package atomicfile

import (
	"errors"
	"syscall"
)

// isNoSpace reports whether err says that the disk is full
// (ERROR_DISK_FULL, ERROR_HANDLE_DISK_FULL).
func isNoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.Errno(112)) || errors.Is(err, syscall.Errno(39))
}
