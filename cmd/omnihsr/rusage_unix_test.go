//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// childUsage returns a finished child process's peak resident memory in
// bytes and its user and system CPU time; ok is false where the system
// does not report them.
func childUsage(ps *os.ProcessState) (peak int64, user, sys time.Duration, ok bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0, 0, false
	}
	peak = int64(ru.Maxrss)
	if runtime.GOOS != "darwin" {
		peak *= 1024 // KiB on Linux and the BSDs, bytes on macOS
	}
	return peak, time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano()), true
}
