package view

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/view/viewtest"
	"github.com/omnihsr/omnihsr/resample"
)

// synth is the scene of the viewer's tests (viewtest.Synth).
var synth = viewtest.Synth

// writeScene writes c as ENVI in dir and returns the header's path.
func writeScene(t testing.TB, dir, name string, c *hsi.Cube) string {
	t.Helper()
	p := filepath.Join(dir, name+".hdr")
	if err := formats.Write(p, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return p
}

// newTestServer opens the scenes from files and serves them.
func newTestServer(t testing.TB, cubes ...*hsi.Cube) (*Server, *httptest.Server) {
	t.Helper()
	dir := t.TempDir()
	var scenes []*Scene
	for i, c := range cubes {
		sc, err := Open(writeScene(t, dir, "scene"+string(rune('a'+i)), c), model.Default)
		if err != nil {
			t.Fatal(err)
		}
		scenes = append(scenes, sc)
	}
	return serveScenes(t, scenes)
}

// serveScenes serves scenes on a test server.
func serveScenes(t testing.TB, scenes []*Scene) (*Server, *httptest.Server) {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	s := NewServer(scenes, ts.Listener.Addr().String(), 64<<20, DefaultMemory)
	ts.Config.Handler = s
	ts.Start()
	t.Cleanup(ts.Close)
	return s, ts
}

func get(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

func TestTileLowRes(t *testing.T) {
	c := synth(12, 10, 16, 0)
	s, ts := newTestServer(t, c)
	sc := s.Scenes[0]
	bands := sc.DefaultBands()
	res, body := get(t, ts.URL+"/api/tile?f=0&m=lowres&gh=12&gw=10&x=0&y=0&w=10&h=12&preset=truecolor")
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var lo, k [3]float32
	for ch := range 3 {
		l, u := sc.Stretch(bands[ch], 2, 98)
		lo[ch], k[ch] = l, 255/(u-l)
	}
	for y := range 12 {
		for x := range 10 {
			r, g, b, a := img.At(x, y).RGBA()
			if y == 1 && x == 2 {
				if a != 0 {
					t.Errorf("no-data pixel (%d, %d): alpha %d, want 0", y, x, a>>8)
				}
				continue
			}
			got := [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
			for ch := range 3 {
				if want := Level(c.At(y, x, bands[ch]), lo[ch], k[ch]); got[ch] != want || a>>8 != 255 {
					t.Fatalf("pixel (%d, %d) channel %d: %d alpha %d, want %d alpha 255", y, x, ch, got[ch], a>>8, want)
				}
			}
		}
	}
	// 2-98 % stretch: some pixels saturate at each end.
	var dark, bright int
	for y := range 12 {
		for x := range 10 {
			r, _, _, a := img.At(x, y).RGBA()
			if a != 0 && r>>8 == 0 {
				dark++
			}
			if a != 0 && r>>8 == 255 {
				bright++
			}
		}
	}
	if dark == 0 || bright == 0 {
		t.Errorf("stretch: %d black and %d white red samples, want both > 0", dark, bright)
	}
}

// A window rendered by the server equals the same window of the whole
// image rendered the way upscale renders it, at several zoom levels in
// turn (the bicubic upsampler of a band choice is reused across them).
func TestWindowEqualsWholeRender(t *testing.T) {
	c := synth(12, 10, 16, 0)
	s, _ := newTestServer(t, c)
	sc := s.Scenes[0]
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range [][2]int{{36, 30}, {60, 50}, {36, 30}, {25, 21}} {
		gh, gw := g[0], g[1]
		mod, err := m.Upscale(c, gh, gw)
		if err != nil {
			t.Fatal(err)
		}
		bic, err := hsi.KeepNoData(c, func(f *hsi.Cube) (*hsi.Cube, error) { return resample.Upsample(f, gh, gw) })
		if err != nil {
			t.Fatal(err)
		}
		for _, bands := range [][]int{{9, 3, 0}, {1, 2, 15}} {
			for _, tc := range []struct {
				m    string
				full *hsi.Cube
			}{{OmniHSR, mod}, {Bicubic, bic}} {
				y0, x0, h, w := 5, 7, 20, 13
				got, err := sc.Window(tc.m, gh, gw, y0, x0, h, w, bands)
				if err != nil {
					t.Fatal(err)
				}
				for u := range h {
					for v := range w {
						for k, b := range bands {
							want := tc.full.At(y0+u, x0+v, b)
							g := got[(u*w+v)*3+k]
							if g != want && !(sc.IsNoData(g) && sc.IsNoData(want)) {
								t.Fatalf("%s %dx%d bands %v (%d, %d) band %d: %v, want %v", tc.m, gh, gw, bands, y0+u, x0+v, b, g, want)
							}
						}
					}
				}
			}
		}
	}
}

func TestRefused(t *testing.T) {
	_, ts := newTestServer(t, synth(8, 8, 4, 0))
	for _, tc := range []struct {
		path string
		want int
	}{
		{"/static/../../../etc/passwd", 404},
		{"/static/..%2f..%2fgo.mod", 404},
		{"/static/%2e%2e/view.go", 404},
		{"/static/doc.go", 404},
		{"/api/tile?f=../../etc/passwd&gh=8&gw=8&x=0&y=0&w=8&h=8", 400},
		{"/api/tile?f=/etc/passwd&gh=8&gw=8&x=0&y=0&w=8&h=8", 400},
		{"/api/tile?f=3&gh=8&gw=8&x=0&y=0&w=8&h=8", 404},
		{"/api/tile?f=0&m=lowres&gh=8&gw=8&x=4&y=0&w=8&h=8", 400},
		{"/api/tile?f=0&m=lowres&gh=8&gw=8&x=0&y=0&w=8&h=8&b=0,1,9", 400},
		{"/api/spectrum?f=0&gh=8&gw=8&x=8&y=0", 400},
		{"/static/app.js", 200},
		{"/", 200},
	} {
		res, body := get(t, ts.URL+tc.path)
		if res.StatusCode != tc.want {
			t.Errorf("GET %s: status %d (%s), want %d", tc.path, res.StatusCode, strings.TrimSpace(string(body)), tc.want)
		}
	}
	res, err := http.Post(ts.URL+"/api/tile", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d, want 405", res.StatusCode)
	}
	for _, host := range []string{"evil.example:80", "attacker.test", "127.0.0.1:1"} {
		req, _ := http.NewRequest("GET", ts.URL+"/api/scenes", nil)
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("Host %q: status %d, want 403", host, res.StatusCode)
		}
	}
}

func TestCacheBound(t *testing.T) {
	c := NewCache(1000)
	for i := range 50 {
		c.Put(string(rune('a'+i%26))+strings.Repeat("k", i), make([]byte, 90+i))
		if used, _ := c.Used(); used > 1000 {
			t.Fatalf("after %d puts: %d bytes held, budget 1000", i+1, used)
		}
	}
	c.Put("big", make([]byte, 1001))
	if _, ok := c.Get("big"); ok {
		t.Error("a value over the budget was stored")
	}
	c.Put("x", []byte("1"))
	c.Put("y", []byte("2"))
	if v, ok := c.Get("x"); !ok || string(v) != "1" {
		t.Errorf("Get(x) = %q, %v", v, ok)
	}
	// The server's tile cache stays within its budget too.
	s, ts := newTestServer(t, synth(40, 40, 8, 0))
	s.cache = NewCache(3000)
	for x := 0; x < 40; x += 4 {
		res, body := get(t, ts.URL+"/api/tile?f=0&m=lowres&gh=40&gw=40&y=0&w=4&h=40&x="+itoa(x))
		if res.StatusCode != 200 {
			t.Fatalf("status %d: %s", res.StatusCode, body)
		}
		if used, n := s.cache.Used(); used > 3000 || n == 0 {
			t.Fatalf("tile cache: %d bytes in %d entries, budget 3000", used, n)
		}
	}
}

func itoa(i int) string { return string(appendInt(nil, i)) }

func appendInt(b []byte, i int) []byte {
	if i >= 10 {
		b = appendInt(b, i/10)
	}
	return append(b, byte('0'+i%10))
}

func TestScenesAndExport(t *testing.T) {
	s, ts := newTestServer(t, synth(8, 6, 32, 0))
	_, body := get(t, ts.URL+"/api/scenes")
	var d struct{ Scenes []SceneInfo }
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatal(err)
	}
	in := d.Scenes[0]
	if in.H != 8 || in.W != 6 || in.B != 32 || len(in.Wavelengths) != 32 || !in.BadBands[1] || in.Presets["cir"] == nil || in.Presets["truecolor"] != nil {
		// True colour's 470 nm would be band 1, which is bad; the nearest good band is 59 nm off.
		t.Fatalf("scene info %+v", in)
	}
	if s.Scenes[0].Name != "scenea.hdr" || strings.Contains(string(body), "/scenea") {
		t.Errorf("scene info names a path: %s", body)
	}
	res, body := get(t, ts.URL+"/api/export.csv?f=0&gh=16&gw=12&p=3,4&p=0,0")
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("status %d, %q: %s", res.StatusCode, res.Header.Get("Content-Disposition"), body)
	}
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 33 || len(rows[0]) != 3+6 || rows[0][3] != "lowres_x3_y4" {
		t.Fatalf("CSV %d rows, header %q", len(rows), rows[0])
	}
	if rows[2][2] != "1" || rows[2][3] != "" {
		t.Errorf("bad band row %q: want flagged and empty", rows[2])
	}
}

