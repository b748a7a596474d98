package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/noise"
)

// upscale estimates the input's noise, says so, and routes a noisy input
// to the noise-aware model and a clean one to the clean model; -noise and
// -noise-file override the estimate; bad values are usage errors.
func TestUpscaleNoise(t *testing.T) {
	dir := t.TempDir()
	clean := writeTestCube(t, dir)
	c, _, err := formats.Read(clean, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := (noise.Spec{Kind: noise.White, Sigma: 60}).Add(c, rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Fatal(err)
	}
	noisy := filepath.Join(dir, "noisy.npy")
	if err := formats.Write(noisy, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "o.npy")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"clean estimated", []string{"-in", clean}, "estimated from the input"},
		{"clean to the clean model", []string{"-in", clean}, "rendered by the model for clean inputs"},
		{"noisy estimated", []string{"-in", noisy}, "rendered by the noise-aware model"},
		{"noisy field gain", []string{"-in", noisy}, "% of its operator field (measured on the input from half its size)"},
		{"noisy treated as clean", []string{"-in", noisy, "-noise", "clean"}, "noise 0 (root mean square over the bands, given"},
		{"given sigma", []string{"-in", clean, "-noise", "60"}, "noise 60 (root mean square over the bands, given"},
		{"self-ensemble", []string{"-in", noisy, "-method", "omnihsr-se"}, "rendered by the noise-aware model"},
	} {
		code, _, stderr := runCmd(t, append([]string{"upscale", "-v", "-out", out, "-scale", "2"}, tc.args...)...)
		if code != 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, want %q in stderr:\n%s", tc.name, code, tc.want, stderr)
		}
	}
	// Without -v one plain line: the noise as a share of the signal next
	// to the limit, and the model chosen.
	for _, tc := range []struct{ in, want string }{
		{clean, "upscale: input looks clean: estimated noise "},
		{noisy, "upscale: input looks noisy: estimated noise "},
	} {
		code, _, stderr := runCmd(t, "upscale", "-in", tc.in, "-out", out, "-scale", "2")
		if code != 0 || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "% limit; using the ") || strings.Contains(stderr, "gate") {
			t.Errorf("%s: exit %d, want one plain line %q... in stderr:\n%s", tc.in, code, tc.want, stderr)
		}
	}
	code, _, stderr := runCmd(t, "upscale", "-in", noisy, "-out", out, "-scale", "2", "-method", "bicubic")
	if code != 0 || strings.Contains(stderr, "noise") {
		t.Errorf("bicubic: exit %d, stderr mentions noise:\n%s", code, stderr)
	}
	txt := filepath.Join(dir, "sigma.txt")
	if err := os.WriteFile(txt, []byte("# per band\n1, 2, 3\n4 5 6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.txt")
	if err := os.WriteFile(short, []byte("1 2 3"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("1 2 x 4 5 6"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCmd(t, "upscale", "-v", "-in", clean, "-out", out, "-scale", "2", "-noise-file", txt)
	if code != 0 || !strings.Contains(stderr, "noise 3.894") { // sqrt((1+4+...+36)/6)
		t.Errorf("-noise-file: exit %d:\n%s", code, stderr)
	}
	// An uncertainty cube of the input's bands: the per-band RMS.
	code, _, stderr = runCmd(t, "upscale", "-in", clean, "-out", out, "-scale", "2", "-noise-file", noisy)
	if code != 0 || !strings.Contains(stderr, "given") {
		t.Errorf("-noise-file cube: exit %d:\n%s", code, stderr)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-noise", "-1"}, 2, "-noise"},
		{[]string{"-noise", "lots"}, 2, "-noise"},
		{[]string{"-noise", "NaN"}, 2, "-noise"},
		{[]string{"-noise", "3", "-noise-file", txt}, 2, "not both"},
		{[]string{"-noise-file", short}, 1, "3 values, the input has 6 bands"},
		{[]string{"-noise-file", bad}, 1, "line 1"},
		{[]string{"-noise-file", filepath.Join(dir, "missing.txt")}, 1, "missing.txt"},
	} {
		code, _, stderr := runCmd(t, append([]string{"upscale", "-in", clean, "-out", out, "-scale", "2"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d (want %d), want %q in:\n%s", tc.args, code, tc.code, tc.want, stderr)
		}
	}
}

// -noise-file auto takes an EMIT reflectance granule's RFLUNCERT companion
// from the same folder, for the swath and the -ortho grid alike; a missing
// or mismatched companion and an input that is not an EMIT granule are
// errors naming the file.
func TestUpscaleNoiseFileAuto(t *testing.T) {
	src := filepath.Join("..", "..", "hsi", "products", "testdata")
	const rfl = "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc"
	const unc = "EMIT_L2A_RFLUNCERT_001_20230801T101112_2321307_002.nc"
	copyTo := func(dir, from, to string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(src, from))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, to)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	both := t.TempDir()
	in := copyTo(both, rfl, rfl)
	copyTo(both, unc, unc)
	alone := copyTo(t.TempDir(), rfl, rfl)
	wrong := t.TempDir()
	wrongIn := copyTo(wrong, rfl, rfl)
	copyTo(wrong, "generic_hwb.nc", unc)
	out := filepath.Join(t.TempDir(), "o.tif")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		// 0.00379: the root mean square of emit_uncert_golden.json's rms over the five good bands
		{"swath", []string{"-in", in}, 0, []string{"noise from " + filepath.Join(both, unc), "noise 0.00379 (root mean square over the bands, given"}},
		{"ortho", []string{"-in", in, "-ortho"}, 0, []string{"noise from " + filepath.Join(both, unc), "noise 0.00379 (root mean square over the bands, given"}},
		{"no companion", []string{"-in", alone}, 1, []string{"noise companion", unc, "no such file"}},
		{"not the granule's", []string{"-in", wrongIn}, 1, []string{"noise file " + filepath.Join(wrong, unc), "4 bands, the input has 7"}},
		{"not EMIT", []string{"-in", filepath.Join(src, "generic_hwb.nc")}, 1, []string{"not named as an EMIT L2A reflectance granule"}},
	} {
		code, _, stderr := runCmd(t, append([]string{"upscale", "-v", "-out", out, "-overwrite", "-scale", "2", "-noise-file", "auto"}, tc.args...)...)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d:\n%s", tc.name, code, tc.code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: want %q in stderr:\n%s", tc.name, w, stderr)
			}
		}
	}
}
