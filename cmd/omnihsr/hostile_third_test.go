package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// Issue 39 (hostile input, third pass): the CLI's cases. The library's and
// the C ABI's are in their packages' tests.

// hostileCube writes a small random cube to dir/name and returns its path.
func hostileCube(t *testing.T, dir, name string, h, w, b int) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := formats.Write(p, testrand.Cube(testrand.New(uint64(h), uint64(w)), h, w, b), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return p
}

// runWithin runs the command line args and fails the test when it has
// not returned within a minute (a FIFO that blocks it).
func runWithin(t *testing.T, args ...string) (int, string) {
	t.Helper()
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		done <- result{code, errb.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.stderr
	case <-time.After(time.Minute):
		t.Fatalf("%q still running after a minute", args)
		return 0, ""
	}
}

// Issue 39, failure 1: `-scales 2,4,8 -out 'c{scale}.npy'` with c2.npy and
// c4.npy already there and c8.npy a directory failed at x8 and removed
// c2.npy and c4.npy. The directory is refused before the work, and the
// existing files are as they were.
func TestScalesFailureLeavesExistingFiles(t *testing.T) {
	dir := t.TempDir()
	in := hostileCube(t, dir, "in.npy", 4, 4, 2)
	old := map[string][]byte{}
	for _, n := range []string{"c2.npy", "c4.npy"} {
		p := hostileCube(t, dir, n, 3, 3, 2)
		old[p] = fileBytes(t, p)[0]
	}
	if err := os.Mkdir(filepath.Join(dir, "c8.npy"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", filepath.Join(dir, "c{scale}.npy"), "-scales", "2,4,8", "-method", "bicubic")
	if code != 1 || !strings.Contains(stderr, "c8.npy exists and is a directory") {
		t.Fatalf("exit %d, %q; want 1 naming the directory", code, stderr)
	}
	for p, b := range old {
		if got := fileBytes(t, p)[0]; !bytes.Equal(got, b) {
			t.Errorf("%s changed", p)
		}
	}
	if st, err := os.Stat(filepath.Join(dir, "c8.npy")); err != nil || !st.IsDir() {
		t.Errorf("c8.npy is no longer the directory: %v", err)
	}
	assertNoTemporaries(t, dir)
}

// assertNoTemporaries fails when dir holds a temporary or pending file.
func assertNoTemporaries(t *testing.T, dir string) {
	t.Helper()
	left, _ := filepath.Glob(filepath.Join(dir, ".*omnihsr-*"))
	if len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// Issue 39, failure 4: -weights /dev/zero and -noise-file /dev/zero were
// read until the process died; a FIFO hung for ever. Each is refused
// before the input is read (which here does not exist).
func TestSideFilesNotRegularRefused(t *testing.T) {
	dir := t.TempDir()
	in := hostileCube(t, dir, "in.npy", 4, 4, 2)
	fifo := filepath.Join(dir, "fifo")
	bad := map[string]string{dir: "a directory"}
	if err := mkfifo(fifo); err == nil {
		bad[fifo] = "a named pipe (FIFO)"
	}
	if st, err := os.Stat("/dev/zero"); err == nil && !st.Mode().IsRegular() {
		bad["/dev/zero"] = "a device"
	}
	out := filepath.Join(dir, "o.npy")
	for path, kind := range bad {
		for _, flag := range []string{"-weights", "-noise-file"} {
			code, stderr := runWithin(t, "upscale", "-in", in, "-out", out, "-scale", "2", flag, path)
			want := path + ": not a regular file: it is " + kind
			if code != 1 || !strings.Contains(stderr, want) {
				t.Errorf("%s %s: exit %d, %q; want 1 and %q", flag, path, code, stderr, want)
			}
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output written: %v", err)
	}
}

// Issue 39, STAC: an input with NaN or infinite wavelengths, FWHM, gains or
// offsets made -stac fail after the image was written ("json: unsupported
// value: NaN"), leaving it; a NAME.json that is a directory was found
// after the image was written too. The non-finite values are left out of
// the item; the directory is refused before the work.
func TestSTACHostile(t *testing.T) {
	dir := t.TempDir()
	hdr := nonFiniteENVI(t, dir)
	out := filepath.Join(dir, "o.hdr")
	code, stderr := runRsCmd(t, "upscale", "-in", hdr, "-out", out, "-scale", "2", "-method", "bicubic", "-stac")
	if code != 0 {
		t.Fatalf("non-finite band metadata: exit %d, %q", code, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "o.json")); err != nil || !strings.Contains(string(b), `"eo:center_wavelength": 0.5`) {
		t.Errorf("item: %v\n%s", err, b)
	}
	for _, tc := range []struct{ out, scales, dirName string }{
		{filepath.Join(dir, "d.hdr"), "2", "d.json"},
		{filepath.Join(dir, "p{scale}.hdr"), "2,3", "p3.json"},
	} {
		if err := os.Mkdir(filepath.Join(dir, tc.dirName), 0o755); err != nil {
			t.Fatal(err)
		}
		code, stderr := runRsCmd(t, "upscale", "-in", hdr, "-out", tc.out, "-scales", tc.scales, "-method", "bicubic", "-stac")
		if code != 1 || !strings.Contains(stderr, tc.dirName+", the STAC item of") || !strings.Contains(stderr, "is a directory") {
			t.Errorf("%s a directory: exit %d, %q", tc.dirName, code, stderr)
		}
	}
	for _, n := range []string{"d.hdr", "p2.hdr", "p3.hdr"} {
		if _, err := os.Stat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("%s written although its STAC item could not be (%v)", n, err)
		}
	}
}

// nonFiniteENVI writes dir/a.hdr and a.img: 3 x 2 x 2 float32 zeros whose
// header gives a NaN and a finite wavelength, an infinite FWHM, a NaN gain
// and an infinite offset.
func nonFiniteENVI(t *testing.T, dir string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "a.img"), make([]byte, 3*2*2*4), 0o644); err != nil {
		t.Fatal(err)
	}
	hdr := filepath.Join(dir, "a.hdr")
	if err := os.WriteFile(hdr, []byte("ENVI\nsamples = 2\nlines = 3\nbands = 2\nheader offset = 0\ndata type = 4\ninterleave = bsq\nbyte order = 0\n"+
		"wavelength units = Nanometers\nwavelength = {nan, 500}\nfwhm = {inf, 10}\ndata gain values = {nan, 1}\ndata offset values = {0, inf}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return hdr
}

// Issue 39: one NaN wavelength made info print "NaN .. NaN". The range is
// that of the finite values, and the others are counted.
func TestInfoNonFiniteWavelengths(t *testing.T) {
	code, out, stderr := runCmd(t, "info", nonFiniteENVI(t, t.TempDir()))
	if code != 0 || !strings.Contains(out, "500 .. 500 Nanometers (2 values, 1 not finite)") || !strings.Contains(out, "10 .. 10, 1 not finite") || strings.Contains(out, "NaN ..") {
		t.Errorf("exit %d, %s%s", code, out, stderr)
	}
}
