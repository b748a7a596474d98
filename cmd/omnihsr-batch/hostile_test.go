package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// noTemp checks that the directory TMPDIR pointed at during a run holds
// nothing of the command's (omnihsr-batch-*, omnihsr-scene-*).
func noTemp(t *testing.T, dir string) {
	t.Helper()
	for _, pat := range []string{"omnihsr-batch-*", "omnihsr-scene-*", "beamloopbackworker-*"} {
		if left, _ := filepath.Glob(filepath.Join(dir, pat)); len(left) > 0 {
			t.Errorf("left in TMPDIR: %v", left)
		}
	}
}

// Issue 29's A4: a scene that fails with a panic (as an allocation the
// memory guard did not catch would) stopped the whole job: 1 of 4 good
// scenes written, no dead-letter list, a /tmp/omnihsr-batch-* left. Every
// other scene is written, the failed one is listed with its panic, the
// counts are exact, and nothing is left in TMPDIR.
func TestPanickingSceneIsADeadLetter(t *testing.T) {
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i, name := range []string{"a.npy", "b.npy", "boom.npy", "c.npy", "d.npy"} {
		scene(t, filepath.Join(in, name), 5+i, 6, 2, 1.3+float64(i))
		lines = append(lines, name)
	}
	manifest := filepath.Join(in, "m.txt")
	writeManifest(t, manifest, lines)
	beforeScene = func(p string) {
		if filepath.Base(p) == "boom.npy" {
			var s []float32
			_ = s[len(p)] // index out of range, as a reader's bad size would
		}
	}
	defer func() { beforeScene = nil }()
	code, stdout, stderr := runBatch(t, "-manifest", manifest, "-out", out, "-scale", "2", "-method", "bicubic")
	if code != 1 || !strings.Contains(stdout, "4 written, 0 skipped (complete), 1 failed") {
		t.Fatalf("exit %d, want 1 with 4 written and 1 failed\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	dead, err := os.ReadFile(filepath.Join(out, deadLetterName))
	if err != nil {
		t.Fatalf("no dead-letter list: %v", err)
	}
	if d := strings.TrimSpace(string(dead)); !strings.HasPrefix(d, filepath.Join(in, "boom.npy")+"\t") || !strings.Contains(d, "panic: runtime error: index out of range") || strings.Contains(d, "\n") {
		t.Errorf("dead-letter list %q: want one line for boom.npy naming the panic", dead)
	}
	for _, name := range []string{"a", "b", "c", "d"} {
		if _, err := os.Stat(filepath.Join(out, name+"_x2.npy")); err != nil {
			t.Errorf("%s not written: %v", name, err)
		}
	}
	noTemp(t, tmp)
}

// Issue 29's E16: with inputs a.npy and a_x2.npy in one directory and
// -out that directory, a.npy's output replaced the input a_x2.npy. It is
// refused before the job starts (the ENVI data file and links included),
// and no input changes.
func TestOutputThatIsAnInputRefused(t *testing.T) {
	dir := t.TempDir()
	scene(t, filepath.Join(dir, "a.npy"), 4, 5, 2, 1)
	scene(t, filepath.Join(dir, "a_x2.npy"), 4, 5, 2, 2)
	before, err := os.ReadFile(filepath.Join(dir, "a_x2.npy"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runBatch(t, "-in", filepath.Join(dir, "*.npy"), "-out", dir, "-scale", "2", "-method", "bicubic")
	if code != 2 || !strings.Contains(stderr, "would replace the input") || !strings.Contains(stderr, "a_x2.npy") {
		t.Errorf("exit %d, want 2 naming the input\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "a_x2.npy"))
	if !bytes.Equal(before, after) {
		t.Fatal("the input a_x2.npy was changed")
	}
	// An ENVI input whose data file is the output's: b.hdr + b_x2.img
	// (named as another scene's output data file) and a link.
	d2 := t.TempDir()
	scene(t, filepath.Join(d2, "b.hdr"), 4, 5, 2, 1)
	scene(t, filepath.Join(d2, "b_x3.hdr"), 4, 5, 2, 2)
	link := filepath.Join(t.TempDir(), "c.npy")
	scene(t, link, 4, 5, 2, 3)
	if err := os.Link(link, filepath.Join(d2, "z_x3.npy")); err != nil {
		t.Fatal(err)
	}
	writeManifest(t, filepath.Join(d2, "m.txt"), []string{"b.hdr", "b_x3.hdr"})
	if code, _, stderr := runBatch(t, "-manifest", filepath.Join(d2, "m.txt"), "-out", d2, "-scale", "3", "-method", "bicubic"); code != 2 || !strings.Contains(stderr, "would replace the input") {
		t.Errorf("ENVI: exit %d, %s", code, stderr)
	}
	writeManifest(t, filepath.Join(d2, "m2.txt"), []string{link, filepath.Join(d2, "z.npy")})
	scene(t, filepath.Join(d2, "z.npy"), 4, 5, 2, 4)
	if code, _, stderr := runBatch(t, "-manifest", filepath.Join(d2, "m2.txt"), "-out", d2, "-scale", "3", "-method", "bicubic"); code != 2 || !strings.Contains(stderr, "would replace the input") {
		t.Errorf("hard link: exit %d, %s", code, stderr)
	}
}

// Issue 29's E18: a truncated .img, or an NPY output of garbage, counted
// as complete and was skipped on every rerun. Both are written again, and
// equal the first run's outputs.
func TestIncompleteOutputsRedone(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	scene(t, filepath.Join(in, "a.hdr"), 6, 7, 3, 1.5)
	scene(t, filepath.Join(in, "b.npy"), 5, 8, 2, 2.5)
	scene(t, filepath.Join(in, "c.npy"), 5, 8, 2, 3.5)
	writeManifest(t, filepath.Join(in, "m.txt"), []string{"a.hdr", "b.npy", "c.npy"})
	args := []string{"-manifest", filepath.Join(in, "m.txt"), "-out", out, "-scale", "2", "-method", "bicubic"}
	if code, stdout, stderr := runBatch(t, args...); code != 0 || !strings.Contains(stdout, "3 written") {
		t.Fatalf("first run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	files := []string{"a_x2.hdr", "a_x2.img", "b_x2.npy", "c_x2.npy"}
	first := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		first[f] = b
	}
	if err := os.Truncate(filepath.Join(out, "a_x2.img"), int64(len(first["a_x2.img"])-4)); err != nil {
		t.Fatal(err)
	}
	garbage := append([]byte(nil), first["b_x2.npy"]...)
	copy(garbage, "not an npy file at all")
	if err := os.WriteFile(filepath.Join(out, "b_x2.npy"), garbage, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "c_x2.npy"), first["c_x2.npy"][:len(first["c_x2.npy"])-1], 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runBatch(t, args...); code != 0 || !strings.Contains(stdout, "3 written, 0 skipped") {
		t.Fatalf("rerun: exit %d, want the three damaged outputs written again\n%s\n%s", code, stdout, stderr)
	}
	for _, f := range files {
		if b, _ := os.ReadFile(filepath.Join(out, f)); !bytes.Equal(b, first[f]) {
			t.Errorf("%s differs from the first run's", f)
		}
	}
	if code, stdout, _ := runBatch(t, args...); code != 0 || !strings.Contains(stdout, "0 written, 3 skipped") {
		t.Errorf("third run: exit %d, %s", code, stdout)
	}
}

// Issue 29's E18 (validation): each bad flag exits 2 before any work,
// naming the flag.
func TestFlagsValidatedEarly(t *testing.T) {
	dir := t.TempDir()
	scene(t, filepath.Join(dir, "a.npy"), 4, 4, 2, 1)
	bad := filepath.Join(dir, "bad.omw")
	if err := os.WriteFile(bad, []byte("root:x:0:0:root:/root:/bin/bash\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	glob := filepath.Join(dir, "*.npy")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-scale", "0"}, "-scale 0: want a finite number > 0"},
		{[]string{"-scale", "NaN"}, "-scale NaN"},
		{[]string{"-scales", "2,2"}, "factor 2 given twice"},
		{[]string{"-scales", "2,0"}, "factor 0"},
		{[]string{"-scale", "2", "-runner", "nosuch"}, `-runner "nosuch": unknown`},
		{[]string{"-scale", "2", "-runner", "prism"}, "--endpoint"},
		{[]string{"-scale", "2", "-type", "int128"}, `-type "int128"`},
		{[]string{"-scale", "2", "-weights", bad}, "-weights " + bad},
		{[]string{"-scale", "2", "-weights", filepath.Join(dir, "missing.omw")}, "-weights"},
	} {
		code, stdout, stderr := runBatch(t, append([]string{"-in", glob, "-out", out}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, want 2 with %q\nstdout: %s\nstderr: %s", tc.args, code, tc.msg, stdout, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused job created the output directory")
	}
}

// listeners returns the TCP sockets listening on every interface (0.0.0.0
// or ::) in this network namespace, by local address.
func listeners(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		fh, err := os.Open(f)
		if err != nil {
			t.Skipf("no %s: %v", f, err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			fl := strings.Fields(sc.Text())
			if len(fl) < 4 || fl[3] != "0A" { // LISTEN
				continue
			}
			host, _, _ := strings.Cut(fl[1], ":")
			if strings.Trim(host, "0") == "" {
				out[fl[1]] = true
			}
		}
		fh.Close()
	}
	return out
}

// Issue 29's E17: Prism's job server listened on every interface, and an
// unauthenticated client could read and cancel the job. The default
// runner runs the job in this process with no job server: no socket
// listens on every interface while a scene is processed.
func TestNoListenerOnEveryInterface(t *testing.T) {
	dir := t.TempDir()
	scene(t, filepath.Join(dir, "a.npy"), 4, 4, 2, 1)
	before := listeners(t)
	var during map[string]bool
	beforeScene = func(string) { during = listeners(t) }
	defer func() { beforeScene = nil }()
	code, stdout, stderr := runBatch(t, "-in", filepath.Join(dir, "*.npy"), "-out", filepath.Join(dir, "out"), "-scale", "2", "-method", "bicubic")
	if code != 0 || during == nil {
		t.Fatalf("exit %d (scene seen: %v)\n%s\n%s", code, during != nil, stdout, stderr)
	}
	for l := range during {
		if !before[l] {
			t.Errorf("a socket listened on every interface during the job: %s", l)
		}
	}
}

// summarise counts each scene once from the status records, and a scene
// without a record (a job cancelled or failed part way, a status file
// lost to a full disk) is a failure naming why, never a success.
func TestSummarise(t *testing.T) {
	paths := []string{"/a", "/b", "/c", "/d"}
	sts := []status{
		{kind: stWritten, path: "/a", pixels: 10, bytes: 100, millis: 5},
		{kind: stFailed, path: "/b", err: "/b: first try"},
		{kind: stWritten, path: "/b", pixels: 20, bytes: 200, millis: 7}, // a retry that succeeded
		{kind: stSkipped, path: "/c"},
	}
	for i, st := range sts { // the records survive their file
		if got, ok := parseStatus(st.line()); !ok || got != st {
			t.Fatalf("record %d: %q read back as %+v, %v", i, st.line(), got, ok)
		}
	}
	c := summarise(paths, sts, errors.New("job cancelled"), nil)
	if c.written != 2 || c.skipped != 1 || c.pixels != 30 || c.bytes != 300 || c.millis != 12 || len(c.failed) != 1 ||
		c.failed[0] != "/d\t/d: not processed: the job failed: job cancelled" {
		t.Errorf("summary %+v", c)
	}
	c = summarise(paths, nil, nil, errors.New("no space left on device"))
	if len(c.failed) != 4 || !strings.Contains(c.failed[0], "status was lost: no space left") {
		t.Errorf("lost status: %+v", c)
	}
}

// Issue 29's E18 (signals): SIGTERM died silently and left
// /tmp/omnihsr-batch-*; SIGINT was ignored. Both remove the unfinished
// outputs and every temporary directory and exit 128 + the signal.
func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command on a large scene")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			tmp := t.TempDir()
			in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
			if err := os.Mkdir(in, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, n := range []string{"a", "b"} {
				scene(t, filepath.Join(in, n+".npy"), 96, 96, 31, 1.7)
			}
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), "OMNIHSR_BATCH_MAIN=1", "TMPDIR="+tmp,
				"OMNIHSR_BATCH_ARGS="+strings.Join([]string{"-in", filepath.Join(in, "*.npy"), "-out", out, "-scale", "8"}, "\x1f"))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait until the first output is being written, or the job
			// is well under way.
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				if tmps, _ := filepath.Glob(filepath.Join(out, ".*omnihsr-tmp*")); len(tmps) > 0 {
					break
				}
			}
			cmd.Process.Signal(tc.sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Fatalf("exit %v, want %d\nstderr: %s", err, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), "interrupted by "+map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT"}[tc.sig]) {
				t.Errorf("stderr: %s", stderr.String())
			}
			if left, _ := filepath.Glob(filepath.Join(out, ".*omnihsr-tmp*")); len(left) > 0 {
				t.Errorf("unfinished outputs left: %v", left)
			}
			for _, f := range []string{"a_x8.npy", "b_x8.npy"} {
				p := filepath.Join(out, f)
				if _, err := os.Stat(p); err == nil {
					if _, _, _, ok := headerShape(p); !ok {
						t.Errorf("%s left incomplete", f)
					}
				}
			}
			noTemp(t, tmp)
		})
	}
}
