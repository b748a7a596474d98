package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// Issue 29, CLI: -scales 2,2 rendered the same output twice. A factor
// given twice is refused, naming -scales, before the input is read.
func TestUpscaleScalesTwiceRefused(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.npy")
	code, stderr := runRsCmd(t, "upscale", "-in", missing, "-out", dir+"/", "-scales", "2,3,2", "-method", "bicubic")
	if code != 2 || !strings.Contains(stderr, "-scales 2,3,2: factor 2 given twice") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

// Issue 29, CLI: -type bogus exited 1 after reading the input. It exits 2
// at once, naming -type (the input here does not even exist).
func TestTypeBogusRefusedEarly(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.npy")
	for _, args := range [][]string{
		{"upscale", "-in", missing, "-out", filepath.Join(dir, "o.npy"), "-scale", "2", "-type", "bogus"},
		{"convert", "-in", missing, "-out", filepath.Join(dir, "o.npy"), "-type", "int128"},
		{"degrade", "-in", missing, "-out", filepath.Join(dir, "o.npy"), "-scale", "2", "-type", "bogus"},
	} {
		code, stderr := runRsCmd(t, args...)
		if code != 2 || !strings.Contains(stderr, "-type \"") || strings.Contains(stderr, "missing.npy") {
			t.Errorf("%s: exit %d, %q; want 2 naming -type before reading", args[0], code, stderr)
		}
	}
}

// Issue 29, CLI: -type int64 and uint64 refused values outside their
// range (the float64 nearest 2^63-1 is 2^63, which float32 holds) instead
// of clamping them as documented and as the other integer types do.
func TestInt64Clamps(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.npy")
	c := testrand.Cube(testrand.New(4, 4), 4, 4, 2)
	vals := []float32{1e30, -1e30, float32(math.Ldexp(1, 63)), float32(math.Ldexp(1, 64)), 3e19, -5}
	copy(c.Data, vals)
	if err := formats.Write(in, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		typ    string
		lo, hi float32
	}{
		{"int64", float32(math.Ldexp(-1, 63)), math.Nextafter32(float32(math.Ldexp(1, 63)), 0)},
		{"uint64", 0, math.Nextafter32(float32(math.Ldexp(1, 64)), 0)},
	} {
		for _, ext := range []string{".npy", ".hdr"} {
			out := filepath.Join(dir, tc.typ+ext)
			code, stderr := runRsCmd(t, "convert", "-in", in, "-out", out, "-type", tc.typ)
			if code != 0 || !strings.Contains(stderr, "clamped") {
				t.Fatalf("convert -type %s to %s: exit %d, %q; want the values clamped with a warning", tc.typ, ext, code, stderr)
			}
			got := rsReadBack(t, out)
			for i, v := range vals {
				want := min(max(float32(math.Round(float64(v))), tc.lo), tc.hi)
				if got.Data[i] != want {
					t.Errorf("-type %s %s: %g written as %g, want %g", tc.typ, ext, v, got.Data[i], want)
				}
			}
		}
	}
}

// Issue 29, CLI: on an NPY input -ortho, -var and -layout were silently
// ignored. A flag the input's format would ignore is refused, naming it;
// -var naming a MATLAB output's variable (convert) is kept.
func TestReadFlagsThatDoNotApplyRefused(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.npy")
	if err := formats.Write(in, testrand.Cube(testrand.New(4, 4), 4, 4, 2), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "o.npy")
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"info", in, "-ortho"}, "-ortho"},
		{[]string{"info", in, "-var", "cube"}, "-var"},
		{[]string{"upscale", "-in", in, "-out", out, "-scale", "2", "-method", "bicubic", "-layout", "HWB"}, "-layout"},
		{[]string{"convert", "-in", in, "-out", out, "-var", "x"}, "-var"},
		{[]string{"convert", "-in", in, "-out", out, "-height", "4"}, "-height/-width"},
		{[]string{"degrade", "-in", in, "-out", out, "-scale", "2", "-ortho"}, "-ortho"},
	} {
		code, stderr := runRsCmd(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.flag+" does not apply to a NPY file") {
			t.Errorf("%v: exit %d, %q; want 2 naming %s", tc.args, code, stderr, tc.flag)
		}
	}
	if code, stderr := runRsCmd(t, "convert", "-in", in, "-out", filepath.Join(dir, "o.mat"), "-var", "x"); code != 0 {
		t.Errorf("convert to .mat with -var: exit %d, %q", code, stderr)
	}
}

// Issue 29, CLI: train -steps -1 blamed -stop-at.
func TestTrainStepsNegative(t *testing.T) {
	code, stderr := runRsCmd(t, "train", "-out", t.TempDir(), "-steps", "-1")
	if code != 2 || !strings.Contains(stderr, "-steps -1: want at least 1") || strings.Contains(stderr, "-stop-at") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}
