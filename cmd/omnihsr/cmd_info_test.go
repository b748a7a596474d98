package main

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi/formats"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
)

// runCmd runs the CLI with args and returns the exit code, stdout and
// stderr.
func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestInfoENVI(t *testing.T) {
	code, out, errs := runCmd(t, "info", "../../hsi/envi/testdata/spectral_meta.hdr")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"format:         ENVI (bil;", "shape:          5 x 7 x 4 (rows x columns x bands)", "data type:      int16",
		"value range:    -32437 .. 32767 (left out: 1 no-data sample at -32768)", "wavelengths:    450.5 .. 850.125 Nanometers (4 values)",
		"bad bands:      1 of 4", "data ignore:    -32768", "georeferencing: ENVI map info {UTM",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestInfoFlagsAfterFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.npy")
	if code, _, errs := runCmd(t, "convert", "-in", "../../hsi/envi/testdata/spectral_meta.hdr", "-out", p); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := runCmd(t, "info", p)
	if code != 0 || !strings.Contains(out, "format:         NPY") || !strings.Contains(out, "wavelengths:    unknown") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	// A flag after the file is parsed: -var, which an NPY file would
	// ignore, is refused (issue 29; it was silently ignored).
	if code, _, errs := runCmd(t, "info", p, "-var", "ignored"); code != 2 || !strings.Contains(errs, "-var does not apply to a NPY file") {
		t.Fatalf("-var after the file: exit %d, %s", code, errs)
	}
	if code, _, _ := runCmd(t, "info", p, p); code != 2 {
		t.Fatalf("two files: exit %d, want 2", code)
	}
	if code, _, _ := runCmd(t, "info"); code != 2 {
		t.Fatalf("no file: exit %d, want 2", code)
	}
}

