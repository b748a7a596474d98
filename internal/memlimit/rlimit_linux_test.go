//go:build linux

package memlimit

import (
	"syscall"
	"testing"
)

// Issue 39: under `ulimit -v` an output that fit the physical memory made
// Go's allocator abort the host process. Limit is the address space left
// under RLIMIT_AS (less an eighth), whatever OMNIHSR_MEM_LIMIT says.
func TestLimitUnderRlimitAS(t *testing.T) {
	used, ok := statusBytes("VmSize:")
	if !ok {
		t.Skip("no VmSize in /proc/self/status")
	}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &old); err != nil {
		t.Fatal(err)
	}
	const room = 1 << 30
	if old.Cur < used+room {
		t.Skipf("RLIMIT_AS %d already below VmSize + 1 GiB", old.Cur)
	}
	lowered := old
	lowered.Cur = used + room
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lowered); err != nil {
		t.Skipf("cannot lower RLIMIT_AS: %v", err)
	}
	defer func() {
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &old); err != nil {
			t.Fatalf("restore RLIMIT_AS: %v", err)
		}
	}()
	var now syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &now); err != nil || now.Cur != lowered.Cur {
		// qemu-user keeps RLIMIT_AS for itself: the guest's setrlimit is
		// ignored.
		t.Skipf("RLIMIT_AS did not change (%d after setting %d): the system ignores it here (user-mode emulation)", now.Cur, lowered.Cur)
	}
	for _, env := range []string{"", "1T"} {
		t.Setenv(Env, env)
		got := Limit()
		if got == 0 || got > room/8*7 {
			t.Errorf("%s=%q, RLIMIT_AS = VmSize + 1 GiB: Limit %s, want at most %s", Env, env, Format(got), Format(room/8*7))
		}
		if err := Check(2*room, "a 2 GiB cube"); err == nil {
			t.Errorf("%s=%q: 2 GiB accepted under RLIMIT_AS = VmSize + 1 GiB", Env, env)
		}
	}
	t.Setenv(Env, "1K")
	if got := Limit(); got != 1024 {
		t.Errorf("%s=1K under RLIMIT_AS: Limit %d, want the lower override", Env, got)
	}
}
