package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The committed sample is exactly what the program makes from the source.
func TestCommittedSampleIsRegenerated(t *testing.T) {
	src := filepath.Join("..", "..", "..", "shared", "data", "hsi", "train", "an_hsi_image_sub_for_demo.mat")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("source scene not available (%v): the sample cannot be regenerated here", err)
	}
	dir := t.TempDir()
	if err := run(src, filepath.Join(dir, "muufl_gulfport.hdr")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"muufl_gulfport.hdr", "muufl_gulfport.img"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "sample", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("sample/%s differs from what go run ./scripts/mksample writes (%d bytes against %d): regenerate it", name, len(want), len(got))
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 2 {
		t.Errorf("the output folder holds %v, want the header and the data file", left)
	}
}

// A source smaller than the crop window is an error naming both sizes.
func TestSourceTooSmall(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "small.hdr")
	hdr := "ENVI\nsamples = 2\nlines = 2\nbands = 1\nheader offset = 0\ndata type = 4\ninterleave = bsq\nbyte order = 0\nwavelength = {500}\n"
	if err := os.WriteFile(src, []byte(hdr), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "small.img"), make([]byte, 16), 0o644); err != nil {
		t.Fatal(err)
	}
	err := run(src, filepath.Join(dir, "out.hdr"))
	if err == nil {
		t.Fatal("no error for a 2 x 2 source")
	}
	if !bytes.Contains([]byte(err.Error()), []byte("2 x 2")) {
		t.Errorf("error %q does not give the source size", err)
	}
	if _, statErr := os.Stat(filepath.Join(dir, "out.hdr")); statErr == nil {
		t.Error("an output was written")
	}
}