func TestInfoNaN(t *testing.T) {
	dir := t.TempDir()
	c := hsi.MustNew(3, 4, 2)
	p := filepath.Join(dir, "n.hdr")
	if err := envi.Write(p, c, hsi.WriteOptions{Interleave: "bip"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "n.img"))
	nan := math.Float32bits(float32(math.NaN()))
	for _, i := range []int{13, 20} { // (1, 2, 1) and (2, 2, 0)
		data[4*i], data[4*i+1], data[4*i+2], data[4*i+3] = byte(nan), byte(nan>>8), byte(nan>>16), byte(nan>>24)
	}
	os.WriteFile(filepath.Join(dir, "n.img"), data, 0o644)
	code, out, errs := runCmd(t, "info", p)
	if code != 0 || !strings.Contains(out, "value range:    0 .. 0 (2 NaN, 0 infinite; first at row 1, column 2, band 1)") {
		t.Fatalf("exit %d:\n%s%s", code, out, errs)
	}
	// convert reads NaN as no-data, as GDAL does: the output declares it
	// and keeps the NaN samples.
	code, _, errs = runCmd(t, "convert", "-in", p, "-out", filepath.Join(dir, "o.hdr"))
	if code != 0 {
		t.Fatalf("convert of NaN: exit %d: %s", code, errs)
	}
	o, _, err := formats.Read(filepath.Join(dir, "o.hdr"), hsi.ReadOptions{})
	var nf *hsi.NonFiniteError
	if err != nil && !errors.As(err, &nf) {
		t.Fatal(err)
	}
	if o == nil || !o.Meta.HasDataIgnore || !math.IsNaN(o.Meta.DataIgnore) || !math.IsNaN(float64(o.Data[13])) {
		t.Fatalf("convert of NaN: no-data not declared or NaN lost: %+v", o)
	}
	// An infinite value is still refused, naming the file and the position.
	inf := math.Float32bits(float32(math.Inf(1)))
	data[4*13], data[4*13+1], data[4*13+2], data[4*13+3] = byte(inf), byte(inf>>8), byte(inf>>16), byte(inf>>24)
	os.WriteFile(filepath.Join(dir, "n.img"), data, 0o644)
	code, _, errs = runCmd(t, "convert", "-in", p, "-out", filepath.Join(dir, "i.npy"))
	if code != 1 || !strings.Contains(errs, "n.") || !strings.Contains(errs, "row 1, column 2, band 1") {
		t.Fatalf("convert of Inf: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "i.npy")); err == nil {
		t.Fatal("output written for infinite input")
	}
}

func TestInfoBadInput(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "t.hdr"), []byte("ENVI\nsamples = 4\nlines = 4\nbands = 2\ndata type = 12\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "t.img"), make([]byte, 40), 0o644)
	os.WriteFile(filepath.Join(dir, "u.hdr"), []byte("ENVI\nsamples = 4\nlines = 4\nbands = 2\ndata type = 8\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "u.img"), make([]byte, 400), 0o644)
	os.WriteFile(filepath.Join(dir, "z.hdr"), []byte("ENVI\nsamples = 4\nlines = 4\nbands = 0\ndata type = 4\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "z.img"), make([]byte, 400), 0o644)
	os.WriteFile(filepath.Join(dir, "m.hdr"), []byte("ENVI\nsamples = 4\nbands = 1\ndata type = 4\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "m.img"), make([]byte, 400), 0o644)
	os.WriteFile(filepath.Join(dir, "x.jpg"), []byte("jpeg"), 0o644)
	for _, tc := range []struct{ file, want string }{
		{"t.hdr", "holds 40 bytes, but header "},
		{"u.hdr", "unknown data type = 8"},
		{"z.hdr", "bands = 0"},
		{"m.hdr", `required field "lines" is missing`},
		{"x.jpg", "unknown file format"},
		{"missing.npy", "no such file"},
	} {
		p := filepath.Join(dir, tc.file)
		for _, args := range [][]string{{"info", p}, {"convert", "-in", p, "-out", filepath.Join(dir, "out.hdr")}} {
			code, _, errs := runCmd(t, args...)
			if code != 1 || !strings.Contains(errs, tc.want) || !strings.Contains(errs, tc.file) {
				t.Errorf("%v: exit %d, stderr %q; want %q naming %s", args, code, errs, tc.want, tc.file)
			}
		}
	}
	if ents, _ := filepath.Glob(filepath.Join(dir, "out*")); len(ents) != 0 {
		t.Fatalf("convert left %v", ents)
	}
}

// TestDashDashBeforePaths: a file whose name starts with "-" is not read
// as a flag after "--" (what the QGIS provider passes before paths), and
// as the value of -in or -out it is the value (Go's flags take the next
// argument whole); a "--" with nothing after it is accepted too.
func TestDashDashBeforePaths(t *testing.T) {
	src, err := filepath.Abs("../../hsi/envi/testdata/spectral_meta.hdr")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if code, _, errs := runCmd(t, "convert", "-in", src, "-out", "-c.npy", "--"); code != 0 {
		t.Fatalf("convert -out -c.npy --: exit %d: %s", code, errs)
	}
	if code, _, errs := runCmd(t, "info", "-c.npy"); code != 2 || !strings.Contains(errs, "flag provided but not defined: -c.npy") {
		t.Fatalf("info -c.npy without --: exit %d: %s", code, errs)
	}
	code, out, errs := runCmd(t, "info", "--", "-c.npy")
	if code != 0 || !strings.Contains(out, "file:           -c.npy") || !strings.Contains(out, "shape:          5 x 7 x 4") {
		t.Fatalf("info -- -c.npy: exit %d: %s %s", code, out, errs)
	}
	if code, _, errs := runCmd(t, "upscale", "-in", "-c.npy", "-out", "-u.npy", "-scale", "2", "-method", "bicubic", "--"); code != 0 {
		t.Fatalf("upscale -in -c.npy -out -u.npy --: exit %d: %s", code, errs)
	}
	if code, out, errs := runCmd(t, "info", "--", "-u.npy"); code != 0 || !strings.Contains(out, "shape:          10 x 14 x 4") {
		t.Fatalf("info -- -u.npy: exit %d: %s %s", code, out, errs)
	}
	if code, _, errs := runCmd(t, "degrade", "-in", "-u.npy", "-out", "-d.npy", "-scale", "2", "--"); code != 0 {
		t.Fatalf("degrade -in -u.npy -out -d.npy --: exit %d: %s", code, errs)
	}
}
