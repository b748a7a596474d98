// Command viewshot regenerates docs/view.png, the README's screenshot of
// `omnihsr view`, with headless chromium:
//
//	cd tools
//	go run ./viewshot                # ../sample/L7_ETMs.tif -> ../docs/view.png
//	go run ./viewshot -in FILE -out shot.png
//
// It is in the nested tools module (chromedp stays out of the library's
// go.mod), so it runs in tools/ and its default paths lead back to the
// repository's root.
//
// It serves the scene as `omnihsr view` does (the model embedded in the
// binary) on a loopback port, opens the page in a 1180 x 600 window,
// zooms to -zoom (8: the right side is the model's rendering at x8, around
// the scene's centre), puts the swipe in the middle with
// the low-res pixels on the left and OmniHSR on the right, pins two pixels
// and saves the window once every tile and spectrum has arrived. Only the
// render times the page shows vary from run to run.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/omnihsr/omnihsr/internal/atomicfile"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/view"
)

// The viewport and the two pinned canvas pixels (the canvas is 800 x 600
// at the page's top left).
const winW, winH = 1180, 600

var pins = [][2]int{{330, 300}, {520, 250}}

func main() {
	in := flag.String("in", "../sample/L7_ETMs.tif", "scene to show")
	out := flag.String("out", "../docs/view.png", "screenshot to write (PNG)")
	browser := flag.String("chromium", "chromium", "chromium executable")
	zoom := flag.Int("zoom", 8, "zoom factor of the view")
	flag.Parse()
	if err := run(*in, *out, *browser, *zoom); err != nil {
		fmt.Fprintln(os.Stderr, "viewshot:", err)
		os.Exit(1)
	}
}

func run(in, out, browser string, zoom int) error {
	path, err := exec.LookPath(browser)
	if err != nil {
		return fmt.Errorf("%s: %w (apt-get install chromium)", browser, err)
	}
	sc, err := view.Open(in, model.Default)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: view.NewServer([]*view.Scene{sc}, ln.Addr().String(), 64<<20, view.DefaultMemory)}
	go srv.Serve(ln)
	defer srv.Close()

	tmp, err := os.MkdirTemp("", "viewshot")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(winW, winH), chromedp.UserDataDir(tmp))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()

	if err := chromedp.Do(bctx, chromedp.EmulateViewport(winW, winH), chromedp.Navigate("http://"+ln.Addr().String()+"/")); err != nil {
		return err
	}
	if err := settle(bctx, "window.viewer.ready && window.viewer.scenes.length > 0"); err != nil {
		return err
	}
	set := `(e => { e.value = %q; e.dispatchEvent(new Event("input")); })(document.getElementById(%q))`
	for _, s := range [][2]string{{"lowres", "left"}, {"omnihsr", "right"}, {"50", "swipe"}} {
		if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](fmt.Sprintf(set, s[0], s[1]))); err != nil {
			return err
		}
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](fmt.Sprintf("window.viewer.setZoom(%d)", zoom))); err != nil {
		return err
	}
	if err := settle(bctx, "window.viewer.ready"); err != nil {
		return err
	}
	for i, p := range pins {
		if err := chromedp.Do(bctx, chromedp.MouseClickXY(float64(p[0]), float64(p[1]))); err != nil {
			return err
		}
		if err := settle(bctx, fmt.Sprintf("window.viewer.pins.length === %d", i+1)); err != nil {
			return err
		}
	}
	if err := settle(bctx, "window.viewer.ready"); err != nil {
		return err
	}
	shot, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
	if err != nil {
		return err
	}
	if err := atomicfile.Write(out, func(w io.Writer) error { _, err := w.Write(shot); return err }); err != nil {
		return err
	}
	return nil
}

// settle waits until the JavaScript condition holds.
func settle(ctx context.Context, cond string) error {
	for range 1500 {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
		if err != nil {
			return fmt.Errorf("%s: %w", cond, err)
		}
		if ok {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return errors.New("the page did not reach " + cond)
}
