//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// isNoSpace reports whether err says that the file system or the user's
// quota is full.
func isNoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}
