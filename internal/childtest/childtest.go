package childtest

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// Env is the environment variable holding the child's role.
const Env = "OMNIHSR_TEST_CHILD"

// Role returns the role this process runs in as a child ("" in the
// parent).
func Role() string { return os.Getenv(Env) }

// Run runs the test named test of this binary as a child with Env=role
// and the extra environment env ("KEY=VALUE"), and returns its combined
// output and error (an *exec.ExitError when it exited nonzero). It skips t
// where the binary cannot be run as a child.
func Run(t *testing.T, test, role string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(append(os.Environ(), Env+"="+role), env...)
	out, err := cmd.CombinedOutput()
	SkipNoExec(t, err)
	return string(out), err
}

// SkipNoExec skips t when err says that a binary could not be run as a
// child: under user-mode emulation (go test -exec qemu-aarch64-static)
// without binfmt_misc, exec fails with ENOEXEC.
func SkipNoExec(t *testing.T, err error) {
	t.Helper()
	if errors.Is(err, syscall.ENOEXEC) {
		t.Skipf("cannot run the test binary as a child here: %v", err)
	}
}

// Tail returns the last 2000 bytes of s (a child's output, which may hold
// a goroutine dump).
func Tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}
