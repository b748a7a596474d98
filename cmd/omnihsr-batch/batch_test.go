package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/helptext"
)

// omnihsrBin is the omnihsr binary built by TestMain, the reference the
// pipeline's outputs are compared with.
var omnihsrBin string

func TestMain(m *testing.M) {
	if os.Getenv("OMNIHSR_BATCH_MAIN") == "1" {
		// Re-executed by a test as the command itself (signals).
		os.Args = append([]string{"omnihsr-batch"}, strings.Split(os.Getenv("OMNIHSR_BATCH_ARGS"), "\x1f")...)
		main()
		return
	}
	beam.Init()
	dir, err := os.MkdirTemp("", "omnihsr-batch-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	omnihsrBin = filepath.Join(dir, "omnihsr")
	// Built in the main module (../..), with its own go.mod.
	cmd := exec.Command("go", "build", "-o", omnihsrBin, "./cmd/omnihsr")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building omnihsr: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// scene writes an h x w x b cube with smooth structure and a deterministic
// texture to path.
func scene(t *testing.T, path string, h, w, b int, seed float64) {
	t.Helper()
	c, err := hsi.New(h, w, b)
	if err != nil {
		t.Fatal(err)
	}
	for y := range h {
		for x := range w {
			for k := range b {
				v := 0.3 + 0.2*math.Sin(seed+0.7*float64(y)+0.3*float64(k)) + 0.1*math.Cos(1.3*float64(x)*seed) + 0.05*math.Sin(float64(x*y+k)*seed)
				c.Set(y, x, k, float32(v))
			}
		}
	}
	if err := formats.Write(path, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// archive writes six scenes of mixed formats, band counts and shapes and
// one unreadable scene into dir, and returns the manifest's lines (good
// scenes first, the bad one last).
func archive(t *testing.T, dir string) []string {
	t.Helper()
	specs := []struct {
		name    string
		h, w, b int
	}{
		{"a.hdr", 9, 11, 3},
		{"b.npy", 12, 8, 1},
		{"c.tif", 7, 13, 4},
		{"d.hdr", 16, 12, 31},
		{"e.npy", 5, 6, 2},
		{"f.tif", 10, 10, 9},
	}
	var lines []string
	for i, s := range specs {
		scene(t, filepath.Join(dir, s.name), s.h, s.w, s.b, 1.1+float64(i))
		lines = append(lines, s.name)
	}
	// An ENVI header whose data file is shorter than the header promises.
	bad := filepath.Join(dir, "bad.hdr")
	hdr := "ENVI\nsamples = 8\nlines = 8\nbands = 3\nheader offset = 0\nfile type = ENVI Standard\ndata type = 4\ninterleave = bsq\nbyte order = 0\n"
	if err := os.WriteFile(bad, []byte(hdr), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.img"), make([]byte, 40), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(lines, "bad.hdr")
}

func writeManifest(t *testing.T, path string, lines []string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("# scenes\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runBatch(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// maxAbsDiff returns the largest absolute difference of two cubes of the
// same shape.
func maxAbsDiff(t *testing.T, a, b string) float64 {
	t.Helper()
	ca, _, err := formats.Read(a, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cb, _, err := formats.Read(b, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ca.H != cb.H || ca.W != cb.W || ca.B != cb.B {
		t.Fatalf("%s is %dx%dx%d, %s is %dx%dx%d", a, ca.H, ca.W, ca.B, b, cb.H, cb.W, cb.B)
	}
	d := 0.0
	for i := range ca.Data {
		d = max(d, math.Abs(float64(ca.Data[i])-float64(cb.Data[i])))
	}
	return d
}

// TestPipelineEqualsUpscale runs an archive through Prism and compares each
// output with omnihsr upscale's, then checks the dead-letter list and that
// a rerun skips what is complete.
func TestPipelineEqualsUpscale(t *testing.T) {
	for _, m := range []string{"omnihsr", "bicubic"} {
		t.Run(m, func(t *testing.T) {
			dir := t.TempDir()
			in, out, ref := filepath.Join(dir, "in"), filepath.Join(dir, "out"), filepath.Join(dir, "ref")
			for _, d := range []string{in, ref} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			lines := archive(t, in)
			manifest := filepath.Join(in, "manifest.txt")
			writeManifest(t, manifest, lines)

			code, stdout, stderr := runBatch(t, "-manifest", manifest, "-out", out, "-scales", "2,3", "-method", m)
			if code != 1 {
				t.Fatalf("exit %d with a corrupt scene, want 1\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, "1 of 7 scenes failed") {
				t.Errorf("stderr does not name the failure count:\n%s", stderr)
			}
			if !strings.Contains(stdout, "6 written, 0 skipped (complete), 1 failed") {
				t.Errorf("summary: %s", stdout)
			}
			dead, err := os.ReadFile(filepath.Join(out, deadLetterName))
			if err != nil {
				t.Fatalf("no dead-letter list: %v", err)
			}
			deadLines := strings.Split(strings.TrimSpace(string(dead)), "\n")
			if len(deadLines) != 1 || !strings.HasPrefix(deadLines[0], filepath.Join(in, "bad.hdr")+"\t") {
				t.Errorf("dead-letter list = %q, want one line for bad.hdr", dead)
			}

			mtimes := map[string]time.Time{}
			for _, name := range lines[:len(lines)-1] {
				src := filepath.Join(in, name)
				cmd := exec.Command(omnihsrBin, "upscale", "-in", src, "-scales", "2,3", "-method", m, "-out", ref+"/")
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("omnihsr upscale %s: %v\n%s", name, err, b)
				}
				for _, s := range []string{"2", "3"} {
					ext := filepath.Ext(name)
					stem := strings.TrimSuffix(name, ext)
					got, want := filepath.Join(out, stem+"_x"+s+ext), filepath.Join(ref, stem+"_x"+s+ext)
					if d := maxAbsDiff(t, got, want); d != 0 {
						t.Errorf("%s: max abs diff %g from omnihsr upscale, want 0 (the same code path)", got, d)
					}
					for i, f := range formats.WriteFiles(got) {
						a, err1 := os.ReadFile(f)
						b, err2 := os.ReadFile(formats.WriteFiles(want)[i])
						if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
							t.Errorf("%s differs from omnihsr upscale's %s byte for byte (%v, %v)", f, formats.WriteFiles(want)[i], err1, err2)
						}
						st, err := os.Stat(f)
						if err != nil {
							t.Fatal(err)
						}
						mtimes[f] = st.ModTime()
					}
				}
			}

			// A rerun skips the complete outputs and retries the bad scene.
			code, stdout, _ = runBatch(t, "-manifest", manifest, "-out", out, "-scales", "2,3", "-method", m)
			if code != 1 || !strings.Contains(stdout, "0 written, 6 skipped (complete), 1 failed") {
				t.Errorf("rerun: exit %d, %s", code, stdout)
			}
			for f, mt := range mtimes {
				if st, err := os.Stat(f); err != nil || !st.ModTime().Equal(mt) {
					t.Errorf("rerun rewrote %s", f)
				}
			}
			// An output removed is written again; without the bad scene the
			// job succeeds and the stale dead-letter list is gone.
			redo := filepath.Join(out, "c_x3.tif")
			if err := os.Remove(redo); err != nil {
				t.Fatal(err)
			}
			writeManifest(t, manifest, lines[:len(lines)-1])
			code, stdout, stderr = runBatch(t, "-manifest", manifest, "-out", out, "-scales", "2,3", "-method", m)
			if code != 0 || !strings.Contains(stdout, "1 written, 5 skipped (complete), 0 failed") {
				t.Errorf("third run: exit %d\n%s\n%s", code, stdout, stderr)
			}
			if d := maxAbsDiff(t, redo, filepath.Join(ref, "c_x3.tif")); d != 0 {
				t.Errorf("%s rewritten: max abs diff %g", redo, d)
			}
			if _, err := os.Stat(filepath.Join(out, deadLetterName)); err == nil {
				t.Errorf("a run with no failure left %s", deadLetterName)
			}
			left, _ := filepath.Glob(filepath.Join(out, ".*omnihsr-tmp*"))
			if len(left) > 0 {
				t.Errorf("temporaries left: %v", left)
			}
		})
	}
}

func TestFlags(t *testing.T) {
	dir := t.TempDir()
	scene(t, filepath.Join(dir, "a.npy"), 4, 4, 2, 1)
	scene(t, filepath.Join(dir, "sub_a.npy"), 4, 4, 2, 1)
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	scene(t, filepath.Join(dir, "sub", "a.npy"), 4, 4, 2, 1)
	manifest := filepath.Join(dir, "m.txt")
	writeManifest(t, manifest, []string{"a.npy", "sub/a.npy"})
	out := filepath.Join(dir, "out")
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"help", []string{"-help"}, 0, "-manifest"},
		{"no input", []string{"-out", out, "-scale", "2"}, 2, "exactly one of -in and -manifest"},
		{"no factor", []string{"-in", manifest, "-out", out}, 2, "exactly one of -scale and -scales"},
		{"bad factor", []string{"-in", manifest, "-out", out, "-scales", "2,x"}, 2, "is not a number"},
		{"negative", []string{"-in", manifest, "-out", out, "-scale", "-2"}, 2, "want a finite number > 0"},
		{"method", []string{"-in", manifest, "-out", out, "-scale", "2", "-method", "nope"}, 2, "unknown"},
		{"same output", []string{"-manifest", manifest, "-out", out, "-scale", "2"}, 2, "would both be written to"},
		{"glob empty", []string{"-in", filepath.Join(dir, "*.none"), "-out", out, "-scale", "2"}, 2, "matches no file"},
		{"ext", []string{"-in", filepath.Join(dir, "*.npy"), "-out", out, "-scale", "2", "-ext", ".xyz"}, 2, ".xyz"},
		{"stray", []string{"-in", manifest, "-out", out, "-scale", "2", "x"}, 2, "unexpected arguments"},
		{"adapt", []string{"-in", manifest, "-out", out, "-scale", "2", "-adapt", "lots"}, 2, "-adapt \"lots\""},
		{"adapt bicubic", []string{"-in", manifest, "-out", out, "-scale", "2", "-method", "bicubic", "-adapt", "auto"}, 2, "-adapt applies"},
		{"beam flag", []string{"-in", filepath.Join(dir, "*.npy"), "-out", out, "-scale", "2", "--", "--nonesuch=1"}, 2, "Beam flags"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runBatch(t, tc.args...)
			if code != tc.code || !strings.Contains(stdout+stderr, tc.msg) {
				t.Errorf("exit %d, want %d with %q\nstdout: %s\nstderr: %s", code, tc.code, tc.msg, stdout, stderr)
			}
		})
	}
	// The help shows this command's flags only, none of Beam's.
	_, _, help := runBatch(t, "-help")
	for _, beamFlag := range []string{"-job_name", "-worker_binary", "-semi_persist_dir", "-staging_location"} {
		if strings.Contains(help, beamFlag) {
			t.Errorf("-help shows Beam's %s", beamFlag)
		}
	}
	// It fits a terminal of helptext.Width columns.
	for n, line := range strings.Split(help, "\n") {
		if w := helptext.Columns(line); w > helptext.Width {
			t.Errorf("-help line %d is %d columns: %q", n+1, w, line)
		}
	}
}

func TestWorkerMode(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--worker", "--id=1"}, true},
		{[]string{"--id=1", "--worker=true"}, true},
		{[]string{"-in", "x", "-out", "y"}, false},
		{nil, false},
	} {
		if got := workerMode(tc.args); got != tc.want {
			t.Errorf("workerMode(%q) = %v", tc.args, got)
		}
	}
}
