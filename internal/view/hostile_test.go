package view

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/model"
)

// testAddr is the address the servers of these tests say they are bound
// to (they are driven through ServeHTTP, so that a panic fails the test).
const testAddr = "127.0.0.1:8080"

// hostileServer serves one small synthetic scene through ServeHTTP.
func hostileServer(t testing.TB, c *hsi.Cube) *Server {
	t.Helper()
	return NewServer([]*Scene{NewScene("scene", c, model.Default)}, testAddr, 16<<20, DefaultMemory)
}

// serve runs one GET through s as the page would send it (same origin).
func serve(s *Server, ctx context.Context, target string, hdr map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequestWithContext(ctx, "GET", target, nil)
	req.Host = testAddr
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

// TestTileHugeQuery is issue 29's D12: a window whose x+w and h*w
// overflow int got "index out of range" (lowres) or "makeslice: len out
// of range" after starting the encoding (omnihsr). Every such query is a
// 400 naming the problem, and no model work starts.
func TestTileHugeQuery(t *testing.T) {
	s := hostileServer(t, synth(12, 10, 16, 0))
	const big = "4611686018427387904" // 2^62
	for _, q := range []string{
		"f=0&m=lowres&gh=72&gw=128&x=" + big + "&y=0&w=" + big + "&h=4",
		"f=0&m=omnihsr&gh=72&gw=128&x=" + big + "&y=0&w=" + big + "&h=4",
		"f=0&m=bicubic&gh=72&gw=128&x=0&y=" + big + "&w=4&h=" + big,
		"f=0&m=lowres&gh=72&gw=128&x=-" + big + "&y=0&w=" + big + "&h=4",
		"f=0&m=lowres&gh=72&gw=128&x=9223372036854775807&y=0&w=9223372036854775807&h=1",
		"f=0&m=lowres&gh=72&gw=128&x=1&y=0&w=128&h=1",
		"f=0&m=lowres&gh=" + big + "&gw=" + big + "&x=0&y=0&w=4&h=4",
		"f=" + big + "&m=lowres&gh=72&gw=128&x=0&y=0&w=4&h=4",
		"f=0&ref=" + big + "&m=lowres&gh=72&gw=128&x=0&y=0&w=4&h=4",
	} {
		rec := serve(s, context.Background(), "/api/tile?"+q, nil)
		if rec.Code != http.StatusBadRequest && rec.Code != http.StatusNotFound {
			t.Errorf("%s: status %d (%s), want 400", q, rec.Code, strings.TrimSpace(rec.Body.String()))
		}
	}
	for _, q := range []string{
		"/api/spectrum?f=0&gh=72&gw=128&x=" + big + "&y=" + big,
		"/api/prepare?f=0&gh=" + big + "&gw=" + big,
		"/api/export.csv?f=0&gh=72&gw=128&p=" + big + "," + big,
	} {
		if rec := serve(s, context.Background(), q, nil); rec.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d (%s), want 400", q, rec.Code, strings.TrimSpace(rec.Body.String()))
		}
	}
	if s.Scenes[0].encDone.Load() {
		t.Error("a refused query started the model's encoding")
	}
	// A valid window still renders.
	if rec := serve(s, context.Background(), "/api/tile?f=0&m=lowres&gh=72&gw=128&x=124&y=68&w=4&h=4", nil); rec.Code != 200 {
		t.Errorf("valid window: status %d (%s)", rec.Code, rec.Body.String())
	}
}

// FuzzTileQuery drives /api/tile with any query values: the answer is a
// PNG or a 400/404, never a panic (ServeHTTP is called directly, so a
// panic fails the fuzz target).
func FuzzTileQuery(f *testing.F) {
	f.Add(uint8(0), "0", "72", "128", "0", "0", "4", "4", "")
	f.Add(uint8(0), "0", "72", "128", "4611686018427387904", "0", "4611686018427387904", "4", "")
	f.Add(uint8(1), "0", "12", "10", "9", "11", "1", "1", "0")
	f.Add(uint8(1), "0", "24", "20", "-1", "0", "1048576", "1048576", "")
	f.Add(uint8(0), "-0", "1048576", "1048576", "1048575", "1048575", "1", "1", "1")
	s := hostileServer(f, synth(12, 10, 6, 0))
	f.Fuzz(func(t *testing.T, m uint8, fi, gh, gw, x, y, w, h, ref string) {
		// The model's method is left out: it would encode the scene on
		// the first valid window (TestTileHugeQuery checks that a bad one
		// starts nothing).
		q := url.Values{"m": {[]string{Nearest, Bicubic, "nosuch"}[int(m)%3]}, "f": {fi},
			"gh": {gh}, "gw": {gw}, "x": {x}, "y": {y}, "w": {w}, "h": {h}}
		if ref != "" {
			q.Set("ref", ref)
		}
		rec := serve(s, context.Background(), "/api/tile?"+q.Encode(), nil)
		switch rec.Code {
		case 200:
			if ct := rec.Header().Get("Content-Type"); ct != "image/png" {
				t.Fatalf("%s: 200 with Content-Type %q", q.Encode(), ct)
			}
		case http.StatusBadRequest, http.StatusNotFound:
			if !strings.HasPrefix(rec.Body.String(), "view: ") {
				t.Fatalf("%s: %d without a message: %q", q.Encode(), rec.Code, rec.Body.String())
			}
		default:
			t.Fatalf("%s: status %d (%s)", q.Encode(), rec.Code, rec.Body.String())
		}
	})
}

