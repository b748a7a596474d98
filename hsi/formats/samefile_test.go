package formats

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// TestCheckOutput covers every way an output can name an input file: the
// same path, the ENVI partner on either side, a symbolic link to the file
// or to its directory, a hard link, and outputs that are only similar.
func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	c := cube()
	for _, n := range []string{"a.npy", "b.hdr", "e.mat", "g.tif"} {
		if err := Write(p(n), c, hsi.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// h.hdr with its data in h.dat.
	if err := Write(p("h.dat"), c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(p("a.npy"), p("link.npy")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, p("sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(p("e.mat"), p("hard.mat")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in, out string
		same    bool
	}{
		{"a.npy", "a.npy", true},
		{"b.hdr", "b.hdr", true},
		{"b.img", "b.hdr", true}, // the data file in, the header out
		{"b.hdr", "b.img", true}, // the pair's own data file
		{"h.hdr", "h.img", true}, // writes h.hdr, the input's header
		{"h.dat", "h.hdr", true}, // the header of a .dat pair
		{"h.hdr", "h.dat", true}, //
		{"e.mat", "e.mat", true}, //
		{"a.npy", "link.npy", true},
		{"link.npy", "a.npy", true},
		{"a.npy", "sub/a.npy", true},
		{"e.mat", "hard.mat", true},
		{"g.tif", "g.tif", true},
		{"a.npy", "a2.npy", false},
		{"b.hdr", "c.hdr", false},
		{"b.hdr", "b.npy", false},
		{"e.mat", "e.tif", false},
		{"missing.npy", "missing.npy", false}, // nothing to protect
	} {
		err := CheckOutput(p(tc.out), p(tc.in))
		if got := errors.Is(err, ErrSameFile); got != tc.same {
			t.Errorf("-in %s -out %s: %v, want same file %v", tc.in, tc.out, err, tc.same)
		}
	}
	err := CheckOutput(p("h.img"), p("h.hdr"))
	want := p("h.img") + ": the output would replace the input " + p("h.hdr") + ": writing it also writes " + p("h.hdr") + ", which is the input"
	if err == nil || err.Error() != want {
		t.Errorf("message\n%v\nwant\n%s", err, want)
	}
}

// A FIFO, a directory or a socket given as input is refused up front by
// name and kind, for every format (a FIFO would block a reader).
func TestReadRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"f.npy", "f.hdr", "f.mat", "f.tif", "f.png", "f.img"} {
		p := filepath.Join(dir, n)
		if err := mkfifo(p); err != nil {
			t.Skip(err)
		}
		if _, _, err := Read(p, hsi.ReadOptions{}); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe (FIFO)") || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v", n, err)
		}
	}
	d := filepath.Join(dir, "d.npy")
	os.Mkdir(d, 0o755)
	if _, _, err := Read(d, hsi.ReadOptions{}); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a directory") {
		t.Errorf("directory: %v", err)
	}
}

// CheckOutputs counts the streamed outputs on one file system together:
// two that fit one at a time but not both are refused before any is made.
func TestCheckOutputsSumsDisk(t *testing.T) {
	dir := t.TempDir()
	old := diskFree
	defer func() { diskFree = old }()
	diskFree = func(string) (uint64, bool) { return 3 << 20, true }
	one := Output{Path: filepath.Join(dir, "a.npy"), H: 512, W: 512, B: 4} // 4 MiB float32
	if err := CheckOutputs([]Output{one}); !errors.Is(err, hsi.ErrNoSpace) {
		t.Fatalf("4 MiB on 3 MiB: %v", err)
	}
	diskFree = func(string) (uint64, bool) { return 6 << 20, true }
	two := one
	two.Path = filepath.Join(dir, "b.hdr")
	if err := CheckOutputs([]Output{one}); err != nil {
		t.Fatalf("one output that fits: %v", err)
	}
	err := CheckOutputs([]Output{one, two})
	if !errors.Is(err, hsi.ErrNoSpace) || !strings.Contains(err.Error(), "with the other outputs from "+one.Path) {
		t.Fatalf("two 4 MiB outputs on 6 MiB: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("CheckOutputs created %v", ents)
	}
}
