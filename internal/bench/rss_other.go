//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package bench

import (
	"os"
)

// maxRSS is 0 where the system does not report a child's peak memory.
func maxRSS(*os.ProcessState) int64 { return 0 }