// TestCrossSiteRefused is issue 29's D13: a page of another site made the
// viewer prepare a zoom level. Every API endpoint refuses a cross-site
// request before doing anything; the viewer's own page still gets in.
func TestCrossSiteRefused(t *testing.T) {
	s := hostileServer(t, synth(12, 10, 16, 0))
	paths := []string{
		"/api/prepare?f=0&gh=24&gw=20",
		"/api/tile?f=0&m=omnihsr&gh=24&gw=20&x=0&y=0&w=4&h=4",
		"/api/spectrum?f=0&gh=24&gw=20&x=3&y=3&wait=1",
		"/api/export.csv?f=0&gh=24&gw=20&p=3,3",
		"/api/scenes",
		"/api/stats",
	}
	for _, hdr := range []map[string]string{
		{"Sec-Fetch-Site": "cross-site", "Origin": "http://evil.example"},
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site"}, // another port of this host
		{"Sec-Fetch-Site": "", "Origin": "http://evil.example"},
		{"Sec-Fetch-Site": "", "Origin": "http://127.0.0.1:9090"},
		{"Sec-Fetch-Site": "", "Origin": "null"},
	} {
		for _, p := range paths {
			if rec := serve(s, context.Background(), p, hdr); rec.Code != http.StatusForbidden {
				t.Errorf("%s with %v: status %d, want 403", p, hdr, rec.Code)
			}
		}
	}
	if s.Scenes[0].encDone.Load() {
		t.Fatal("a cross-site request started the model's encoding")
	}
	// The page itself may be opened from a link on another site.
	if rec := serve(s, context.Background(), "/", map[string]string{"Sec-Fetch-Site": "cross-site"}); rec.Code != 200 {
		t.Errorf("page from a link: status %d", rec.Code)
	}
	for _, hdr := range []map[string]string{
		{"Sec-Fetch-Site": "same-origin"},
		{"Sec-Fetch-Site": "same-origin", "Origin": "http://" + testAddr},
		{"Sec-Fetch-Site": ""}, // not a browser (curl)
	} {
		if rec := serve(s, context.Background(), "/api/stats", hdr); rec.Code != 200 {
			t.Errorf("/api/stats with %v: status %d (%s)", hdr, rec.Code, rec.Body.String())
		}
	}
}

