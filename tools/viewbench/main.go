// Command viewbench measures `omnihsr view` in headless chromium on a
// large scene made from a real one:
//
//	cd tools
//	go run ./viewbench -size 1242x1280x285      # EMIT-sized
//	go run ./viewbench -size 2048x2048x128 -src ../../shared/data/hsi/eval/dataPavia_PaviaCenter_105x120x102.mat
//
// It is in the nested tools module (chromedp stays out of the library's
// go.mod), so it runs in tools/: the default -src and the omnihsr binary
// it builds (in the parent folder, the library's module) are found from
// there.
//
// It mirrors the source scene (-src, -var) to the size's rows and columns
// (reflected copies side by side), resamples its spectra linearly to the
// size's band count with nominal wavelengths spread over -wl, writes the
// result as a float32 ENVI file in a temporary folder (removed at the end),
// builds and starts `omnihsr view` on it, and drives the page: the first
// view (fit, every tile at 1:1), then for each method (low-res pixels,
// bicubic, OmniHSR on both sides of the swipe) each zoom level at the
// scene's centre, a pan of half the canvas and the pan back, and finally
// a new page replaying the OmniHSR views (the server's tile cache). It
// prints a Markdown table: wall time until every tile of a view arrived,
// the tiles asked and their server render times, the server's tile cache
// hits, and the server's resident memory (VmRSS, and VmHWM its peak) read
// from /proc.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

func main() {
	src := flag.String("src", "../../shared/data/hsi/eval/abu-urban-4.mat", "real scene to mirror")
	mvar := flag.String("var", "data", "MAT variable of -src")
	size := flag.String("size", "1242x1280x285", "scene size HxWxB")
	wl := flag.String("wl", "380,2500", "nominal wavelength range of the bands, nm")
	zooms := flag.String("zooms", "1,2,4,8", "zoom levels to visit")
	cacheMB := flag.Int("cache-mb", 256, "the server's tile cache, MiB")
	memMB := flag.Int("mem-mb", 3072, "the server's memory budget (encodings, prepared levels, tile cache), MiB")
	browser := flag.String("chromium", "chromium", "chromium executable")
	flag.Parse()
	if err := run(*src, *mvar, *size, *wl, *zooms, *cacheMB, *memMB, *browser); err != nil {
		fmt.Fprintln(os.Stderr, "viewbench:", err)
		os.Exit(1)
	}
}

