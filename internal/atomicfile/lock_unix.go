//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// alive reports whether process pid exists (signal 0 succeeds or is
// refused for permission).
func alive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// Lock takes an exclusive lock named for path: flock(2) on the file
// .NAME.omnihsr-lock beside it, waiting while another process holds it.
// The returned function removes the lock file and releases the lock.
func Lock(path string) (unlock func(), err error) {
	lp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".omnihsr-lock")
	for {
		f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		for {
			err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
			if !errors.Is(err, unix.EINTR) {
				break
			}
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		// The holder before us removes the file before it unlocks: retry
		// unless the file locked is still the one at lp.
		held, err1 := f.Stat()
		now, err2 := os.Stat(lp)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return func() {
				os.Remove(lp)
				f.Close()
			}, nil
		}
		f.Close()
	}
}