// The model's rendering of a grid is prepared on request (the encoding
// once), tiles say whether they came from the cache, and the statistics
// count both.
func TestPrepareAndStats(t *testing.T) {
	s, ts := newTestServer(t, synth(12, 10, 16, 0))
	var p struct{ EncodeMs, Ms float64 }
	for i, want := range []bool{true, false} {
		res, body := get(t, ts.URL+"/api/prepare?f=0&gh=36&gw=30")
		if err := json.Unmarshal(body, &p); res.StatusCode != 200 || err != nil {
			t.Fatalf("prepare: %d %s", res.StatusCode, body)
		}
		if (p.EncodeMs > 0) != want {
			t.Errorf("prepare %d: encoding %g ms, want encoded: %v", i, p.EncodeMs, want)
		}
	}
	if s.Scenes[0].enc == nil || len(s.Memory().Stats().Prepared) != 1 {
		t.Error("prepare left no encoding or no output")
	}
	for _, bad := range []string{"f=0&gh=0&gw=30", "f=0&gh=x&gw=30", "f=2&gh=36&gw=30"} {
		if res, _ := get(t, ts.URL+"/api/prepare?"+bad); res.StatusCode == 200 {
			t.Errorf("prepare %s: status 200", bad)
		}
	}
	url := ts.URL + "/api/tile?f=0&m=omnihsr&gh=36&gw=30&x=0&y=0&w=30&h=36"
	for _, want := range []string{"miss", "hit"} {
		if res, body := get(t, url); res.StatusCode != 200 || res.Header.Get("X-Cache") != want {
			t.Errorf("tile: %d, X-Cache %q, want %q: %s", res.StatusCode, res.Header.Get("X-Cache"), want, body)
		}
	}
	_, body := get(t, ts.URL+"/api/stats")
	var st struct{ Cache CacheStats }
	if err := json.Unmarshal(body, &st); err != nil {
		t.Fatal(err)
	}
	if c := st.Cache; c.Hits != 1 || c.Misses != 1 || c.Entries != 1 || c.Bytes <= 0 || c.Budget != 64<<20 {
		t.Errorf("stats %+v", c)
	}
}
