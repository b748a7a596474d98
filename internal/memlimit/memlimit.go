package memlimit

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
)

// Env is the environment variable that overrides the limit.
const Env = "OMNIHSR_MEM_LIMIT"

// unknown is the limit where neither the machine's memory nor a cgroup
// limit is known.
const unknown = 1 << 40

// ErrTooLarge marks an allocation that does not fit in memory. It is
// hsi.ErrTooLarge, which callers outside the module match.
var ErrTooLarge = hsi.ErrTooLarge

// Limit returns the number of bytes one allocation may take (see the
// package documentation). A malformed OMNIHSR_MEM_LIMIT is ignored.
func Limit() uint64 {
	left := addressSpaceLeft()
	if s := os.Getenv(Env); s != "" {
		if v, err := Parse(s); err == nil {
			if left > 0 && left < v {
				return left // more would abort the process, whatever the override says
			}
			return v
		}
	}
	lim := Physical()
	for _, l := range []uint64{cgroupLimit(), left} {
		if l > 0 && (lim == 0 || l < lim) {
			lim = l
		}
	}
	if lim == 0 {
		return unknown
	}
	return lim
}

// Check returns an error wrapping ErrTooLarge when need bytes exceed
// Limit; what names the allocation in the message ("a 100x100x50 float32
// cube").
func Check(need uint64, what string) error {
	if lim := Limit(); need > lim {
		return fmt.Errorf("%s needs %s, more than the %s of memory available (set %s to override): %w",
			what, Format(need), Format(lim), Env, ErrTooLarge)
	}
	return nil
}

// Parse reads a byte count with an optional K, M, G or T suffix (powers of
// 1024, an optional trailing B, any case): "2048", "512M", "1.5g".
func Parse(s string) (uint64, error) {
	t := strings.TrimSuffix(strings.TrimSpace(strings.ToUpper(s)), "B")
	mul := uint64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mul = 1 << 10
		case 'M':
			mul = 1 << 20
		case 'G':
			mul = 1 << 30
		case 'T':
			mul = 1 << 40
		}
		if mul != 1 {
			t = t[:len(t)-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v < 0 || v*float64(mul) >= 1<<64 {
		return 0, fmt.Errorf("bad byte count %q (want a number with an optional K, M, G or T suffix)", s)
	}
	return uint64(v * float64(mul)), nil
}

// Format prints a byte count with a binary unit, e.g. "1.5 GiB".
func Format(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit && exp < 5; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// cgroupLimit returns the memory limit of this process's cgroup, 0 when
// there is none or it cannot be read.
func cgroupLimit() uint64 {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	defer f.Close()
	return cgroupLimitFrom(f, "/sys/fs/cgroup")
}

// cgroupLimitFrom reads the cgroup list of a process (the format of
// /proc/self/cgroup) and returns the lowest memory limit set for it under
// root, where the cgroup file systems are mounted.
func cgroupLimitFrom(list io.Reader, root string) uint64 {
	var lim uint64
	sc := bufio.NewScanner(list)
	for sc.Scan() {
		// hierarchy-ID:controller-list:cgroup-path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var file string
		switch {
		case parts[0] == "0" && parts[1] == "":
			file = filepath.Join(root, parts[2], "memory.max")
		case hasController(parts[1], "memory"):
			file = filepath.Join(root, "memory", parts[2], "memory.limit_in_bytes")
		default:
			continue
		}
		if v := readLimit(file); v > 0 && (lim == 0 || v < lim) {
			lim = v
		}
	}
	return lim
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// readLimit reads a cgroup limit file: a byte count, or "max" (none, 0).
// cgroup v1 writes "no limit" as a huge page-aligned number, which is
// returned as it is and loses to the physical memory.
func readLimit(path string) uint64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0
	}
	return v
}