func run(src, mvar, size, wl, zoomList string, cacheMB, memMB int, browser string) error {
	var h, w, b int
	if _, err := fmt.Sscanf(size, "%dx%dx%d", &h, &w, &b); err != nil || h < 1 || w < 1 || b < 2 {
		return fmt.Errorf("-size %q: want HxWxB", size)
	}
	var wl0, wl1 float64
	if _, err := fmt.Sscanf(wl, "%g,%g", &wl0, &wl1); err != nil {
		return fmt.Errorf("-wl %q: want LO,HI", wl)
	}
	var zooms []float64
	for _, z := range strings.Split(zoomList, ",") {
		v, err := strconv.ParseFloat(z, 64)
		if err != nil || v <= 0 {
			return fmt.Errorf("-zooms %q: want numbers", zoomList)
		}
		zooms = append(zooms, v)
	}
	chromium, err := exec.LookPath(browser)
	if err != nil {
		return fmt.Errorf("%s: %w (apt-get install chromium)", browser, err)
	}
	dir, err := os.MkdirTemp("", "viewbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	t0 := time.Now()
	scene := filepath.Join(dir, "scene.hdr")
	if err := makeScene(src, mvar, scene, h, w, b, wl0, wl1); err != nil {
		return err
	}
	debug.FreeOSMemory()
	fmt.Fprintf(os.Stderr, "viewbench: %s made in %.1f s\n", size, time.Since(t0).Seconds())
	bin := filepath.Join(dir, "omnihsr")
	gob := exec.Command("go", "build", "-o", bin, "./cmd/omnihsr")
	gob.Dir = ".." // the library's module
	if out, err := gob.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v: %s", err, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "view", "-addr", "127.0.0.1:0", "-cache-mb", strconv.Itoa(cacheMB), "-mem-mb", strconv.Itoa(memMB), scene)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = os.Stderr
	t0 = time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return fmt.Errorf("omnihsr view: %w", err)
	}
	read := time.Since(t0)
	_, rest, ok := strings.Cut(line, "http://")
	if !ok {
		return fmt.Errorf("omnihsr view printed %q", line)
	}
	url := "http://" + strings.Fields(rest)[0]
	go io.Copy(io.Discard, stdout)
	pid := cmd.Process.Pid

	profile := filepath.Join(dir, "chromium")
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1180, 600), chromedp.UserDataDir(profile))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()

	p := &page{ctx: bctx, pid: pid, url: url}
	fmt.Printf("Scene %s (float32 ENVI, %.2f GB), mirrored from %s; `omnihsr view -cache-mb %d -mem-mb %d`; the scene read and the server up in %.1f s, RSS %s.\n\n",
		size, float64(h)*float64(w)*float64(b)*4/1e9, filepath.Base(src), cacheMB, memMB, read.Seconds(), p.rss())
	fmt.Println("| view | wall s | tiles | server ms per tile (median / max) | server cache hits | RSS / peak GiB |")
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	tNav := time.Now()
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(1180, 600), chromedp.Navigate(url)); err != nil {
		return err
	}
	if err := p.waitJS("window.viewer.scenes.length > 0"); err != nil {
		return err
	}
	if err := p.stepFrom(tNav, "first view from the page's load (fit, 1:1 tiles)", "", false); err != nil {
		return err
	}
	cx, cy := float64(w)/2, float64(h)/2
	for _, m := range []string{"lowres", "bicubic", "omnihsr"} {
		// Back to the first view (its tiles in the page) before the method
		// changes, so that no zoom level's tiles are asked for twice.
		if err := p.step("fit", "window.viewer.fit()", false); err != nil {
			return err
		}
		for _, side := range []string{"left", "right"} {
			if err := p.eval(fmt.Sprintf(`(e => { e.value = %q; e.dispatchEvent(new Event("input")); })(document.getElementById(%q))`, m, side), nil); err != nil {
				return err
			}
		}
		for _, z := range zooms {
			name := fmt.Sprintf("%s, zoom %g", m, z)
			if err := p.step(name, fmt.Sprintf("window.viewer.setZoom(%g, %g, %g)", z, cx, cy), m == "omnihsr" && z > 1); err != nil {
				return err
			}
			if err := p.step(name+", pan half a canvas", fmt.Sprintf("window.viewer.setZoom(%g, %g, %g)", z, cx+400/z, cy), false); err != nil {
				return err
			}
			if err := p.step(name+", pan back", fmt.Sprintf("window.viewer.setZoom(%g, %g, %g)", z, cx, cy), false); err != nil {
				return err
			}
		}
	}
	// Clicks pin the spectra of two pixels of the last view (its level
	// prepared), then of a pixel right after zooming in once more (the
	// level not prepared: low-res and bicubic come at once, the model's
	// curve when the level is ready).
	zl := zooms[len(zooms)-1]
	for i, at := range [][2]int{{400, 300}, {250, 180}, {330, 240}} {
		if i == 2 {
			zl *= 2
			if err := p.eval(fmt.Sprintf("window.viewer.setZoom(%g, %g, %g)", zl, cx, cy), nil); err != nil {
				return err
			}
		}
		t1 := time.Now()
		if err := p.eval(fmt.Sprintf("window.viewer.pin(%d, %d)", at[0], at[1]), nil); err != nil {
			return err
		}
		if err := p.waitJS(fmt.Sprintf("window.viewer.pins.length > %d", i)); err != nil {
			return err
		}
		first := time.Since(t1)
		if err := p.waitJS(fmt.Sprintf("!!window.viewer.pins[%d].omnihsr", i)); err != nil {
			return err
		}
		var spMs float64
		if err := p.eval(fmt.Sprintf("window.viewer.pins[%d].ms", i), &spMs); err != nil {
			return err
		}
		fmt.Printf("| spectra of pixel %d at zoom %g: low-res and bicubic / the model's too (all bands) | %.2f / %.2f | - | %.0f | - | %s |\n",
			i+1, zl, first.Seconds(), time.Since(t1).Seconds(), spMs, p.rss())
	}
	// A new page (no tiles of its own) replays the OmniHSR views: the
	// server's cache serves them.
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		return err
	}
	if err := p.waitJS("window.viewer.scenes.length > 0"); err != nil {
		return err
	}
	p.mark = 0
	for _, side := range []string{"left", "right"} {
		if err := p.eval(fmt.Sprintf(`(e => { e.value = "omnihsr"; e.dispatchEvent(new Event("input")); })(document.getElementById(%q))`, side), nil); err != nil {
			return err
		}
	}
	for _, z := range zooms {
		if err := p.step(fmt.Sprintf("new page, omnihsr, zoom %g", z), fmt.Sprintf("window.viewer.setZoom(%g, %g, %g)", z, cx, cy), false); err != nil {
			return err
		}
	}
	res, err := http.Get(url + "api/stats")
	if err != nil {
		return err
	}
	defer res.Body.Close()
	var st struct {
		Cache  struct{ Budget, Bytes, Hits, Misses, Entries int64 }
		Memory struct {
			Total, Encodings, Levels, Tiles, Hits, Misses, Evicted int64
			Prepared                                               []struct{ Gh, Gw int }
		}
	}
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		return err
	}
	c := st.Cache
	fmt.Printf("\nTile cache at the end: %d tiles, %.1f MiB of %d MiB; %d hits, %d misses (%.0f %% hits). Peak RSS %s.\n",
		c.Entries, float64(c.Bytes)/(1<<20), c.Budget>>20, c.Hits, c.Misses, 100*float64(c.Hits)/float64(max(1, c.Hits+c.Misses)), p.rss())
	m := st.Memory
	fmt.Printf("Memory budget at the end: %.2f GiB of %.2f GiB: encoding %.2f GiB, %d prepared levels %.2f GiB, tiles %.1f MiB; level lookups %d hits, %d misses, %d levels evicted.\n",
		float64(m.Encodings+m.Levels+m.Tiles)/(1<<30), float64(m.Total)/(1<<30), float64(m.Encodings)/(1<<30), len(m.Prepared), float64(m.Levels)/(1<<30), float64(m.Tiles)/(1<<20), m.Hits, m.Misses, m.Evicted)
	return nil
}

