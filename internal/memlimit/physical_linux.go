//go:build linux

package memlimit

import (
	"sync"
	"syscall"
)

var physical = sync.OnceValue(func() uint64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return uint64(si.Totalram) * uint64(si.Unit)
})

// Physical returns the machine's physical memory in bytes (0 if unknown).
func Physical() uint64 { return physical() }
