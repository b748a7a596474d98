package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 39: -weights /dev/zero read until the process died, a FIFO hung
// for ever. Open and ReadFile refuse what is not a regular file at once,
// and ReadFile stops at its bound.
func TestRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	cases := map[string]string{dir: "a directory"}
	if err := mkfifo(fifo); err == nil {
		cases[fifo] = "a named pipe (FIFO)"
	} else {
		t.Logf("no FIFO on this system: %v", err)
	}
	if st, err := os.Stat("/dev/zero"); err == nil && !st.Mode().IsRegular() {
		cases["/dev/zero"] = "a device"
	}
	for path, kind := range cases {
		done := make(chan error, 1)
		go func() {
			_, err := ReadFile(path, 1<<20, "a test file")
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), path+": not a regular file: it is "+kind) {
				t.Errorf("%s: %v; want ErrNotRegular naming %q", path, err, kind)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: ReadFile still blocked after a minute", path)
		}
		if err := Check(path); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Check(%s) = %v", path, err)
		}
		if err := CheckInput(path); !errors.Is(err, ErrNotRegular) {
			t.Errorf("CheckInput(%s) = %v", path, err)
		}
	}
	missing := filepath.Join(dir, "missing")
	if err := Check(missing); err != nil {
		t.Errorf("Check of a missing path: %v; want nil (the reader reports it)", err)
	}
	if err := CheckInput(missing); !errors.Is(err, os.ErrNotExist) || !strings.HasPrefix(err.Error(), missing+": ") || strings.Count(err.Error(), missing) != 1 {
		t.Errorf("CheckInput of a missing path: %v; want fs.ErrNotExist naming it once", err)
	}
	f := filepath.Join(dir, "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckInput(f); err != nil {
		t.Errorf("CheckInput of a regular file: %v", err)
	}
}

func TestReadFileBound(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p, 10, "a test file"); err != nil || string(b) != "0123456789" {
		t.Fatalf("10 bytes under a bound of 10: %q, %v", b, err)
	}
	_, err := ReadFile(p, 9, "a test file")
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "more than the 9 bytes a test file may take") {
		t.Fatalf("10 bytes under a bound of 9: %v", err)
	}
	if _, err := ReadFile(p, 1<<20, "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(filepath.Join(filepath.Dir(p), "missing"), 9, "x"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}