// page drives the viewer's page.
type page struct {
	ctx  context.Context
	pid  int
	url  string
	mark int // tiles of the page's log already reported
}

func (p *page) eval(js string, out any) error {
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[json.RawMessage](js))
	if err != nil || out == nil || len(v) == 0 {
		return err
	}
	return json.Unmarshal(v, out)
}

func (p *page) waitJS(cond string) error {
	for range 30000 {
		var ok bool
		if err := p.eval(cond, &ok); err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return errors.New("timed out waiting for " + cond)
}

type logEntry struct {
	URL   string  `json:"url"`
	Ms    float64 `json:"ms"`
	Cache string  `json:"cache"`
}

// step runs js (a view change) and reports the view once every tile has
// arrived; progressive also reports when the bicubic stand-ins were all in
// while the model's rendering was prepared.
func (p *page) step(name, js string, progressive bool) error {
	return p.stepFrom(time.Now(), name, js, progressive)
}

// stepFrom is step with the wall time counted from t0.
func (p *page) stepFrom(t0 time.Time, name, js string, progressive bool) error {
	if js != "" {
		if err := p.eval(js, nil); err != nil {
			return err
		}
	}
	var standIn time.Duration
	if progressive {
		cond := `window.viewer.pending === [...window.viewer.prepared.values()].filter(v => v === "pending").length`
		if err := p.waitJS(cond); err != nil {
			return err
		}
		standIn = time.Since(t0)
	}
	if err := p.waitJS("window.viewer.ready"); err != nil {
		return err
	}
	wall := time.Since(t0)
	var log []logEntry
	if err := p.eval("window.viewer.log", &log); err != nil {
		return err
	}
	var errMsg string
	if err := p.eval(`window.viewer.err || ""`, &errMsg); err != nil {
		return err
	}
	if errMsg != "" {
		return fmt.Errorf("%s: the page says %s", name, errMsg)
	}
	if p.mark > len(log) {
		p.mark = 0
	}
	tiles := log[p.mark:]
	p.mark = len(log)
	var ms []float64
	hits := 0
	for _, t := range tiles {
		ms = append(ms, t.Ms)
		if t.Cache == "hit" {
			hits++
		}
	}
	slices.Sort(ms)
	per := "-"
	if len(ms) > 0 {
		per = fmt.Sprintf("%.0f / %.0f", ms[len(ms)/2], ms[len(ms)-1])
	}
	if progressive {
		var prep struct{ PrepareMs, EncodeMs float64 }
		if err := p.eval(`({prepareMs: window.viewer.prepareMs, encodeMs: window.viewer.encodeMs})`, &prep); err != nil {
			return err
		}
		name += fmt.Sprintf(" (bicubic stand-ins in %.1f s; model prepared in %.1f s, of which encoding %.1f s)",
			standIn.Seconds(), prep.PrepareMs/1000, prep.EncodeMs/1000)
	}
	if name == "fit" && len(tiles) == 0 {
		return nil
	}
	fmt.Printf("| %s | %.2f | %d | %s | %d | %s |\n", name, wall.Seconds(), len(tiles), per, hits, p.rss())
	return nil
}

// rss returns the server's resident memory and its peak, GiB.
func (p *page) rss() string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.pid))
	if err != nil {
		return "?"
	}
	var rss, hwm float64
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		v, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmRSS:":
			rss = v / (1 << 20)
		case "VmHWM:":
			hwm = v / (1 << 20)
		}
	}
	return fmt.Sprintf("%.2f / %.2f", rss, hwm)
}

