//go:build !unix

package cputime

import "time"

// Process returns 0: this system has no getrusage, and the benchmarks'
// CPU-time metric reads 0 beside their wall time.
func Process() time.Duration { return 0 }
