package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/internal/childtest"
)

// deadPID returns the PID of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		childtest.SkipNoExec(t, err)
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestTempNameHoldsPID(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(filepath.Join(dir, "out.img"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	base := filepath.Base(f.Name())
	want := ".out.img.omnihsr-tmp-" + strconv.Itoa(os.Getpid()) + "-"
	if !strings.HasPrefix(base, want) || !IsTemp(base) {
		t.Fatalf("temporary file %s, want prefix %s", base, want)
	}
}

func TestCreateRemovesStaleTemporaries(t *testing.T) {
	if _, err := exec.LookPath(os.Args[0]); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "out.img")
	dead := filepath.Join(dir, fmt.Sprintf(".out.img.omnihsr-tmp-%d-123", deadPID(t)))
	live := filepath.Join(dir, fmt.Sprintf(".out.img.omnihsr-tmp-%d-456", os.Getppid()))
	other := filepath.Join(dir, fmt.Sprintf(".other.img.omnihsr-tmp-%d-789", deadPID(t)))
	for _, n := range []string{dead, live, other} {
		if err := os.WriteFile(n, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Write(p, func(w io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("temporary file of a dead process left: %v", err)
	}
	for _, n := range []string{live, other} {
		if _, err := os.Stat(n); err != nil {
			t.Errorf("%s removed: %v", filepath.Base(n), err)
		}
	}
}

func TestRemoveAll(t *testing.T) {
	defer func() { open.Lock(); open.stopped = false; open.Unlock() }()
	dir := t.TempDir()
	a, err := Create(filepath.Join(dir, "a.img"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Create(filepath.Join(dir, "b.hdr"))
	if err != nil {
		t.Fatal(err)
	}
	a.Write(make([]byte, 1000))
	dests := RemoveAll()
	if len(dests) != 2 {
		t.Errorf("RemoveAll reported %v, want a.img and b.hdr", dests)
	}
	assertOnly(t, dir)
	if err := a.Commit(); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Commit after RemoveAll: %v", err)
	}
	if err := CommitAll(filepath.Join(dir, "b.hdr"), b); !errors.Is(err, ErrInterrupted) {
		t.Errorf("CommitAll after RemoveAll: %v", err)
	}
	if _, err := Create(filepath.Join(dir, "c")); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Create after RemoveAll: %v", err)
	}
	assertOnly(t, dir)
}

// TestCommitAllNeverMixes commits pairs from many goroutines at once (each
// holding its own lock file descriptor, as separate processes would) and
// checks after every round that the two files come from the same writer.
func TestCommitAllNeverMixes(t *testing.T) {
	dir := t.TempDir()
	hdr, data := filepath.Join(dir, "x.hdr"), filepath.Join(dir, "x.img")
	for round := 0; round < 50; round++ {
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := fmt.Sprintf("%d-%d", round, w)
				d, err := Create(data)
				if err != nil {
					t.Error(err)
					return
				}
				h, err := Create(hdr)
				if err != nil {
					t.Error(err)
					return
				}
				d.WriteString(id)
				h.WriteString(id)
				if err := CommitAll(hdr, d, h); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		a, _ := os.ReadFile(hdr)
		b, _ := os.ReadFile(data)
		if string(a) != string(b) {
			t.Fatalf("round %d: header from writer %s, data from writer %s", round, a, b)
		}
	}
	assertOnly(t, dir, "x.hdr", "x.img")
}

// TestMain lets TestLockExcludesOtherProcess run this binary as a second
// process that commits a pair (ATOMICFILE_TEST_COMMIT=dir).
func TestMain(m *testing.M) {
	if dir := os.Getenv("ATOMICFILE_TEST_COMMIT"); dir != "" {
		hdr, data := filepath.Join(dir, "x.hdr"), filepath.Join(dir, "x.img")
		d, err := Create(data)
		if err != nil {
			os.Exit(3)
		}
		h, err := Create(hdr)
		if err != nil {
			os.Exit(3)
		}
		d.WriteString("child")
		h.WriteString("child")
		if err := CommitAll(hdr, d, h); err != nil {
			os.Exit(4)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Another process's CommitAll on the same group waits while this process
// holds the group's lock, and publishes once it is released.
func TestLockExcludesOtherProcess(t *testing.T) {
	dir := t.TempDir()
	hdr := filepath.Join(dir, "x.hdr")
	unlock, err := Lock(hdr)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_TEST_COMMIT="+dir)
	if err := cmd.Start(); err != nil {
		unlock()
		childtest.SkipNoExec(t, err)
		t.Fatal(err)
	}
	// The child creates its temporaries, then blocks on the lock.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		ents, _ := os.ReadDir(dir)
		n := 0
		for _, e := range ents {
			if IsTemp(e.Name()) {
				n++
			}
		}
		if n == 2 {
			break
		}
	}
	time.Sleep(300 * time.Millisecond)
	_, errH := os.Stat(hdr)
	_, errD := os.Stat(filepath.Join(dir, "x.img"))
	unlock()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	if errH == nil || errD == nil {
		t.Fatal("the other process published while the lock was held")
	}
	a, _ := os.ReadFile(hdr)
	b, _ := os.ReadFile(filepath.Join(dir, "x.img"))
	if string(a) != "child" || string(b) != "child" {
		t.Fatalf("after unlock: header %q, data %q", a, b)
	}
	assertOnly(t, dir, "x.hdr", "x.img")
}
