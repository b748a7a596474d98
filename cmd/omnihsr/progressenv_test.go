package main

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// progressLines returns the fractions of the "progress F" lines of stderr
// and fails on a malformed one.
func progressLines(t *testing.T, stderr string) []float64 {
	t.Helper()
	var fs []float64
	for _, l := range strings.Split(stderr, "\n") {
		v, ok := strings.CutPrefix(l, "progress ")
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 1 || len(v) != 5 {
			t.Fatalf("malformed progress line %q", l)
		}
		fs = append(fs, f)
	}
	return fs
}

func TestProgressEnv(t *testing.T) {
	dir := t.TempDir()
	c := testrand.Cube(testrand.New(5, 6), 40, 36, 3)
	npy, hdr := filepath.Join(dir, "in.npy"), filepath.Join(dir, "in.hdr")
	for _, p := range []string{npy, hdr} {
		if err := formats.Write(p, c, hsi.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		args    []string
		outputs int // bars, each ending at 1 (upscale: one for the whole run, all outputs)
	}{
		{"upscale", []string{"upscale", "-in", npy, "-out", filepath.Join(dir, "u.npy"), "-scale", "3", "-method", "bicubic"}, 1},
		{"upscale model", []string{"upscale", "-in", npy, "-out", filepath.Join(dir, "m.tif"), "-scale", "2"}, 1},
		{"upscale rows", []string{"upscale", "-in", hdr, "-out", filepath.Join(dir, "r.hdr"), "-scale", "2", "-method", "bicubic"}, 1},
		{"upscale scales", []string{"upscale", "-in", npy, "-out", filepath.Join(dir, "s_x{scale}.npy"), "-scales", "2,3"}, 1},
		{"degrade", []string{"degrade", "-in", npy, "-out", filepath.Join(dir, "d.npy"), "-scale", "2"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, env := range []string{"", "0", "1"} {
				t.Setenv(progressEnv, env)
				var out, errb bytes.Buffer
				if code := run(append(tc.args, "-overwrite"), &out, &errb); code != 0 {
					t.Fatalf("%s=%q: exit %d: %s", progressEnv, env, code, errb.String())
				}
				fs := progressLines(t, errb.String())
				if env != "1" {
					if len(fs) != 0 {
						t.Fatalf("%s=%q: progress lines on stderr %q", progressEnv, env, errb.String())
					}
					continue
				}
				ends := 0
				for i, f := range fs {
					if f == 1 {
						ends++
					} else if i+1 < len(fs) && fs[i+1] <= f {
						t.Fatalf("progress goes from %v to %v: %q", f, fs[i+1], errb.String())
					}
				}
				if ends != tc.outputs || fs[len(fs)-1] != 1 {
					t.Fatalf("progress lines %v: want %d bar(s) each ending at 1.000", fs, tc.outputs)
				}
				if !strings.Contains(out.String(), "wrote ") {
					t.Fatalf("stdout %q lacks the wrote line", out.String())
				}
			}
		})
	}
}

func TestProgressEnvBadValue(t *testing.T) {
	t.Setenv(progressEnv, "yes")
	var out, errb bytes.Buffer
	code := run([]string{"upscale", "-in", "nothing.npy", "-out", "o.npy", "-scale", "2"}, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), `OMNIHSR_PROGRESS="yes": want 1`) {
		t.Fatalf("exit %d, stderr %q: want 2 and a message naming OMNIHSR_PROGRESS", code, errb.String())
	}
}

// Issue 39: OMNIHSR_PROGRESS=bogus made version, info and convert exit 2,
// although they print no progress. Only upscale and degrade read it.
func TestProgressEnvIgnoredWhereNoProgress(t *testing.T) {
	t.Setenv(progressEnv, "bogus")
	dir := t.TempDir()
	in := hostileCube(t, dir, "in.npy", 3, 3, 2)
	for _, args := range [][]string{{"version"}, {"info", in}, {"convert", "-in", in, "-out", filepath.Join(dir, "o.hdr")}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			t.Errorf("%s under OMNIHSR_PROGRESS=bogus: exit %d, %q", args[0], code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"degrade", "-in", in, "-out", filepath.Join(dir, "d.npy"), "-scale", "2"}, &out, &errb); code != 2 {
		t.Errorf("degrade under OMNIHSR_PROGRESS=bogus: exit %d; want 2", code)
	}
}
