package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/internal/view"
)

// The viewer's spectra at a pixel equal the outputs of upscale (OmniHSR
// and bicubic) at that pixel, and its low-res spectrum the input's pixel.
func TestViewSpectrumEqualsUpscale(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "lr.hdr")
	lr := testrand.Cube(testrand.New(10, 9), 10, 9, 6)
	rsHole(lr, 2, 3, 4, 5, -1)
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	outs := map[string]*hsi.Cube{}
	for _, m := range []string{"omnihsr", "bicubic"} {
		out := filepath.Join(dir, m+".hdr")
		if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", out, "-scale", "4", "-method", m); code != 0 {
			t.Fatalf("upscale -method %s: exit %d: %s", m, code, stderr)
		}
		outs[m] = rsReadBack(t, out)
	}
	sc, err := view.Open(in, model.Default)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, y, x int, got []*float64, want []float32) {
		t.Helper()
		for b, w := range want {
			g := got[b]
			if sc.IsNoData(w) {
				if g != nil {
					t.Errorf("%s (%d, %d) band %d: %v, want no-data", name, y, x, b, *g)
				}
				continue
			}
			if g == nil || *g != float64(w) {
				t.Errorf("%s (%d, %d) band %d: %v, want %v", name, y, x, b, g, w)
			}
		}
	}
	// At once, before the model is ready: the low-res and bicubic spectra
	// at every pixel, near the no-data hole and away from it, the model's
	// left pending.
	for y := range 40 {
		for x := range 36 {
			sp, err := sc.SpectrumNow(40, 36, y, x)
			if err != nil {
				t.Fatal(err)
			}
			if !sp.Pending || sp.OmniHSR != nil {
				t.Fatalf("(%d, %d): pending %v, model's spectrum %v before the model ran", y, x, sp.Pending, sp.OmniHSR)
			}
			check("bicubic at once", y, x, sp.Bicubic, outs["bicubic"].Spectrum(y, x))
			check("lowres at once", y, x, sp.LowRes, lr.Spectrum(y/4, x/4))
		}
	}
	for _, px := range [][2]int{{0, 0}, {17, 23}, {39, 35}, {9, 17}} {
		y, x := px[0], px[1]
		sp, err := sc.Spectrum(40, 36, y, x)
		if err != nil {
			t.Fatal(err)
		}
		check("omnihsr", y, x, sp.OmniHSR, outs["omnihsr"].Spectrum(y, x))
		check("bicubic", y, x, sp.Bicubic, outs["bicubic"].Spectrum(y, x))
		check("lowres", y, x, sp.LowRes, lr.Spectrum(y/4, x/4))
		if now, err := sc.SpectrumNow(40, 36, y, x); err != nil || now.Pending {
			t.Fatalf("(%d, %d) once encoded: pending %v, %v", y, x, now != nil && now.Pending, err)
		} else {
			check("omnihsr at once, encoded", y, x, now.OmniHSR, outs["omnihsr"].Spectrum(y, x))
		}
	}
	// From the level once prepared, at every pixel.
	if _, err := sc.Prepare(40, 36); err != nil {
		t.Fatal(err)
	}
	for y := range 40 {
		for x := range 36 {
			sp, err := sc.SpectrumNow(40, 36, y, x)
			if err != nil || sp.Pending {
				t.Fatalf("(%d, %d) prepared: pending %v, %v", y, x, sp != nil && sp.Pending, err)
			}
			check("omnihsr, prepared", y, x, sp.OmniHSR, outs["omnihsr"].Spectrum(y, x))
		}
	}
}

func TestViewArgs(t *testing.T) {
	if code, stderr := runRsCmd(t, "view"); code != 2 || !strings.Contains(stderr, "FILE") {
		t.Errorf("no file: exit %d, %q", code, stderr)
	}
	missing := filepath.Join(t.TempDir(), "missing.hdr")
	if code, stderr := runRsCmd(t, "view", "-addr", "127.0.0.1:0", missing); code != 1 || !strings.Contains(stderr, "missing.hdr") {
		t.Errorf("missing file: exit %d, %q", code, stderr)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The command prints its URL, serves the page there and stops when its
// context ends.
func TestViewServes(t *testing.T) {
	in := filepath.Join(t.TempDir(), "lr.npy")
	if err := formats.Write(in, testrand.Cube(testrand.New(6, 5), 6, 5, 3), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	done := make(chan int)
	go func() { done <- runContext(ctx, []string{"view", "-addr", "127.0.0.1:0", in}, &out, &errb) }()
	url := waitURL(t, &out, &errb, cancel)
	res, err := http.Get(url + "api/scenes")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"name":"lr.npy"`) {
		t.Errorf("GET api/scenes: %d %s", res.StatusCode, body)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d after the context ended: %s", code, errb.String())
	}
}

// Issue 29's D15: an -addr that other machines can reach is refused
// unless -allow-remote is given, before any file is read; with it, the
// printed URL (localhost at the port) gets in.
func TestViewRemoteAddr(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.hdr")
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0", "example.com:80"} {
		code, stderr := runRsCmd(t, "view", "-addr", addr, missing)
		if code != 2 || !strings.Contains(stderr, "-allow-remote") || strings.Contains(stderr, "missing.hdr") {
			t.Errorf("-addr %s: exit %d, %q; want 2 naming -allow-remote, before reading the file", addr, code, stderr)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "[::1]:0"} {
		if code, stderr := runRsCmd(t, "view", "-addr", addr, missing); code != 1 || !strings.Contains(stderr, "missing.hdr") {
			t.Errorf("-addr %s: exit %d, %q; want the missing file's error", addr, code, stderr)
		}
	}
	in := filepath.Join(t.TempDir(), "lr.npy")
	if err := formats.Write(in, testrand.Cube(testrand.New(6, 5), 6, 5, 3), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	done := make(chan int)
	go func() {
		done <- runContext(ctx, []string{"view", "-addr", "0.0.0.0:0", "-allow-remote", in}, &out, &errb)
	}()
	url := waitURL(t, &out, &errb, cancel)
	if !strings.HasPrefix(url, "http://localhost:") {
		t.Errorf("URL %s: want localhost at the port", url)
	}
	res, err := http.Get(url + "api/scenes")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("GET %sapi/scenes: status %d", url, res.StatusCode)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "no authentication") {
		t.Errorf("no warning on stderr: %q", errb.String())
	}
}

// "view -weights /etc/passwd" started and failed on the first model tile:
// a bad weight file stops the start, naming -weights.
func TestViewBadWeights(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "lr.npy")
	if err := formats.Write(in, testrand.Cube(testrand.New(6, 5), 6, 5, 3), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "passwd")
	if err := os.WriteFile(bad, []byte("root:x:0:0:root:/root:/bin/bash\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out, errb syncBuffer
	code := runContext(ctx, []string{"view", "-addr", "127.0.0.1:0", "-weights", bad, in}, &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "-weights") || strings.Contains(out.String(), "http://") {
		t.Errorf("exit %d, stdout %q, stderr %q: want a failure naming -weights before serving", code, out.String(), errb.String())
	}
}

// waitURL waits up to 10 s for `omnihsr view` to print its URL on out and
// returns it; without one it cancels the command and fails the test.
func waitURL(t *testing.T, out, errb *syncBuffer, cancel context.CancelFunc) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, rest, ok := strings.Cut(out.String(), "http://"); ok {
			return "http://" + strings.Fields(rest)[0]
		}
	}
	cancel()
	t.Fatalf("no URL printed: %q %q", out.String(), errb.String())
	return ""
}
