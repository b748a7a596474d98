package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/omnihsr/omnihsr/hsi"
)

// toMemfs copies every file of the local directory dir to memfs root/NAME.
func toMemfs(t *testing.T, dir, root string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		memfs.Write(root+"/"+e.Name(), b)
	}
}

// fileBytes returns the bytes of a local or remote file (nil if absent).
func fileBytes(t *testing.T, p string) []byte {
	t.Helper()
	b, err := readAll(context.Background(), p)
	if err != nil {
		return nil
	}
	return b
}

// upscaleRefs runs omnihsr upscale on each input into refDir and returns
// the names of the files it wrote.
func upscaleRefs(t *testing.T, inputs []string, refDir string, args ...string) []string {
	t.Helper()
	if err := os.MkdirAll(refDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		cmd := exec.Command(omnihsrBin, append([]string{"upscale", "-in", in, "-out", refDir + "/"}, args...)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("omnihsr upscale %s: %v\n%s", in, err, b)
		}
	}
	ents, err := os.ReadDir(refDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// sameFiles checks that outDir (local or remote) holds each reference file
// of refDir byte for byte.
func sameFiles(t *testing.T, outDir, refDir string, names []string) {
	t.Helper()
	for _, n := range names {
		want, err := os.ReadFile(filepath.Join(refDir, n))
		if err != nil {
			t.Fatal(err)
		}
		if got := fileBytes(t, joinPath(outDir, n)); !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, differs from omnihsr upscale's %d bytes", joinPath(outDir, n), len(got), len(want))
		}
	}
}

// memList returns the memfs files under root, without the scheme and root.
func memList(t *testing.T, root string) []string {
	t.Helper()
	paths, err := listGlob(context.Background(), root+"/*")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, strings.TrimPrefix(p, root+"/"))
	}
	return names
}

