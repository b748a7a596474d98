//go:build !unix

package formats

import (
	"errors"
	"runtime"
)

// mkfifo fails: this system has no named pipes in its file system, so the
// tests that need one skip.
func mkfifo(path string) error { return errors.New("no named pipes on " + runtime.GOOS) }