// TestAbandonedWorkStops is issue 29's D13 (second half): a request whose
// client has gone away stops the scene's encoding and the level's
// preparation, keeps neither, and a later request does the work.
func TestAbandonedWorkStops(t *testing.T) {
	s := hostileServer(t, synth(12, 10, 16, 0))
	sc := s.Scenes[0]
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := serve(s, ctx, "/api/prepare?f=0&gh=24&gw=20", nil)
	if rec.Code == 200 {
		t.Errorf("prepare with its client gone: 200 %s", rec.Body.String())
	}
	if sc.encDone.Load() {
		t.Fatal("an abandoned encoding was kept")
	}
	serve(s, ctx, "/api/tile?f=0&m=omnihsr&gh=24&gw=20&x=0&y=0&w=4&h=4", nil)
	serve(s, ctx, "/api/spectrum?f=0&gh=24&gw=20&x=3&y=3&wait=1", nil)
	if sc.encDone.Load() || s.mem.has(sc, 24, 20) {
		t.Fatal("an abandoned tile or spectrum kept the encoding or the level")
	}
	if _, err := sc.PrepareContext(ctx, 24, 20); !errors.Is(err, context.Canceled) {
		t.Fatalf("PrepareContext, context cancelled: err %v, want context.Canceled", err)
	}
	// Encoded, then the level stopped: the encoding is kept, the level not.
	if _, err := sc.encoded(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.PrepareContext(ctx, 24, 20); !errors.Is(err, context.Canceled) || s.mem.has(sc, 24, 20) {
		t.Fatalf("level with its client gone: err %v, kept %v", err, s.mem.has(sc, 24, 20))
	}
	if rec := serve(s, context.Background(), "/api/prepare?f=0&gh=24&gw=20", nil); rec.Code != 200 {
		t.Fatalf("prepare after the abandoned ones: status %d (%s)", rec.Code, rec.Body.String())
	}
	if !s.mem.has(sc, 24, 20) {
		t.Fatal("the level was not kept")
	}
	// The tile equals the one of a scene never interrupted.
	want, err := NewScene("ref", sc.LR, model.Default).Window(OmniHSR, 24, 20, 0, 0, 4, 4, []int{3, 2, 1})
	if err != nil {
		t.Fatal(err)
	}
	got, err := sc.Window(OmniHSR, 24, 20, 0, 0, 4, 4, []int{3, 2, 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
			t.Fatalf("value %d: %g after abandoned requests, %g without", i, got[i], want[i])
		}
	}
}

// TestScenesNonFinite is issue 29's D14: a scene whose geotransform or
// wavelengths hold NaN gave /api/scenes a 200 with an empty body. Values
// JSON cannot hold are left out (null: unknown), and the answer parses.
func TestScenesNonFinite(t *testing.T) {
	c := synth(12, 10, 16, 0)
	c.Meta.Wavelengths[5] = math.NaN()
	c.Meta.Geo = &hsi.Geo{Tiepoints: []float64{0, 0, 0, math.NaN(), 200, 0}, PixelScale: []float64{10, math.Inf(1), 0}}
	c.Meta.DataIgnore = math.Inf(-1)
	c.Set(3, 4, 2, float32(math.Inf(1)))
	s := hostileServer(t, c)
	rec := serve(s, context.Background(), "/api/scenes", nil)
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	var out struct {
		Scenes []SceneInfo `json:"scenes"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("/api/scenes: %v (body %q)", err, rec.Body.String())
	}
	if len(out.Scenes) != 1 || out.Scenes[0].Wavelengths != nil || out.Scenes[0].Transform != nil || out.Scenes[0].NoData != nil {
		t.Fatalf("scene info %+v: want the non-finite wavelengths, transform and no-data value left out", out.Scenes)
	}
	rec = serve(s, context.Background(), "/api/spectrum?f=0&gh=12&gw=10&x=4&y=3", nil)
	if rec.Code != 200 || !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("spectrum of a pixel holding +Inf: status %d, body %q", rec.Code, rec.Body.String())
	}
	// An encoding error is never dropped.
	w := httptest.NewRecorder()
	writeJSON(w, math.NaN())
	if w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), "view: encoding") {
		t.Errorf("writeJSON(NaN): status %d, body %q", w.Code, w.Body.String())
	}
}

// TestHosts is issue 29's D15: bound to every interface, only "[::]:P"
// got in. A browser on this machine gets in by localhost, 127.0.0.1 or
// [::1] at the port, whatever the address; an unspecified address is no
// Host, and other names are refused.
func TestHosts(t *testing.T) {
	for _, tc := range []struct {
		addr      string
		want, not []string
	}{
		{"127.0.0.1:8080", []string{"127.0.0.1:8080", "localhost:8080", "[::1]:8080"}, []string{"localhost:8081", "evil.example:8080", "0.0.0.0:8080"}},
		{"[::1]:5000", []string{"[::1]:5000", "localhost:5000", "127.0.0.1:5000"}, []string{"[::1]:5001", "evil.example"}},
		{"0.0.0.0:7000", []string{"127.0.0.1:7000", "localhost:7000", "[::1]:7000"}, []string{"0.0.0.0:7000", "evil.example:7000", "127.0.0.1:7001"}},
		{"[::]:7000", []string{"127.0.0.1:7000", "localhost:7000", "[::1]:7000"}, []string{"[::]:7000", "evil.example:7000"}},
	} {
		h := Hosts(tc.addr)
		for _, w := range tc.want {
			if !h[w] {
				t.Errorf("bound to %s: Host %s refused", tc.addr, w)
			}
		}
		for _, n := range tc.not {
			if h[n] {
				t.Errorf("bound to %s: Host %s accepted", tc.addr, n)
			}
		}
	}
}
