package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// TestMain lets a test run this binary as the omnihsr command (with the
// signal handling of main) by setting OMNIHSR_TEST_MAIN=1, and runMeasured
// run it as a launcher (launchEnv).
func TestMain(m *testing.M) {
	if out := os.Getenv(launchEnv); out != "" {
		os.Exit(launch(out))
	}
	if os.Getenv("OMNIHSR_TEST_MAIN") == "1" {
		os.Args = append([]string{"omnihsr"}, os.Args[1:]...)
		main()
		return
	}
	os.Exit(m.Run())
}

// startOmnihsr starts this test binary as `omnihsr args...`.
func startOmnihsr(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "OMNIHSR_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stderr
}

// waitTemp waits until dir holds a temporary file and returns its name.
func waitTemp(t *testing.T, dir string) string {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.Contains(e.Name(), ".omnihsr-tmp-") {
				return e.Name()
			}
		}
	}
	t.Fatal("no temporary file appeared")
	return ""
}

// bigUpscaleArgs makes an input whose x100 upscaling (4000 x 4000 x 4,
// 256 MB) runs long enough to be interrupted, and returns the arguments.
func bigUpscaleArgs(t *testing.T, dir string) []string {
	in := filepath.Join(dir, "lr.npy")
	if err := formats.Write(in, testrand.Cube(testrand.New(uint64(40), uint64(40)), 40, 40, 4), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return []string{"upscale", "-in", in, "-out", filepath.Join(dir, "o", "out.hdr"), "-scale", "100", "-method", "bicubic"}
}

// SIGINT, SIGTERM and SIGHUP during an upscale remove its temporary files,
// print one line and exit with 128 + the signal.
func TestSignalsRemoveTemporaries(t *testing.T) {
	if testing.Short() {
		t.Skip("writes up to 256 MB")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sigName[sig], func(t *testing.T) {
			dir := t.TempDir()
			args := bigUpscaleArgs(t, dir)
			os.MkdirAll(filepath.Join(dir, "o"), 0o755)
			cmd, stderr := startOmnihsr(t, args...)
			waitTemp(t, filepath.Join(dir, "o"))
			cmd.Process.Signal(sig)
			cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 128+int(sig) {
				t.Errorf("exit %d, want %d", code, 128+int(sig))
			}
			want := fmt.Sprintf("omnihsr upscale: interrupted by %s; removed the unfinished %s", sigName[sig], filepath.Join(dir, "o", "out.img"))
			if got := strings.TrimSpace(stderr.String()); !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 0 {
				t.Errorf("stderr %q, want one line starting %q", got, want)
			}
			if ents, _ := os.ReadDir(filepath.Join(dir, "o")); len(ents) != 0 {
				t.Errorf("left %v", ents)
			}
		})
	}
}

// A temporary file left by SIGKILL is named for its output and PID, and the
// next run writing the same output removes it.
func TestKilledRunTemporaryRemovedByNextRun(t *testing.T) {
	if testing.Short() {
		t.Skip("writes up to 256 MB")
	}
	dir := t.TempDir()
	args := bigUpscaleArgs(t, dir)
	os.MkdirAll(filepath.Join(dir, "o"), 0o755)
	cmd, _ := startOmnihsr(t, args...)
	tmp := waitTemp(t, filepath.Join(dir, "o"))
	cmd.Process.Kill()
	cmd.Wait()
	if want := fmt.Sprintf(".out.img.omnihsr-tmp-%d-", cmd.Process.Pid); !strings.HasPrefix(tmp, want) {
		t.Errorf("temporary file %s, want prefix %s", tmp, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "o", tmp)); err != nil {
		t.Fatalf("SIGKILL left no temporary file: %v", err)
	}
	args[len(args)-3] = "2" // -scale
	if code, stderr := runRsCmd(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "o"))
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "out.hdr out.img" {
		t.Errorf("after the next run the directory holds %v, want out.hdr out.img", names)
	}
}

// sigName names the stop signals as the commands print them.
var sigName = map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}