// TestRemoteStore runs an archive kept on memfs:// (standing in for gs://
// or s3://) through Prism into memfs://: manifest, scenes (ENVI pairs
// included) and outputs go through Beam's file system API. The outputs
// equal omnihsr upscale's byte for byte, the bad scene is a dead letter,
// a rerun skips what is complete and redoes what is missing.
func TestRemoteStore(t *testing.T) {
	dir := t.TempDir()
	in, ref := filepath.Join(dir, "in"), filepath.Join(dir, "ref")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	lines := archive(t, in)
	writeManifest(t, filepath.Join(in, "manifest.txt"), lines)
	root := "memfs://remote-store"
	toMemfs(t, in, root+"/in")
	var inputs []string
	for _, l := range lines[:len(lines)-1] {
		inputs = append(inputs, filepath.Join(in, l))
	}
	refNames := upscaleRefs(t, inputs, ref, "-scales", "2,3")
	out := root + "/out"
	args := []string{"-manifest", root + "/in/manifest.txt", "-out", out, "-scales", "2,3"}

	code, stdout, stderr := runBatch(t, args...)
	if code != 1 || !strings.Contains(stdout, "6 written, 0 skipped (complete), 1 failed") || !strings.Contains(stderr, "1 of 7 scenes failed") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	dead := strings.Split(strings.TrimSpace(string(fileBytes(t, out+"/"+deadLetterName))), "\n")
	if len(dead) != 1 || !strings.HasPrefix(dead[0], root+"/in/bad.hdr\t") {
		t.Errorf("dead letters %q, want one line for %s/in/bad.hdr", dead, root)
	}
	if strings.Contains(dead[0], "omnihsr-scene-") {
		t.Errorf("the dead letter names the scratch copy: %s", dead[0])
	}
	sameFiles(t, out, ref, refNames)
	// Nothing but the outputs and the dead-letter list: no temporary left.
	if got, want := memList(t, out), append(slices.Clone(refNames), deadLetterName); !equalSets(got, want) {
		t.Errorf("memfs %s holds %q, want %q", out, got, want)
	}

	code, stdout, _ = runBatch(t, args...)
	if code != 1 || !strings.Contains(stdout, "0 written, 6 skipped (complete), 1 failed") {
		t.Errorf("rerun: exit %d, %s", code, stdout)
	}

	// A missing output, or an ENVI data file without its header, is
	// written again; without the bad scene the job succeeds and the stale
	// dead-letter list is removed.
	fsys, err := filesystem.New(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	rm := fsys.(filesystem.Remover)
	for _, f := range []string{"c_x3.tif", "d_x2.hdr"} {
		if err := rm.Remove(context.Background(), out+"/"+f); err != nil {
			t.Fatal(err)
		}
	}
	memfs.Write(root+"/in/manifest.txt", []byte(strings.Join(lines[:len(lines)-1], "\n")+"\n"))
	code, stdout, stderr = runBatch(t, args...)
	if code != 0 || !strings.Contains(stdout, "2 written, 4 skipped (complete), 0 failed") {
		t.Errorf("third run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	sameFiles(t, out, ref, refNames)
	if got := memList(t, out); !equalSets(got, refNames) {
		t.Errorf("after a run with no failure memfs %s holds %q, want %q", out, got, refNames)
	}
}

func equalSets(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestRemoteMixed covers a remote glob into a local directory (ENVI data
// files found with their headers) and a local glob into a remote one.
func TestRemoteMixed(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	archive(t, in)
	root := "memfs://remote-mixed"
	toMemfs(t, in, root+"/in")
	tests := []struct {
		name, glob string
		inputs     []string // the local equivalents, for omnihsr upscale
		out        string
		written    string
	}{
		{"remote npy to local", root + "/in/*.npy", []string{"b.npy", "e.npy"}, filepath.Join(dir, "out1"), "2 written"},
		{"remote ENVI data files to local", root + "/in/[ad].img", []string{"a.img", "d.img"}, filepath.Join(dir, "out2"), "2 written"},
		{"local tif to remote", filepath.Join(in, "*.tif"), []string{"c.tif", "f.tif"}, root + "/out3", "2 written"},
		{"remote ENVI headers to remote", root + "/in/[ad].hdr", []string{"a.hdr", "d.hdr"}, root + "/out4", "2 written"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var inputs []string
			for _, n := range tc.inputs {
				inputs = append(inputs, filepath.Join(in, n))
			}
			ref := filepath.Join(dir, "ref"+string(rune('0'+i)))
			names := upscaleRefs(t, inputs, ref, "-scale", "2", "-method", "bicubic")
			code, stdout, stderr := runBatch(t, "-in", tc.glob, "-out", tc.out, "-scale", "2", "-method", "bicubic")
			if code != 0 || !strings.Contains(stdout, tc.written) {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			sameFiles(t, tc.out, ref, names)
			code, stdout, _ = runBatch(t, "-in", tc.glob, "-out", tc.out, "-scale", "2", "-method", "bicubic")
			if code != 0 || !strings.Contains(stdout, "0 written, 2 skipped") {
				t.Errorf("rerun: exit %d, %s", code, stdout)
			}
		})
	}
}

// TestStageBoundedByDisk: a remote scene larger than the scratch
// directory's free space is refused before anything is copied.
func TestStageBoundedByDisk(t *testing.T) {
	dir := t.TempDir()
	scene(t, filepath.Join(dir, "a.hdr"), 6, 5, 4, 1)
	toMemfs(t, dir, "memfs://stage-disk")
	defer func(f func(string) (uint64, bool)) { freeSpace = f }(freeSpace)
	freeSpace = func(string) (uint64, bool) { return 100, true }
	scratch := t.TempDir()
	o := Options{OutDir: filepath.Join(dir, "out"), Factors: []float64{2}, Method: "bicubic", Scratch: scratch}
	_, err := processScene(context.Background(), "memfs://stage-disk/a.hdr", o)
	if !errors.Is(err, hsi.ErrNoSpace) || !strings.Contains(err.Error(), "memfs://stage-disk/a.hdr") {
		t.Errorf("error %v, want one naming the scene and matching hsi.ErrNoSpace", err)
	}
	if left, _ := os.ReadDir(scratch); len(left) != 0 {
		t.Errorf("scratch directory not emptied: %v", left)
	}
	if _, err := os.Stat(o.OutDir); err == nil {
		t.Errorf("%s created", o.OutDir)
	}
}

// testFS is an in-memory file system without Rename, for publish's other
// two strategies: with abort true its writers commit on Close unless their
// context was cancelled (as GCS and S3 uploads do); with abort false they
// commit on Close whatever happened. A writer fails once it has taken
// failAfter bytes (0: never).
type testFS struct {
	mu        sync.Mutex
	m         map[string][]byte
	abort     bool
	failAfter int
}

func (f *testFS) Close() error { return nil }

func (f *testFS) List(_ context.Context, glob string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for k := range f.m {
		if ok, _ := path.Match(glob, k); ok {
			out = append(out, k)
		}
	}
	return out, nil
}

func (f *testFS) OpenRead(_ context.Context, name string) (io.ReadCloser, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.m[name]
	if !ok {
		return nil, os.ErrNotExist
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

func (f *testFS) Size(_ context.Context, name string) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.m[name]
	if !ok {
		return -1, os.ErrNotExist
	}
	return int64(len(b)), nil
}

func (f *testFS) Remove(_ context.Context, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.m, name)
	return nil
}

func (f *testFS) OpenWrite(ctx context.Context, name string) (io.WriteCloser, error) {
	return &testWriter{fs: f, ctx: ctx, name: name}, nil
}

type testWriter struct {
	fs   *testFS
	ctx  context.Context
	name string
	buf  bytes.Buffer
}

func (w *testWriter) Write(p []byte) (int, error) {
	if w.fs.failAfter > 0 && w.buf.Len()+len(p) > w.fs.failAfter {
		return 0, errors.New("connection reset")
	}
	return w.buf.Write(p)
}

func (w *testWriter) Close() error {
	if w.fs.abort && w.ctx.Err() != nil {
		return w.ctx.Err()
	}
	w.fs.mu.Lock()
	defer w.fs.mu.Unlock()
	w.fs.m[w.name] = bytes.Clone(w.buf.Bytes())
	return nil
}

var (
	abortFS = &testFS{m: map[string][]byte{}, abort: true}
	plainFS = &testFS{m: map[string][]byte{}}
)

func init() {
	filesystem.Register("abortfs", func(context.Context) filesystem.Interface { return abortFS })
	filesystem.Register("plainfs", func(context.Context) filesystem.Interface { return plainFS })
}

// failingReader gives n bytes, then an error.
type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, errors.New("disk read error")
	}
	k := min(len(p), r.n)
	for i := range k {
		p[i] = 'x'
	}
	r.n -= k
	return k, nil
}

// TestPublish checks each of publish's strategies: a complete copy
// replaces the destination; a copy that fails (the source or the store)
// leaves the old destination (rename, abort on cancel) or none (the
// others), never part of the new one, and no temporary.
func TestPublish(t *testing.T) {
	abortsOnCancel["abortfs"] = true
	defer delete(abortsOnCancel, "abortfs")
	const old = "old contents"
	newData := bytes.Repeat([]byte("new!"), 1000)
	tests := []struct {
		name      string
		dst       string
		fs        *testFS // nil for memfs
		src       func() io.Reader
		failAfter int
		wantErr   bool
		want      string // the destination afterwards ("" = absent)
	}{
		{"memfs ok", "memfs://pub/a/x.img", nil, func() io.Reader { return bytes.NewReader(newData) }, 0, false, string(newData)},
		{"memfs source fails", "memfs://pub/b/x.img", nil, func() io.Reader { return &failingReader{n: 1500} }, 0, true, old},
		{"abort ok", "abortfs://pub/a/x.img", abortFS, func() io.Reader { return bytes.NewReader(newData) }, 0, false, string(newData)},
		{"abort source fails", "abortfs://pub/b/x.img", abortFS, func() io.Reader { return &failingReader{n: 1500} }, 0, true, old},
		{"abort store fails", "abortfs://pub/c/x.img", abortFS, func() io.Reader { return bytes.NewReader(newData) }, 2000, true, old},
		{"plain ok", "plainfs://pub/a/x.img", plainFS, func() io.Reader { return bytes.NewReader(newData) }, 0, false, string(newData)},
		{"plain source fails", "plainfs://pub/b/x.img", plainFS, func() io.Reader { return &failingReader{n: 1500} }, 0, true, ""},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.fs != nil {
				tc.fs.m[tc.dst] = []byte(old)
				tc.fs.failAfter = tc.failAfter
				defer func() { tc.fs.failAfter = 0 }()
			} else {
				memfs.Write(tc.dst, []byte(old))
			}
			err := publishFrom(ctx, tc.src(), tc.dst)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want an error: %v", err, tc.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), tc.dst) {
				t.Errorf("error %q does not name %s", err, tc.dst)
			}
			if got := string(fileBytes(t, tc.dst)); got != tc.want {
				t.Errorf("destination holds %d bytes, want %d", len(got), len(tc.want))
			}
			left, err := listGlob(ctx, dirOf(tc.dst)+"/*")
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range left {
				if p != tc.dst {
					t.Errorf("left behind: %s", p)
				}
			}
		})
	}
}

