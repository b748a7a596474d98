package formats

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// fuzzNames are the file names the fuzz targets combine: ENVI pairs under
// every naming, the single-file formats, and names in a linked directory.
var fuzzNames = []string{"a.hdr", "a.img", "a.dat", "a", "b.npy", "b.mat", "b.tif", "c.hdr", "c.npy", "sub/a.hdr", "sub/a.img", "sub/b.npy", "lnk.npy", "lnk.hdr", "hard.npy", "hard.img"}

// FuzzCheckOutput checks CheckOutput end to end: the input is written, links
// are made as the fuzzer chooses, and whenever CheckOutput lets an output
// through, writing it must leave every file of the input byte for byte as
// it was; the same path is always refused.
func FuzzCheckOutput(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint8(0))  // a.hdr onto itself
	f.Add(uint8(0), uint8(1), uint8(0))  // a.hdr -> a.img
	f.Add(uint8(1), uint8(0), uint8(0))  // a.img -> a.hdr
	f.Add(uint8(2), uint8(1), uint8(0))  // a.dat -> a.img (writes a.hdr)
	f.Add(uint8(4), uint8(12), uint8(1)) // b.npy -> symlink to it
	f.Add(uint8(4), uint8(11), uint8(2)) // b.npy -> sub/b.npy, sub a link to the directory
	f.Add(uint8(4), uint8(14), uint8(3)) // b.npy -> hard link
	f.Add(uint8(5), uint8(5), uint8(0))  // b.mat onto itself
	f.Add(uint8(7), uint8(0), uint8(0))  // c.hdr -> a.hdr: different files
	f.Fuzz(func(t *testing.T, inI, outI, links uint8) {
		dir := t.TempDir()
		p := func(n string) string { return filepath.Join(dir, n) }
		in := fuzzNames[int(inI)%len(fuzzNames)]
		out := fuzzNames[int(outI)%len(fuzzNames)]
		if _, ok := byExt(in); !ok && in != "a" {
			t.Skip()
		}
		if links&2 != 0 {
			if err := os.Symlink(dir, p("sub")); err != nil {
				t.Skip(err)
			}
		} else {
			os.Mkdir(p("sub"), 0o755)
		}
		c := cube()
		inPath := p(in)
		if in == "a" { // a bare-stem ENVI data file
			if err := Write(p("a.img"), c, hsi.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			os.Rename(p("a.img"), p("a"))
		} else if err := Write(inPath, c, hsi.WriteOptions{}); err != nil {
			if errors.Is(err, ErrUnknownFormat) {
				t.Skip()
			}
			t.Fatal(err)
		}
		files := ReadFiles(inPath)
		if links&1 != 0 {
			os.Symlink(files[0], p("lnk"+filepath.Ext(files[0])))
		}
		if links&4 != 0 || links&3 == 3 {
			os.Link(files[len(files)-1], p("hard"+filepath.Ext(files[len(files)-1])))
		}
		before := make([][]byte, len(files))
		for i, f := range files {
			before[i], _ = os.ReadFile(f)
		}
		err := CheckOutput(p(out), inPath)
		if in == out && err == nil {
			t.Fatalf("-in %s -out %s: the same path was let through", in, out)
		}
		if err != nil {
			if !errors.Is(err, ErrSameFile) {
				t.Fatalf("-in %s -out %s: %v", in, out, err)
			}
			return
		}
		if werr := Write(p(out), cube(), hsi.WriteOptions{DataType: sample.Float64}); werr != nil {
			return // e.g. a name no format writes
		}
		for i, f := range files {
			after, err := os.ReadFile(f)
			if err != nil || !bytes.Equal(after, before[i]) {
				t.Fatalf("-in %s -out %s (links %d): CheckOutput let it through, and writing changed the input file %s (%v)", in, out, links, f, err)
			}
		}
	})
}

// FuzzReadSpecialFiles gives Read a FIFO, a directory, a symbolic link to
// either, or a dangling link, under every extension: it must return an
// error at once (a FIFO must not block it).
func FuzzReadSpecialFiles(f *testing.F) {
	exts := []string{".hdr", ".img", ".npy", ".mat", ".tif", ".png", ".dat", ""}
	for k := uint8(0); k < 5; k++ {
		for e := range exts {
			f.Add(k, uint8(e))
		}
	}
	f.Fuzz(func(t *testing.T, kind, ext uint8) {
		dir := t.TempDir()
		target := filepath.Join(dir, "t"+exts[int(ext)%len(exts)])
		path := target
		switch kind % 5 {
		case 0, 3:
			if err := mkfifo(target); err != nil {
				t.Skip(err)
			}
		case 1, 4:
			os.Mkdir(target, 0o755)
		case 2:
			// dangling link below
		}
		if kind%5 >= 2 {
			path = filepath.Join(dir, "l"+exts[int(ext)%len(exts)])
			if err := os.Symlink(target, path); err != nil {
				t.Skip(err)
			}
		}
		done := make(chan error, 1)
		go func() {
			_, _, err := Read(path, hsi.ReadOptions{})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Fatalf("%s (kind %d) was read", path, kind%5)
			}
		case <-time.After(10 * time.Second):
			// Unblock the reader so the test can end.
			if w, err := os.OpenFile(target, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
			t.Fatalf("Read of %s (kind %d) blocked", path, kind%5)
		}
	})
}
