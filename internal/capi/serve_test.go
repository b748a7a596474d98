package capi

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/npy"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// serveCall writes req (and in, when not nil) into a fresh directory, runs
// Serve on it and returns the directory, the exit status and stdout.
func serveCall(t *testing.T, req Request, in *hsi.Cube) (string, int, string) {
	t.Helper()
	dir := t.TempDir()
	b, _ := json.Marshal(req)
	if err := os.WriteFile(filepath.Join(dir, "request.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	if in != nil {
		if err := npy.Write(filepath.Join(dir, "in.npy"), in, hsi.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	code := Serve(context.Background(), []string{dir}, &out, io.Discard)
	return dir, code, out.String()
}

// TestServeUpscale: the subprocess backend's upscale gives UpscaleArray's
// samples and result, with progress lines on stdout.
func TestServeUpscale(t *testing.T) {
	rng := testrand.New(42, 1)
	c := &hsi.Cube{H: 9, W: 7, B: 3, Data: make([]float32, 9*7*3)}
	for i := range c.Data {
		c.Data[i] = 1 + rng.Float32()
	}
	opts := `{"scale": 2, "method": "bicubic"}`
	want, res, err := UpscaleArray(context.Background(), slices.Clone(c.Data), 9, 7, 3, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir, code, stdout := serveCall(t, Request{Fn: "upscale", Options: opts}, c)
	if code != 0 {
		b, _ := os.ReadFile(filepath.Join(dir, "error.json"))
		t.Fatalf("exit %d: %s", code, b)
	}
	got, err := readArray(filepath.Join(dir, "out.npy"))
	if err != nil {
		t.Fatal(err)
	}
	if got.H != 18 || got.W != 14 || got.B != 3 || !slices.Equal(got.Data, want) {
		t.Fatalf("out.npy: %d x %d x %d, not UpscaleArray's samples", got.H, got.W, got.B)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "result.json"))
	s, _ := Marshal(ResultOf(res, false))
	if string(b) != s {
		t.Fatalf("result.json %s, want %s", b, s)
	}
	if !strings.HasPrefix(stdout, "progress ") || !strings.HasSuffix(stdout, "progress 18 18\n") {
		t.Fatalf("progress lines %q", stdout)
	}
}

// TestServeErrors: errors go to error.json with the C ABI's status, exit 1.
func TestServeErrors(t *testing.T) {
	for _, tc := range []struct {
		req    Request
		status int
		text   string
	}{
		{Request{Fn: "output_size", H: 4, W: 4, Options: `{"scale": -1}`}, StatusOption, "scale -1"},
		{Request{Fn: "read", Path: "/nonexistent/x.hdr"}, StatusNotFound, "x.hdr"},
		{Request{Fn: "bogus"}, StatusOption, `unknown call "bogus"`},
		{Request{Fn: "upscale", Options: `{"scale": 2}`}, StatusNotFound, "in.npy"},
	} {
		dir, code, _ := serveCall(t, tc.req, nil)
		var f failure
		b, _ := os.ReadFile(filepath.Join(dir, "error.json"))
		if err := json.Unmarshal(b, &f); err != nil || code != 1 || f.Status != tc.status || !strings.Contains(f.Message, tc.text) {
			t.Errorf("%+v: exit %d, error.json %s; want status %d naming %q", tc.req, code, b, tc.status, tc.text)
		}
	}
	if code := Serve(context.Background(), nil, io.Discard, io.Discard); code != 2 {
		t.Errorf("no directory: exit %d, want 2", code)
	}
}
