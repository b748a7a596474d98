package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// launchEnv names the file a launcher (this test binary run by
// runMeasured) writes its child's resource usage to.
const launchEnv = "OMNIHSR_RUSAGE_LAUNCH"

// runMeasured runs cmd through a fresh copy of this test binary, which
// starts it and reports its peak resident memory and CPU times (as
// childUsage). A child started by the test binary directly would report
// the test binary's own peak when that is higher: Linux starts children
// on the parent's memory (vfork) and keeps its high-water mark when exec
// replaces it, so the peak of a test binary that other tests made grow
// would be taken for the child's. The launcher is a new, small process.
func runMeasured(cmd *exec.Cmd) (peak int64, user, sys time.Duration, ok bool, err error) {
	out := filepath.Join(os.TempDir(), fmt.Sprintf("omnihsr-rusage-%d-%d", os.Getpid(), time.Now().UnixNano()))
	defer os.Remove(out)
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	l := exec.Command(os.Args[0], cmd.Args...)
	l.Args[1] = cmd.Path
	l.Env = append(env[:len(env):len(env)], launchEnv+"="+out)
	l.Dir, l.Stdin, l.Stdout, l.Stderr = cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr
	err = l.Run()
	b, rerr := os.ReadFile(out)
	if rerr != nil {
		return 0, 0, 0, false, errors.Join(err, fmt.Errorf("launcher's report: %w", rerr))
	}
	var u, s int64
	if _, serr := fmt.Sscanf(string(b), "%d %d %d %t", &peak, &u, &s, &ok); serr != nil {
		return 0, 0, 0, false, errors.Join(err, fmt.Errorf("launcher's report %q: %w", b, serr))
	}
	return peak, time.Duration(u), time.Duration(s), ok, err
}

// launch is the launcher's side of runMeasured: it runs os.Args[1:], writes
// its usage to the file out and returns its exit code.
func launch(out string) int {
	c := exec.Command(os.Args[1], os.Args[2:]...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, launchEnv+"=") {
			c.Env = append(c.Env, kv)
		}
	}
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := c.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		fmt.Fprintln(os.Stderr, "launcher:", err)
		return 125
	}
	peak, user, sys, ok := childUsage(c.ProcessState)
	if werr := os.WriteFile(out, fmt.Appendf(nil, "%d %d %d %t", peak, int64(user), int64(sys), ok), 0o644); werr != nil {
		fmt.Fprintln(os.Stderr, "launcher:", werr)
		return 125
	}
	return code
}

// TestRunMeasuredExcludesParent: with 256 MiB of this test binary's memory
// touched, a small child measured through runMeasured reports well under
// it (on Linux, measured directly it reports at least the test binary's
// peak, the error runMeasured exists for).
func TestRunMeasuredExcludesParent(t *testing.T) {
	ballast := make([]byte, 256<<20)
	for i := range ballast {
		ballast[i] = byte(i)
	}
	child := func() *exec.Cmd {
		c := exec.Command(os.Args[0], "version")
		c.Env = append(os.Environ(), "OMNIHSR_TEST_MAIN=1")
		return c
	}
	peak, _, _, ok, err := runMeasured(child())
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Skip("no peak memory of a child process on this system")
	}
	t.Logf("child through the launcher: peak RSS %.0f MiB", float64(peak)/(1<<20))
	if peak > 128<<20 {
		t.Errorf("child measured through the launcher: peak RSS %.0f MiB, the test binary's 256 MiB counted", float64(peak)/(1<<20))
	}
	if runtime.GOOS == "linux" {
		c := child()
		if err := c.Run(); err != nil {
			t.Fatal(err)
		}
		direct, _, _, _ := childUsage(c.ProcessState)
		t.Logf("child started directly: peak RSS %.0f MiB", float64(direct)/(1<<20))
		if direct < 256<<20 {
			t.Logf("this kernel does not count the parent's memory in a child's peak (%.0f MiB)", float64(direct)/(1<<20))
		}
	}
	runtime.KeepAlive(ballast)
}
