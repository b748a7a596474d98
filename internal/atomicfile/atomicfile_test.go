package atomicfile

import (
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
