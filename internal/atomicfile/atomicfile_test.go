package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteCommits(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.bin")
	if err := Write(p, func(w io.Writer) error { _, err := w.Write([]byte("hello")); return err }); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "hello" {
		t.Fatalf("got %q, %v", b, err)
	}
	assertOnly(t, dir, "out.bin")
}

func TestWriteErrorLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.bin")
	boom := errors.New("boom")
	err := Write(p, func(w io.Writer) error { w.Write(make([]byte, 3<<20)); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	assertOnly(t, dir)
}

func TestWriteErrorKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.bin")
	os.WriteFile(p, []byte("old"), 0o644)
	Write(p, func(w io.Writer) error { return errors.New("fail") })
	b, _ := os.ReadFile(p)
	if string(b) != "old" {
		t.Fatalf("destination changed to %q", b)
	}
	assertOnly(t, dir, "out.bin")
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(names) {
		var got []string
		for _, e := range ents {
			got = append(got, e.Name())
		}
		t.Fatalf("dir holds %v, want %v", got, names)
	}
	for i, e := range ents {
		if e.Name() != names[i] {
			t.Fatalf("dir holds %s, want %s", e.Name(), names[i])
		}
	}
}

// A file whose write-back is started as it is written (Wrote through
// Tracked, StartWriteback), in four planes at once as an ENVI BSQ stream
// writes, rows rewritten after that included, commits the bytes last
// written; an aborted one leaves nothing.
func TestWriteback(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.bin")
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	const chunk, planes, steps = 64 << 10, 4, 24
	plane := int64(chunk * steps)
	want := make([]byte, planes*plane)
	for i := range want {
		want[i] = byte(i * 7 / 5)
	}
	w := f.Tracked()
	for k := 0; k < steps; k++ {
		for b := int64(0); b < planes; b++ {
			off := b*plane + int64(k*chunk)
			if _, err := w.WriteAt(want[off:off+chunk], off); err != nil {
				t.Fatal(err)
			}
		}
		if k == steps/2 {
			// One range per plane, the steps so far merged into it.
			if len(f.spans) != planes || f.spans[1] != (span{plane, int64((k + 1) * chunk)}) {
				t.Fatalf("ranges %v after %d steps", f.spans, k+1)
			}
			f.StartWriteback()
		}
	}
	f.StartWriteback()
	if len(f.spans) != 0 || f.dirty != 0 {
		t.Fatalf("ranges %v, %d bytes left after StartWriteback", f.spans, f.dirty)
	}
	// Overwrite a chunk already handed to the disk.
	for i := range want[:chunk] {
		want[i] ^= 0xff
	}
	if _, err := w.WriteAt(want[:chunk], 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("committed %d bytes, not the %d written", len(got), len(want))
	}
	assertOnly(t, dir, "out.bin")

	q := filepath.Join(dir, "aborted.bin")
	g, err := Create(q)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Tracked().Write(want); err != nil {
		t.Fatal(err)
	}
	if len(g.spans) != 1 || g.spans[0] != (span{0, int64(len(want))}) {
		t.Fatalf("Write recorded %v", g.spans)
	}
	g.Abort()
	g.StartWriteback() // after Abort: does nothing
	assertOnly(t, dir, "out.bin")
}

// ExpectSize sets the write-back to a quarter of the file, between 16 MiB
// and WritebackBytes; Wrote starts it once that much is written.
func TestExpectSize(t *testing.T) {
	for _, tc := range []struct{ size, every int64 }{
		{1 << 20, 16 << 20},
		{400 << 20, 100 << 20},
		{4 << 30, WritebackBytes},
	} {
		f, err := Create(filepath.Join(t.TempDir(), "f.bin"))
		if err != nil {
			t.Fatal(err)
		}
		f.ExpectSize(tc.size)
		f.Wrote(0, tc.every-1)
		if f.dirty != tc.every-1 {
			t.Errorf("size %d: write-back started after %d bytes, before %d", tc.size, tc.every-1, tc.every)
		}
		f.Wrote(tc.every-1, 1)
		if f.dirty != 0 || len(f.spans) != 0 {
			t.Errorf("size %d: write-back not started after %d bytes (%d recorded)", tc.size, tc.every, f.dirty)
		}
		f.Abort()
	}
}
