//go:build unix

package formats

import "syscall"

// mkfifo makes a named pipe at path (tests of inputs that are not regular
// files).
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
