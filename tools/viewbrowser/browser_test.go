package viewbrowser

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/view"
	"github.com/omnihsr/omnihsr/internal/view/viewtest"
)

// newTestServer writes the cubes as ENVI files, opens them as the viewer
// does and serves them.
func newTestServer(t *testing.T, cubes ...*hsi.Cube) (*view.Server, *httptest.Server) {
	t.Helper()
	dir := t.TempDir()
	var scenes []*view.Scene
	for i, c := range cubes {
		p := filepath.Join(dir, "scene"+string(rune('a'+i))+".hdr")
		if err := formats.Write(p, c, hsi.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		sc, err := view.Open(p, model.Default)
		if err != nil {
			t.Fatal(err)
		}
		scenes = append(scenes, sc)
	}
	return serveScenes(t, scenes)
}

// serveScenes serves scenes on a test server.
func serveScenes(t *testing.T, scenes []*view.Scene) (*view.Server, *httptest.Server) {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	s := view.NewServer(scenes, ts.Listener.Addr().String(), 64<<20, view.DefaultMemory)
	ts.Config.Handler = s
	ts.Start()
	t.Cleanup(ts.Close)
	return s, ts
}

// browser starts headless chromium on the page of ts and returns its
// context, or skips the test when chromium is not installed.
func browser(t *testing.T, url string) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (apt-get install chromium): skipping the browser test")
	}
	t.Setenv("TMPDIR", t.TempDir()) // chromium's profile folder
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 700))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	return bctx
}