// makeScene writes an h x w x b float32 ENVI scene mirrored from src.
func makeScene(src, mvar, out string, h, w, b int, wl0, wl1 float64) error {
	s, _, err := formats.Read(src, hsi.ReadOptions{Var: mvar})
	if err != nil {
		return err
	}
	c, err := hsi.New(h, w, b)
	if err != nil {
		return err
	}
	// Band k of the output sits at position k/(b-1) of the source's bands.
	lo := make([]int, b)
	f := make([]float32, b)
	for k := range b {
		x := float64(k) * float64(s.B-1) / float64(b-1)
		lo[k] = min(int(math.Floor(x)), s.B-2)
		f[k] = float32(x - float64(lo[k]))
	}
	mirror := func(i, n int) int {
		i %= 2 * n
		if i >= n {
			i = 2*n - 1 - i
		}
		return i
	}
	for i := range h {
		si := mirror(i, s.H)
		for j := range w {
			sp := s.Data[(si*s.W+mirror(j, s.W))*s.B:][:s.B]
			dst := c.Data[(i*w+j)*b:][:b]
			for k := range dst {
				dst[k] = sp[lo[k]]*(1-f[k]) + sp[lo[k]+1]*f[k]
			}
		}
	}
	c.Meta.Wavelengths = make([]float64, b)
	for k := range b {
		c.Meta.Wavelengths[k] = wl0 + (wl1-wl0)*float64(k)/float64(b-1)
	}
	c.Meta.WavelengthUnits = "Nanometers"
	return formats.Write(out, c, hsi.WriteOptions{})
}
