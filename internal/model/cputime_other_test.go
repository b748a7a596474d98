//go:build !unix

package model

import "time"

// cpuTime is 0 where getrusage is missing: the benchmarks' cpu-ms/op
// metric then reads 0, and their wall time stands alone.
func cpuTime() time.Duration { return 0 }