// eval runs a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// settle waits until every tile the view asked for has arrived.
func settle(t *testing.T, ctx context.Context) {
	t.Helper()
	for range 600 {
		if eval[bool](t, ctx, "window.viewer.ready && window.viewer.scenes.length > 0") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the view did not settle: %s", eval[string](t, ctx, `document.getElementById("status").textContent`))
}

// set sets the value of the control with the given id as a user would
// (an input event follows).
func set(t *testing.T, ctx context.Context, id, value string) {
	t.Helper()
	eval[any](t, ctx, fmt.Sprintf(`(e => { e.value = %q; e.dispatchEvent(new Event("input")); })(document.getElementById(%q))`, value, id))
}

// pixels returns the canvas's RGBA bytes.
func pixels(t *testing.T, ctx context.Context) []int {
	return eval[[]int](t, ctx, `Array.from(document.getElementById("view").getContext("2d").getImageData(0,0,800,600).data)`)
}

type gridPx struct{ U, V, Gh, Gw int }

func TestBrowser(t *testing.T) {
	a, b := viewtest.Synth(48, 40, 32, 0), viewtest.Synth(48, 40, 32, 1.5)
	s, ts := newTestServer(t, a, b)
	ctx := browser(t, ts.URL+"/")
	settle(t, ctx)
	sc := s.Scenes[0]
	bands := eval[[]int](t, ctx, "[0,1,2].map(i => Number(document.getElementById(['br','bg','bb'][i]).value))")
	var lo, k [3]float32
	for c := range 3 {
		l, u := sc.Stretch(bands[c], 2, 98)
		lo[c], k[c] = l, 255/(u-l)
	}
	// check compares canvas pixels with the stretched values of full
	// (a whole rendering on the view's current grid).
	check := func(what string, px []int, full *hsi.Cube, rows [][2]int) {
		t.Helper()
		for _, p := range rows {
			sx, sy := p[0], p[1]
			g := eval[gridPx](t, ctx, fmt.Sprintf("(g => ({U: g.u, V: g.v, Gh: g.gh, Gw: g.gw}))(window.viewer.screenToGrid(%d, %d))", sx, sy))
			if g.Gh != full.H || g.Gw != full.W || g.U < 0 || g.V < 0 || g.U >= g.Gh || g.V >= g.Gw {
				t.Fatalf("%s: canvas (%d, %d) is grid pixel %+v, want inside %dx%d", what, sx, sy, g, full.H, full.W)
			}
			o := (sy*800 + sx) * 4
			for c := range 3 {
				v := full.At(g.U, g.V, bands[c])
				want := int(view.Level(v, lo[c], k[c]))
				if sc.IsNoData(v) {
					want = 0
				}
				if d := px[o+c] - want; d < -1 || d > 1 {
					t.Errorf("%s: canvas (%d, %d) = grid (%d, %d) channel %d: %d, want %d", what, sx, sy, g.U, g.V, c, px[o+c], want)
				}
			}
		}
	}
	// spots returns canvas pixels that show the scene.
	spots := func() [][2]int {
		var out [][2]int
		for sy := 20; sy < 600; sy += 37 {
			for sx := 30; sx < 800; sx += 43 {
				if eval[bool](t, ctx, fmt.Sprintf("(g => g.u >= 0 && g.v >= 0 && g.u < g.gh && g.v < g.gw)(window.viewer.screenToGrid(%d, %d))", sx, sy)) {
					out = append(out, [2]int{sx, sy})
				}
			}
		}
		if len(out) < 10 {
			t.Fatalf("only %d sample points on the scene", len(out))
		}
		return out
	}

	// The scene is shown: with the swipe at the right edge the whole view
	// is the low-res pixels, stretched.
	set(t, ctx, "swipe", "100")
	settle(t, ctx)
	g := eval[gridPx](t, ctx, "(g => ({U: g.u, V: g.v, Gh: g.gh, Gw: g.gw}))(window.viewer.screenToGrid(0, 0))")
	zoom := g.Gh / a.H
	nearest := hsi.MustNew(g.Gh, g.Gw, a.B)
	for u := range g.Gh {
		for v := range g.Gw {
			copy(nearest.Data[(u*g.Gw+v)*a.B:][:a.B], a.Spectrum(u/zoom, v/zoom))
		}
	}
	left := pixels(t, ctx)
	check("low-res", left, nearest, spots())
	opaque, sum, sum2 := 0, 0.0, 0.0
	for i := 0; i < len(left); i += 4 {
		if left[i+3] == 255 {
			opaque++
			sum += float64(left[i])
			sum2 += float64(left[i]) * float64(left[i])
		}
	}
	mean := sum / float64(opaque)
	if sd := sum2/float64(opaque) - mean*mean; opaque < 48*40*zoom*zoom*9/10 || sd < 100 {
		t.Errorf("canvas: %d opaque pixels (scene %d), red variance %.1f: the scene is not shown", opaque, 48*40*zoom*zoom, sd)
	}

	// Moving the swipe to the left edge shows the right rendering, the
	// second file.
	set(t, ctx, "right", "file:1")
	set(t, ctx, "swipe", "0")
	settle(t, ctx)
	right := pixels(t, ctx)
	changed := 0
	for i := 0; i < len(left); i += 4 {
		if left[i] != right[i] || left[i+1] != right[i+1] || left[i+2] != right[i+2] {
			changed++
		}
	}
	if changed < opaque/2 {
		t.Errorf("swipe: %d of %d scene pixels changed", changed, opaque)
	}

	// Past 1:1 the right side is the model's rendering at the zoom factor,
	// equal to upscale's output there.
	set(t, ctx, "right", "omnihsr")
	eval[any](t, ctx, "window.viewer.setZoom(4, 20, 24)")
	settle(t, ctx)
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	sr, err := m.Upscale(a, 4*a.H, 4*a.W)
	if err != nil {
		t.Fatal(err)
	}
	check("omnihsr x4", pixels(t, ctx), sr, spots())

	// A click pins the pixel and plots its spectra, the model's equal to
	// upscale's output there.
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(411, 287)); err != nil {
		t.Fatal(err)
	}
	for range 300 {
		if eval[bool](t, ctx, "window.viewer.pins.length > 0 && !!window.viewer.pins[0].omnihsr") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	type pin struct {
		X, Y    int
		OmniHSR []*float64 `json:"omnihsr"`
	}
	pins := eval[[]pin](t, ctx, "window.viewer.pins")
	if len(pins) != 1 {
		t.Fatalf("%d pins after a click, want 1", len(pins))
	}
	want := sr.Spectrum(pins[0].Y, pins[0].X)
	for bnd, w := range want {
		gv := pins[0].OmniHSR[bnd]
		if bnd == 1 { // flagged bad
			if gv != nil {
				t.Errorf("bad band 1 plotted: %v", *gv)
			}
			continue
		}
		if gv == nil || *gv != float64(w) {
			t.Errorf("spectrum band %d: %v, want %v", bnd, gv, w)
		}
	}
	if n := eval[int](t, ctx, `Array.from(document.querySelectorAll("#plot path.omnihsr")).filter(p => p.getAttribute("d").split("L").length > 20).length`); n != 1 {
		t.Errorf("%d plotted OmniHSR spectra of more than 20 points, want 1", n)
	}
}

// While the model's rendering is prepared (the scene's first encoding),
// the OmniHSR side shows bicubic tiles and says so; the model's tiles
// replace them when ready.
func TestBrowserProgressive(t *testing.T) {
	a := viewtest.Synth(48, 40, 32, 0)
	release := make(chan struct{})
	slow := func() (*model.Model, error) {
		<-release
		return model.Default()
	}
	s, ts := serveScenes(t, []*view.Scene{view.NewScene("a", a, slow)})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free) // before the server closes: it waits for the request preparing the model
	ctx := browser(t, ts.URL+"/")
	for i := 0; !eval[bool](t, ctx, "window.viewer.scenes.length > 0"); i++ {
		if i > 500 {
			t.Fatal("the page did not load the scene list")
		}
		time.Sleep(20 * time.Millisecond)
	}
	set(t, ctx, "left", "bicubic")
	set(t, ctx, "right", "omnihsr")
	set(t, ctx, "swipe", "0")
	eval[any](t, ctx, "window.viewer.setZoom(4, 20, 24)")
	// Wait for the bicubic tiles standing in for the model's: only the
	// model's preparation of the first grid (zoom 8, the fit) left, that of
	// the zoom 4 grid not started before it ends.
	for i := 0; ; i++ {
		if eval[bool](t, ctx, `window.viewer.pending === 1 && [...window.viewer.tiles.entries()].some(([u, t]) => u.includes("m=bicubic&gh=192") && t.img)`) {
			break
		}
		if i > 500 {
			t.Fatalf("no bicubic tiles while the model is prepared: %s", eval[string](t, ctx, `document.getElementById("status").textContent`))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st := eval[string](t, ctx, `document.getElementById("status").textContent`); !strings.Contains(st, "preparing the model") {
		t.Errorf("status %q while the model is prepared", st)
	}
	if eval[bool](t, ctx, "window.viewer.ready") {
		t.Error("the view says ready while the model's rendering is prepared")
	}
	eval[any](t, ctx, "window.viewer.setZoom(4, 20, 24)") // redraw with every bicubic tile in
	bic := pixels(t, ctx)
	// The swipe at the right edge shows the left side, bicubic, from the
	// same tiles (no request: the canvas is redrawn at once).
	set(t, ctx, "swipe", "100")
	if n := differ(bic, pixels(t, ctx)); n > 0 {
		t.Errorf("the OmniHSR side while the model is prepared differs from the bicubic rendering in %d pixels", n)
	}
	set(t, ctx, "swipe", "0")
	free()
	settle(t, ctx)
	sr := pixels(t, ctx)
	if n := differ(sr, bic); n < 1000 {
		t.Errorf("the model's tiles replaced %d bicubic pixels", n)
	}
	if st := s.Cache().Stats(); st.Entries == 0 || st.Misses == 0 {
		t.Errorf("cache stats %+v", st)
	}
}

// differ counts the canvas pixels that differ, leaving out the first
// column, where the swipe's line is drawn at the left edge.
func differ(a, b []int) int {
	n := 0
	for p := 0; p+3 < len(a) && p+3 < len(b); p += 4 {
		if (p/4)%800 == 0 {
			continue
		}
		if a[p] != b[p] || a[p+1] != b[p+1] || a[p+2] != b[p+2] || a[p+3] != b[p+3] {
			n++
		}
	}
	return n
}
