package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// TestNoSpace writes through a File to /dev/full, which answers every
// write with ENOSPC: each way a writer writes (Write, WriteAt, a tracked
// write, bufio, io.Copy) gives an error matching both syscall.ENOSPC and
// hsi.ErrNoSpace, worded as the system words it.
func TestNoSpace(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here:", err)
	}
	defer full.Close()
	f := &File{File: full, Path: "/dev/full"}
	p := []byte("0123456789")
	for _, tc := range []struct {
		name  string
		write func() error
	}{
		{"Write", func() error { _, err := f.Write(p); return err }},
		{"WriteAt", func() error { _, err := f.WriteAt(p, 0); return err }},
		{"Tracked Write", func() error { _, err := f.Tracked().Write(p); return err }},
		{"bufio", func() error { w := bufio.NewWriter(f); w.Write(p); return w.Flush() }},
		{"io.Copy", func() error { _, err := io.Copy(f, strings.NewReader(string(p))); return err }},
	} {
		err := tc.write()
		if !errors.Is(err, hsi.ErrNoSpace) || !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("%s: %v, want an error matching hsi.ErrNoSpace and syscall.ENOSPC", tc.name, err)
		}
		if err != nil && strings.Contains(err.Error(), hsi.ErrNoSpace.Error()) {
			t.Errorf("%s: %q repeats the sentinel's words", tc.name, err)
		}
	}
	if err := noSpace(io.ErrShortWrite); err != io.ErrShortWrite {
		t.Errorf("noSpace changed another error: %v", err)
	}
	if noSpace(nil) != nil {
		t.Error("noSpace(nil) is not nil")
	}
}
