//go:build linux

package memlimit

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// addressSpaceLeft returns how many more bytes the process may map under
// its soft RLIMIT_AS and RLIMIT_DATA (ulimit -v, ulimit -d, as HPC
// schedulers and some containers set them): each limit less what the
// process maps already (VmSize, VmData in /proc/self/status), the lesser
// of the two, an eighth kept for the runtime's own mappings (heap
// metadata, thread stacks); 0 when neither is set. Go's allocator aborts
// the process when a mapping fails, so an allocation must fit in this.
func addressSpaceLeft() uint64 {
	var left uint64
	for _, r := range []struct {
		res   int
		field string
	}{{syscall.RLIMIT_AS, "VmSize:"}, {syscall.RLIMIT_DATA, "VmData:"}} {
		var rl syscall.Rlimit
		if syscall.Getrlimit(r.res, &rl) != nil || rl.Cur >= 1<<62 { // RLIM_INFINITY is all ones
			continue
		}
		l := uint64(1) // nothing left: refuse every allocation
		if used, ok := statusBytes(r.field); ok && used < rl.Cur {
			l = max((rl.Cur-used)/8*7, 1)
		} else if !ok {
			l = rl.Cur / 8 * 7
		}
		if left == 0 || l < left {
			left = l
		}
	}
	return left
}

// statusBytes reads a "kB" field of /proc/self/status ("VmSize:") in bytes.
func statusBytes(field string) (uint64, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), field)
		if !ok {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0, false
		}
		return v << 10, true
	}
	return 0, false
}
