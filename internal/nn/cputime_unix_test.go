//go:build unix

package nn

import (
	"syscall"
	"time"
)

// cpuTime is the process's user + system CPU time so far. Benchmarks
// report CPU time per op beside wall time: on a machine shared with other
// jobs, wall time measures the contention as much as the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
