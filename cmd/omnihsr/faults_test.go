package main

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// fileBytes returns the contents of the files, for checking that a refused
// command left them unchanged.
func fileBytes(t *testing.T, paths ...string) [][]byte {
	t.Helper()
	out := make([][]byte, len(paths))
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	return out
}

// An output that is the input, its ENVI partner or a link to either is
// refused (exit 1, the input untouched) unless -overwrite is given.
func TestOutputIsInputRefused(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	c := testrand.Cube(testrand.New(uint64(6), uint64(5)), 6, 5, 3)
	for _, n := range []string{"a.npy", "b.hdr", "c.img", "h.hdr", "e.mat", "t.tif"} {
		if err := formats.Write(p(n), c, hsi.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(p("a.npy"), p("link.npy")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(p("e.mat"), p("hard.mat")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		files []string // the input's files
	}{
		{[]string{"upscale", "-in", p("a.npy"), "-out", p("a.npy"), "-scale", "2", "-method", "bicubic"}, []string{"a.npy"}},
		{[]string{"upscale", "-in", p("b.hdr"), "-out", p("b.hdr"), "-scale", "2", "-method", "bicubic"}, []string{"b.hdr", "b.img"}},
		{[]string{"upscale", "-in", p("c.img"), "-out", p("c.hdr"), "-scale", "2", "-method", "bicubic"}, []string{"c.hdr", "c.img"}},
		{[]string{"upscale", "-in", p("h.hdr"), "-out", p("h.img"), "-scale", "2", "-method", "bicubic"}, []string{"h.hdr", "h.img"}},
		{[]string{"upscale", "-in", p("a.npy"), "-out", p("link.npy"), "-scale", "2", "-method", "bicubic"}, []string{"a.npy"}},
		{[]string{"upscale", "-in", p("t.tif"), "-out", p("t.tif"), "-scale", "2", "-method", "bicubic"}, []string{"t.tif"}},
		{[]string{"degrade", "-in", p("e.mat"), "-out", p("e.mat"), "-scale", "2"}, []string{"e.mat"}},
		{[]string{"degrade", "-in", p("e.mat"), "-out", p("hard.mat"), "-scale", "2"}, []string{"e.mat"}},
		{[]string{"convert", "-in", p("b.hdr"), "-out", p("b.img"), "-type", "float64"}, []string{"b.hdr", "b.img"}},
		{[]string{"convert", "-in", p("a.npy"), "-out", p("a.npy"), "-type", "float64"}, []string{"a.npy"}},
	} {
		name := strings.Join(tc.args, " ")
		var files []string
		for _, f := range tc.files {
			files = append(files, p(f))
		}
		before := fileBytes(t, files...)
		code, stderr := runRsCmd(t, tc.args...)
		if code != 1 || !strings.Contains(stderr, "would replace the input") || !strings.Contains(stderr, "-overwrite") {
			t.Errorf("%s: exit %d, %q; want 1 and a message naming the input and -overwrite", name, code, stderr)
		}
		for i, b := range fileBytes(t, files...) {
			if !bytes.Equal(b, before[i]) {
				t.Errorf("%s: input file %s changed", name, files[i])
			}
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), "omnihsr-") {
			t.Errorf("left %s", e.Name())
		}
	}
	// With -scales, each output is checked: a.npy's own name via {scale}.
	if err := os.Rename(p("a.npy"), p("2.npy")); err != nil {
		t.Fatal(err)
	}
	if code, stderr := runRsCmd(t, "upscale", "-in", p("2.npy"), "-out", p("{scale}.npy"), "-scales", "3,2", "-method", "bicubic"); code != 1 || !strings.Contains(stderr, "would replace the input") {
		t.Errorf("-scales onto the input: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(p("3.npy")); !os.IsNotExist(err) {
		t.Errorf("-scales refused but wrote the other output: %v", err)
	}
}

// With -overwrite the input is replaced by the complete result.
func TestOverwriteReplacesInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "b.hdr")
	if err := formats.Write(in, testrand.Cube(testrand.New(uint64(6), uint64(5)), 6, 5, 3), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", in, "-scale", "2", "-method", "bicubic", "-overwrite"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := rsReadBack(t, in)
	if got.H != 12 || got.W != 10 || got.B != 3 {
		t.Fatalf("after -overwrite: %dx%dx%d, want 12x10x3", got.H, got.W, got.B)
	}
}

// bigPNG writes a small PNG whose header declares w x h RGB pixels, with a
// truncated image stream.
func bigPNG(t *testing.T, path string, w, h uint32) {
	t.Helper()
	var b bytes.Buffer
	b.Write([]byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'})
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(typ)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	chunk("IHDR", ihdr)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	chunk("IDAT", z.Bytes())
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A PNG declaring 3000 x 30000 pixels, upscaled to an output no disk can
// hold, is refused from its header (formats.Open reads no pixel of a PNG)
// for disk space; one whose 1088 bytes cannot hold the 30000 x 30000
// pixels it declares is refused at Open from its header, naming the file.
func TestHugeDeclaredInputRefusedBeforeDecoding(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OMNIHSR_MEM_LIMIT", "1T") // the input alone would be read
	bomb := filepath.Join(dir, "bomb.png")
	if err := testrand.WritePNGBomb(bomb, 3000, 30000); err != nil {
		t.Fatal(err)
	}
	code, stderr := runRsCmd(t, "upscale", "-in", bomb, "-out", filepath.Join(dir, "o.hdr"), "-scale", "100", "-method", "bicubic")
	if code != 1 || !strings.Contains(stderr, "not enough free disk space") {
		t.Fatalf("exit %d, %q; want the output refused for disk space", code, stderr)
	}
	in := filepath.Join(dir, "big.png")
	bigPNG(t, in, 30000, 30000)
	code, stderr = runRsCmd(t, "upscale", "-in", in, "-out", filepath.Join(dir, "o.hdr"), "-scale", "100", "-method", "bicubic")
	if code != 1 || !strings.Contains(stderr, in+": the header claims 30000x30000 pixels, impossible for a file of") {
		t.Fatalf("exit %d, %q; want the input refused from its header", code, stderr)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d files in the folder: want the inputs only", len(ents))
	}
}

// -scale 1e9 reports the size it asked for, not 0x0.
func TestHugeScaleMessage(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.npy")
	if err := formats.Write(in, testrand.Cube(testrand.New(uint64(12), uint64(10)), 12, 10, 2), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", filepath.Join(dir, "o.npy"), "-scale", "1e9")
	if code != 1 || !strings.Contains(stderr, "gives 1.2e+10x1e+10") || strings.Contains(stderr, "0x0") {
		t.Fatalf("exit %d, %q", code, stderr)
	}
}

// When a later output of -scales cannot be written (a directory where it
// goes), nothing is written: the directory is refused before the work.
func TestScalesFailureRemovesEarlierOutputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.npy")
	if err := formats.Write(in, testrand.Cube(testrand.New(uint64(6), uint64(5)), 6, 5, 2), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "o_x3.hdr"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", filepath.Join(dir, "o_x{scale}.hdr"), "-scales", "2,3", "-method", "bicubic")
	if code != 1 || !strings.Contains(stderr, filepath.Join(dir, "o_x3.hdr")+" exists and is a directory") {
		t.Fatalf("exit %d, %q", code, stderr)
	}
	for _, n := range []string{"o_x2.hdr", "o_x2.img", "o_x3.img"} {
		if _, err := os.Stat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("%s left behind (%v)", n, err)
		}
	}
}
