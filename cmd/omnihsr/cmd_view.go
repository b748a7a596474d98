package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/view"
)

var viewCmd = &command{
	name:    "view",
	stops:   true,
	summary: "look at scenes in the browser: RGB by wavelength, zoom super-resolved by the model, swipe, spectra",
	usage: `Usage: omnihsr view [-addr 127.0.0.1:8080] [-allow-remote] [-weights FILE] [-cache-mb N] [-mem-mb N] FILE [FILE...]

Reads every FILE (any format omnihsr reads), starts a web server on -addr
(loopback by default) and prints its URL. The page shows the first file in
RGB (presets true colour, colour infrared and SWIR by wavelength, or any
three bands), stretched per channel between percentiles (2-98 % by
default). Past 1:1 the visible window is rendered at the zoom factor by
the OmniHSR model (only that window is computed), by bicubic interpolation
or as the low-res pixels; a swipe compares any two of them or another FILE,
aligned on the map when both files are georeferenced in the same CRS
(different pixel sizes and offsets), else by scale (the page says which
and why). While the model encodes a scene the first time (about a minute
for an EMIT-sized scene on 2 cores) bicubic tiles stand in for its tiles.
A click pins a pixel and plots its low-res, bicubic and OmniHSR spectra
(bad bands masked; the model's follows when its rendering of the zoom
level is ready); the pinned spectra download as CSV.

The model's encodings, its prepared zoom levels and the tile cache stay
within -mem-mb (the files themselves are not counted): the least recently
used levels are dropped first, and the tile cache's budget (-cache-mb) is
part of it. The Go runtime's soft memory limit is set to the files, the
budget and 1 GiB, unless GOMEMLIMIT is set.

Only the files named here are read (the page addresses them by number),
requests for another host name and API requests from another site's page
are refused, and nothing is written to disk. -addr must be a loopback
address (127.0.0.1, [::1], localhost) unless -allow-remote is given: the
viewer has no authentication, so any machine that can reach a network
address could read the files' pixels. -weights is read at start. Stop with
Ctrl-C.
`,
	flags: func(fs *flag.FlagSet) runner {
		o := &viewOpts{}
		fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; loopback unless -allow-remote)")
		fs.BoolVar(&o.allowRemote, "allow-remote", false, "allow an -addr other machines can reach (0.0.0.0:P, a network address): no authentication")
		fs.StringVar(&o.weights, "weights", "", "OmniHSR weight file (*.omw; default: the model embedded in the binary)")
		fs.Int64Var(&o.cacheMB, "cache-mb", 256, "memory budget of the rendered-tile cache, MiB")
		fs.Int64Var(&o.memMB, "mem-mb", view.DefaultMemory>>20, "memory budget of the model's encodings, prepared zoom levels and the tile cache together, MiB")
		return o
	},
}

type viewOpts struct {
	addr, weights string
	allowRemote   bool
	cacheMB       int64
	memMB         int64
}

// loopbackAddr reports whether addr (host:port) listens on loopback only:
// localhost, or a loopback IP address. An empty host (":8080") or an
// unspecified one (0.0.0.0, [::]) listens on every interface.
func loopbackAddr(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	if strings.EqualFold(host, "localhost") {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

func (o *viewOpts) run(ctx context.Context, e env) error {
	files := e.fs.Args()
	if len(files) == 0 {
		return usagef("give at least one FILE")
	}
	if o.cacheMB < 0 {
		return usagef("-cache-mb %d: want >= 0", o.cacheMB)
	}
	if o.memMB < o.cacheMB {
		return usagef("-mem-mb %d: want at least -cache-mb (%d)", o.memMB, o.cacheMB)
	}
	loop, err := loopbackAddr(o.addr)
	if err != nil {
		return usagef("-addr %q: %v", o.addr, err)
	}
	if !loop && !o.allowRemote {
		return usagef("-addr %s is not a loopback address: other machines could reach the viewer, which has no authentication; give -allow-remote to allow it", o.addr)
	}
	newModel := func() (*model.Model, error) { return loadModel(o.weights) }
	if o.weights != "" {
		// Read the weights now, so that a bad file stops the start rather
		// than the first model tile.
		m, err := loadModel(o.weights)
		if err != nil {
			return fmt.Errorf("-weights: %w", err)
		}
		newModel = func() (*model.Model, error) { return m, nil }
	}
	scenes := make([]*view.Scene, len(files))
	for i, f := range files {
		sc, err := view.Open(f, newModel)
		if err != nil {
			return err
		}
		scenes[i] = sc
	}
	// The budget bounds what the server keeps; the runtime's soft memory
	// limit has the collector hand back what it drops before the heap
	// outgrows the scenes, the budget and 1 GiB for a preparation's
	// temporaries (GOMEMLIMIT, when set, rules instead).
	if os.Getenv("GOMEMLIMIT") == "" {
		lim := o.memMB<<20 + 1<<30
		for _, sc := range scenes {
			lim += int64(len(sc.LR.Data)) * 4
		}
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(lim))
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("view: %w", err)
	}
	addr := ln.Addr().String()
	url := addr
	if host, port, err := net.SplitHostPort(addr); err == nil {
		if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
			url = net.JoinHostPort("localhost", port) // 0.0.0.0 names no machine
		}
	}
	srv := &http.Server{Handler: view.NewServer(scenes, addr, o.cacheMB<<20, o.memMB<<20), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(e.stdout, "omnihsr view: http://%s/ (%d file(s); Ctrl-C to stop)\n", url, len(files))
	if !loop {
		fmt.Fprintf(e.stderr, "omnihsr view: -allow-remote: listening on %s, reachable from other machines, with no authentication\n", addr)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("view: %w", err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("view: %w", err)
		}
		return nil
	}
}
