//go:build linux

package childtest

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// LowerAddressSpace sets the soft RLIMIT_AS of this process to what it
// maps now (VmSize) plus room bytes, as `ulimit -v` would: for a child,
// since the parent's tests need their address space.
func LowerAddressSpace(room uint64) error {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return err
	}
	var used uint64
	found := false
	for _, ln := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(ln, "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return err
			}
			used, found = kb<<10, true
		}
	}
	if !found {
		return errors.New("no VmSize in /proc/self/status")
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil {
		return err
	}
	rl.Cur = min(used+room, rl.Max)
	return syscall.Setrlimit(syscall.RLIMIT_AS, &rl)
}
