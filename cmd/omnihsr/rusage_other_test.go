//go:build !unix

package main

import (
	"os"
	"time"
)

// childUsage reports nothing: the peak memory of a child process is read
// from getrusage, which this system lacks, and the tests that need it skip.
func childUsage(ps *os.ProcessState) (peak int64, user, sys time.Duration, ok bool) {
	return 0, 0, 0, false
}