func TestPaths(t *testing.T) {
	tests := []struct {
		p, scheme, dir, joined string
	}{
		{"gs://bucket/a/b.hdr", "gs", "gs://bucket/a", "gs://bucket/a/b.hdr/x"},
		{"s3://bucket/b.hdr", "s3", "s3://bucket", "s3://bucket/b.hdr/x"},
		{"memfs://b.hdr", "memfs", "memfs://b.hdr", "memfs://b.hdr/x"},
		{"s3://bucket/out/", "s3", "s3://bucket/out", "s3://bucket/out/x"},
		{"/data/a/b.hdr", "", "/data/a", "/data/a/b.hdr/x"},
		{"rel/b.npy", "", "rel", "rel/b.npy/x"},
	}
	for _, tc := range tests {
		if got := scheme(tc.p); got != tc.scheme {
			t.Errorf("scheme(%q) = %q, want %q", tc.p, got, tc.scheme)
		}
		if got := dirOf(tc.p); got != tc.dir {
			t.Errorf("dirOf(%q) = %q, want %q", tc.p, got, tc.dir)
		}
		if got := joinPath(tc.p, "x"); got != tc.joined {
			t.Errorf("joinPath(%q, x) = %q, want %q", tc.p, got, tc.joined)
		}
	}
	o := Options{OutDir: "gs://bucket/sr", Factors: []float64{2, 3.5}}
	if got := outputPaths(o, "s3://other/in/scene.img"); !slices.Equal(got, []string{"gs://bucket/sr/scene_x2.hdr", "gs://bucket/sr/scene_x3.5.hdr"}) {
		t.Errorf("outputPaths = %q", got)
	}
}

// A remote scene's error names the scene as the job knows it (not its
// scratch copy) and keeps its chain: errors.Is sees the cause.
func TestRemoteErrorChain(t *testing.T) {
	dir := t.TempDir()
	scene(t, filepath.Join(dir, "a.hdr"), 6, 5, 4, 1)
	toMemfs(t, dir, "memfs://chain")
	o := Options{OutDir: filepath.Join(dir, "out"), Factors: []float64{2}, Weights: filepath.Join(dir, "missing.omw"), Scratch: t.TempDir()}
	_, err := processScene(context.Background(), "memfs://chain/a.hdr", o)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "memfs://chain/a.hdr") || strings.Contains(err.Error(), o.Scratch) {
		t.Errorf("error %v, want one naming memfs://chain/a.hdr and wrapping fs.ErrNotExist", err)
	}
}
