package view

import (
	"bytes"
	"context"
	"embed"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

//go:embed assets
var assets embed.FS

// Server is the viewer's HTTP handler. Files are addressed by their index
// in Scenes; no request names a path.
type Server struct {
	Scenes []*Scene
	align  [][]Alignment // align[i][j]: scene j on the grid of scene i
	cache  *Cache
	mem    *Memory
	hosts  map[string]bool
	mux    *http.ServeMux
}

// NewServer returns a server over scenes, with a tile cache of
// cacheBytes within a memory budget of totalBytes (Memory: the scenes'
// encodings, their prepared zoom levels and the tile cache), accepting
// requests whose Host header names this machine at addr's port (Hosts).
// The scenes count in the server's budget from then on.
func NewServer(scenes []*Scene, addr string, cacheBytes, totalBytes int64) *Server {
	s := &Server{Scenes: scenes, cache: NewCache(cacheBytes), hosts: Hosts(addr)}
	s.mem = NewMemory(totalBytes, s.cache)
	for _, sc := range scenes {
		sc.mem = s.mem
	}
	s.align = make([][]Alignment, len(scenes))
	for i, a := range scenes {
		s.align[i] = make([]Alignment, len(scenes))
		for j, b := range scenes {
			if i != j {
				s.align[i][j] = Align(i, a, j, b)
			}
		}
	}
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /{$}", s.page)
	s.mux.HandleFunc("GET /static/{name}", s.static)
	s.mux.HandleFunc("GET /api/scenes", s.scenes)
	s.mux.HandleFunc("GET /api/tile", s.tile)
	s.mux.HandleFunc("GET /api/spectrum", s.spectrum)
	s.mux.HandleFunc("GET /api/export.csv", s.export)
	s.mux.HandleFunc("GET /api/prepare", s.prepare)
	s.mux.HandleFunc("GET /api/stats", s.stats)
	return s
}

// Cache returns the tile cache.
func (s *Server) Cache() *Cache { return s.cache }

// Memory returns the memory budget.
func (s *Server) Memory() *Memory { return s.mem }

// Hosts returns the Host headers a server bound to addr (host:port)
// accepts: addr itself, and localhost, 127.0.0.1 and [::1] at its port
// (whatever the address, so that a browser on this machine always gets
// in). For an unspecified address (0.0.0.0, [::]: every interface) it
// adds the address of each of this machine's interfaces at the port, so
// that another machine gets in by the IP address it connects to; no other
// name (DNS rebinding) is accepted.
func Hosts(addr string) map[string]bool {
	hosts := map[string]bool{}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		hosts[addr] = true
		return hosts
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
		hosts[addr] = true // not "0.0.0.0:P", which names no machine
	}
	for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
		hosts[net.JoinHostPort(h, port)] = true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		if as, err := net.InterfaceAddrs(); err == nil {
			for _, a := range as {
				if n, ok := a.(*net.IPNet); ok {
					hosts[net.JoinHostPort(n.IP.String(), port)] = true
				}
			}
		}
	}
	return hosts
}

// crossSite reports why r, an API request, comes from another site's page
// ("" when it does not): its Sec-Fetch-Site header is cross-site or
// same-site (another origin), or its Origin header names another host than
// its Host. Browsers send Sec-Fetch-Site with every request, and Origin
// with every cross-origin one, so a page of another site cannot have the
// viewer do work (and a client that sends neither is not a browser page).
func crossSite(r *http.Request) string {
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		return "Sec-Fetch-Site: " + site
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		return "Origin: " + o
	}
	return ""
}

// ServeHTTP refuses requests for another host (DNS rebinding) and API
// requests from another site's page (crossSite), and serves the page, its
// assets and the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.hosts[r.Host] {
		http.Error(w, "view: wrong Host header", http.StatusForbidden)
		return
	}
	if strings.HasPrefix(r.URL.Path, "/api/") {
		if why := crossSite(r); why != "" {
			http.Error(w, "view: cross-site request refused ("+why+")", http.StatusForbidden)
			return
		}
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	b, _ := assets.ReadFile("assets/index.html")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b)
}

var contentTypes = map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}

func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	dot := strings.LastIndexByte(name, '.')
	if !fs.ValidPath(name) || strings.Contains(name, "/") || dot < 0 || contentTypes[name[dot:]] == "" {
		http.NotFound(w, r)
		return
	}
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", contentTypes[name[dot:]])
	w.Write(b)
}

// SceneInfo is what the page knows of a scene.
type SceneInfo struct {
	Index       int              `json:"index"`
	Name        string           `json:"name"`
	H           int              `json:"h"`
	W           int              `json:"w"`
	B           int              `json:"b"`
	Wavelengths []float64        `json:"wavelengths"`
	BadBands    []bool           `json:"badBands"`
	Presets     map[string][]int `json:"presets"`
	Default     []int            `json:"defaultBands"`
	Transform   *[6]float64      `json:"transform"`
	Geo         string           `json:"geo"`
	NoData      *float64         `json:"noData"`
	// Align says how each other file is drawn on this one's grid.
	Align []Alignment `json:"align"`
}

// finite reports whether every value of v is finite.
func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Info describes scene i.
func (s *Server) Info(i int) SceneInfo {
	sc := s.Scenes[i]
	m := sc.LR.Meta
	in := SceneInfo{Index: i, Name: sc.Name, H: sc.LR.H, W: sc.LR.W, B: sc.LR.B,
		Wavelengths: sc.Wavelengths(), BadBands: m.BadBands, Presets: map[string][]int{},
		Default: sc.DefaultBands(), Geo: "none"}
	for _, p := range Presets {
		if b, ok := sc.PresetBands(p.Name); ok {
			in.Presets[p.Name] = b
		}
	}
	if gt, ok := m.Geo.Transform(); ok && finite(gt[:]) {
		in.Transform = &gt // JSON holds no NaN or infinity: else unknown
	}
	if m.Geo != nil {
		in.Geo = m.Geo.Summary()
	}
	if m.HasDataIgnore && finite([]float64{m.DataIgnore}) {
		v := m.DataIgnore
		in.NoData = &v
	}
	in.Align = []Alignment{}
	for j, al := range s.align[i] {
		if j != i {
			in.Align = append(in.Align, al)
		}
	}
	return in
}

func (s *Server) scenes(w http.ResponseWriter, r *http.Request) {
	out := struct {
		Scenes  []SceneInfo `json:"scenes"`
		Presets []Preset    `json:"presets"`
	}{Presets: Presets}
	for i := range s.Scenes {
		out.Scenes = append(out.Scenes, s.Info(i))
	}
	writeJSON(w, out)
}

// writeJSON writes v as JSON, or a 500 naming the encoding's error (a
// value JSON cannot hold): never a 200 with an empty body.
func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "view: encoding the answer: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(b, '\n'))
}

// params reads integer query parameters, reporting the first bad one.
type params struct {
	r   *http.Request
	err error
}

// maxParam bounds the magnitude of an integer parameter: every size and
// position the API takes is at most 2^20, so that sums and products of a
// few of them never overflow.
const maxParam = 1 << 30

func (p *params) int(name string) int {
	v, err := strconv.Atoi(p.r.URL.Query().Get(name))
	if (err != nil || v < -maxParam || v > maxParam) && p.err == nil {
		p.err = fmt.Errorf("parameter %s: want an integer from -2^30 to 2^30", name)
		return 0
	}
	return v
}

func (p *params) float(name string, def float64) float64 {
	s := p.r.URL.Query().Get(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseFloat(s, 64)
	if (err != nil || math.IsNaN(v) || math.IsInf(v, 0)) && p.err == nil {
		p.err = fmt.Errorf("parameter %s: want a number", name)
	}
	return v
}

// scene returns the scene named by parameter f (an index).
func (s *Server) scene(w http.ResponseWriter, p *params) (*Scene, bool) {
	f := p.int("f")
	if p.err != nil {
		http.Error(w, "view: "+p.err.Error(), http.StatusBadRequest)
		return nil, false
	}
	if f < 0 || f >= len(s.Scenes) {
		http.Error(w, fmt.Sprintf("view: no file %d", f), http.StatusNotFound)
		return nil, false
	}
	return s.Scenes[f], true
}

// bands resolves the RGB bands of a request: preset=NAME, else b=R,G,B,
// else the scene's default.
func bandsOf(sc *Scene, r *http.Request) ([]int, error) {
	q := r.URL.Query()
	if name := q.Get("preset"); name != "" {
		if b, ok := sc.PresetBands(name); ok {
			return b, nil
		}
		return sc.DefaultBands(), nil
	}
	s := q.Get("b")
	if s == "" {
		return sc.DefaultBands(), nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return nil, fmt.Errorf("parameter b: want three band indices")
	}
	out := make([]int, 3)
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || v >= sc.LR.B {
			return nil, fmt.Errorf("parameter b: band %q outside 0..%d", p, sc.LR.B-1)
		}
		out[i] = v
	}
	return out, nil
}

// maxPins bounds the pins of one CSV export.
const maxPins = 64

// tile renders a PNG of a window: f (file), m (method), gh, gw (grid),
// x, y, w, h (window), b or preset (bands), lo, hi (stretch percentiles),
// and ref (optional: the file whose grid the window is in, f's own by
// default; file f is then drawn aligned to ref's as Align says).
func (s *Server) tile(w http.ResponseWriter, r *http.Request) {
	t0 := time.Now()
	p := &params{r: r}
	sc, ok := s.scene(w, p)
	if !ok {
		return
	}
	f := p.int("f")
	ref := f
	if r.URL.Query().Get("ref") != "" {
		ref = p.int("ref")
		if p.err == nil && (ref < 0 || ref >= len(s.Scenes)) {
			http.Error(w, fmt.Sprintf("view: no file %d", ref), http.StatusNotFound)
			return
		}
	}
	gh, gw, x0, y0, tw, th := p.int("gh"), p.int("gw"), p.int("x"), p.int("y"), p.int("w"), p.int("h")
	lo, hi := p.float("lo", 2), p.float("hi", 98)
	bands, err := bandsOf(sc, r)
	if err == nil {
		err = p.err
	}
	if err == nil && !(lo >= 0 && lo < hi && hi <= 100) {
		err = fmt.Errorf("stretch %g-%g %%: want 0 <= lo < hi <= 100", lo, hi)
	}
	if err == nil {
		err = checkWindow(gh, gw, y0, x0, th, tw)
	}
	if err == nil && th*tw > 1<<20 {
		err = fmt.Errorf("window %dx%d: at most 2^20 pixels", th, tw)
	}
	if err != nil {
		http.Error(w, "view: "+err.Error(), http.StatusBadRequest)
		return
	}
	m := r.URL.Query().Get("m")
	key := fmt.Sprintf("%d|%d|%s|%d|%d|%d|%d|%d|%d|%v|%g|%g", f, ref, m, gh, gw, x0, y0, tw, th, bands, lo, hi)
	png, hit := s.cache.Get(key)
	if !hit {
		var window windowFunc = sc.WindowContext
		if ref != f && s.align[ref][f].Mode == AlignMap {
			window = func(_ context.Context, m string, gh, gw, y0, x0, h, w int, bands []int) ([]float32, error) {
				return sc.MapWindow(s.align[ref][f], s.Scenes[ref].LR.H, s.Scenes[ref].LR.W, m, gh, gw, y0, x0, h, w, bands)
			}
		}
		png, err = s.renderPNG(r.Context(), sc, window, m, gh, gw, y0, x0, th, tw, bands, lo, hi)
		if err != nil {
			if r.Context().Err() != nil {
				return // the client went away: nothing to answer
			}
			http.Error(w, "view: "+err.Error(), http.StatusBadRequest)
			return
		}
		s.cache.Put(key, png)
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("X-Cache", map[bool]string{true: "hit", false: "miss"}[hit])
	w.Header().Set("X-Render-Ms", strconv.FormatFloat(float64(time.Since(t0).Microseconds())/1000, 'f', 1, 64))
	w.Header().Set("X-Bands", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(bands)), ","), "[]"))
	w.Write(png)
}

// RenderRGB renders a window as 8-bit RGBA: each band stretched linearly
// between its lo and hi percentiles, no-data transparent.
func (sc *Scene) RenderRGB(m string, gh, gw, y0, x0, h, w int, bands []int, lo, hi float64) (*image.NRGBA, error) {
	return sc.renderRGB(context.Background(), sc.WindowContext, m, gh, gw, y0, x0, h, w, bands, lo, hi)
}

// windowFunc renders a window of a grid (Scene.WindowContext's arguments).
type windowFunc func(ctx context.Context, m string, gh, gw, y0, x0, h, w int, bands []int) ([]float32, error)

func (sc *Scene) renderRGB(ctx context.Context, window windowFunc, m string, gh, gw, y0, x0, h, w int, bands []int, lo, hi float64) (*image.NRGBA, error) {
	v, err := window(ctx, m, gh, gw, y0, x0, h, w, bands)
	if err != nil {
		return nil, err
	}
	var a, k [3]float32
	for c := range 3 {
		l, u := sc.Stretch(bands[c], lo, hi)
		a[c] = l
		k[c] = 255 / max(u-l, 1e-30)
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for p := 0; p < h*w; p++ {
		px := img.Pix[p*4 : p*4+4]
		nodata := false
		for c := range 3 {
			x := v[p*3+c]
			if sc.IsNoData(x) {
				nodata = true
				break
			}
			px[c] = Level(x, a[c], k[c])
		}
		if nodata {
			px[0], px[1], px[2], px[3] = 0, 0, 0, 0
		} else {
			px[3] = 255
		}
	}
	return img, nil
}

// Level maps value x to 0..255: (x-lo)*k rounded, clamped.
func Level(x, lo, k float32) uint8 {
	y := (x - lo) * k
	switch {
	case y <= 0:
		return 0
	case y >= 255:
		return 255
	}
	return uint8(y + 0.5)
}

func (s *Server) renderPNG(ctx context.Context, sc *Scene, window windowFunc, m string, gh, gw, y0, x0, h, w int, bands []int, lo, hi float64) ([]byte, error) {
	img, err := sc.renderRGB(ctx, window, m, gh, gw, y0, x0, h, w, bands, lo, hi)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// prepare readies the model's rendering of file f on the gh x gw grid
// (the scene's encoding, done once, and the grid's primitives) and
// reports the time each step took in this request, so that the page can
// show bicubic tiles meanwhile instead of waiting on model tiles.
func (s *Server) prepare(w http.ResponseWriter, r *http.Request) {
	t0 := time.Now()
	p := &params{r: r}
	sc, ok := s.scene(w, p)
	if !ok {
		return
	}
	gh, gw := p.int("gh"), p.int("gw")
	err := p.err
	if err == nil {
		err = checkWindow(gh, gw, 0, 0, 1, 1)
	}
	if err != nil {
		http.Error(w, "view: "+err.Error(), http.StatusBadRequest)
		return
	}
	encMs := 0.0
	if gh > sc.LR.H && gw > sc.LR.W {
		if encMs, err = sc.PrepareContext(r.Context(), gh, gw); err != nil {
			http.Error(w, "view: "+err.Error(), http.StatusInternalServerError)
			return
		}
	}
	writeJSON(w, struct {
		EncodeMs float64 `json:"encodeMs"`
		Ms       float64 `json:"ms"`
	}{encMs, float64(time.Since(t0).Microseconds()) / 1000})
}

// stats reports the tile cache's statistics and the memory budget's.
func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, struct {
		Cache  CacheStats  `json:"cache"`
		Memory MemoryStats `json:"memory"`
	}{s.cache.Stats(), s.mem.Stats()})
}

// spectrum returns the spectra at pixel x, y of the gh x gw grid of file
// f: at once, without the model's when its rendering of the grid is not
// prepared (omnihsrPending; the page prepares it and asks again), or
// waiting for the model with wait=1.
func (s *Server) spectrum(w http.ResponseWriter, r *http.Request) {
	t0 := time.Now()
	p := &params{r: r}
	sc, ok := s.scene(w, p)
	if !ok {
		return
	}
	gh, gw, x, y := p.int("gh"), p.int("gw"), p.int("x"), p.int("y")
	if p.err != nil {
		http.Error(w, "view: "+p.err.Error(), http.StatusBadRequest)
		return
	}
	sp, err := sc.spectrum(r.Context(), gh, gw, y, x, r.URL.Query().Get("wait") == "1")
	if err != nil {
		http.Error(w, "view: "+err.Error(), http.StatusBadRequest)
		return
	}
	writeJSON(w, struct {
		*Spectra
		X      int     `json:"x"`
		Y      int     `json:"y"`
		Ms     float64 `json:"ms"`
		LowRes [2]int  `json:"lowresPixel"`
	}{Spectra: sp, X: x, Y: y, Ms: float64(time.Since(t0).Microseconds()) / 1000,
		LowRes: [2]int{cell(x, sc.LR.W, gw), cell(y, sc.LR.H, gh)}})
}

// export returns a CSV of the spectra at pins p=x,y of the gh x gw
// grid of file f (one parameter p per pin), one row per band, as a
// download.
func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	p := &params{r: r}
	sc, ok := s.scene(w, p)
	if !ok {
		return
	}
	gh, gw := p.int("gh"), p.int("gw")
	if p.err != nil {
		http.Error(w, "view: "+p.err.Error(), http.StatusBadRequest)
		return
	}
	var pins [][2]int
	for _, pin := range r.URL.Query()["p"] {
		a, b, ok := strings.Cut(pin, ",")
		x, err1 := strconv.Atoi(a)
		y, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || len(pins) >= maxPins {
			http.Error(w, fmt.Sprintf("view: pin %q: want x,y (at most %d pins)", pin, maxPins), http.StatusBadRequest)
			return
		}
		pins = append(pins, [2]int{x, y})
	}
	if len(pins) == 0 {
		http.Error(w, "view: no pin (want p=x,y)", http.StatusBadRequest)
		return
	}
	header := []string{"band", "wavelength_nm", "bad"}
	cols := make([][]*float64, 0, 3*len(pins))
	for _, pin := range pins {
		sp, err := sc.SpectrumContext(r.Context(), gh, gw, pin[1], pin[0])
		if err != nil {
			http.Error(w, "view: "+err.Error(), http.StatusBadRequest)
			return
		}
		for _, c := range []struct {
			name string
			v    []*float64
		}{{Nearest, sp.LowRes}, {Bicubic, sp.Bicubic}, {OmniHSR, sp.OmniHSR}} {
			if c.v != nil {
				header = append(header, fmt.Sprintf("%s_x%d_y%d", c.name, pin[0], pin[1]))
				cols = append(cols, c.v)
			}
		}
	}
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	cw.Write(header)
	wl := sc.Wavelengths()
	for b := 0; b < sc.LR.B; b++ {
		row := []string{strconv.Itoa(b), "", "0"}
		if wl != nil {
			row[1] = strconv.FormatFloat(wl[b], 'g', -1, 64)
		}
		if b < len(sc.LR.Meta.BadBands) && sc.LR.Meta.BadBands[b] {
			row[2] = "1"
		}
		for _, c := range cols {
			if c[b] == nil {
				row = append(row, "")
			} else {
				row = append(row, strconv.FormatFloat(*c[b], 'g', -1, 32))
			}
		}
		cw.Write(row)
	}
	cw.Flush()
	w.Header().Set("Content-Type", "text/csv")
	w.Header().Set("Content-Disposition", `attachment; filename="spectra.csv"`)
	w.Write(buf.Bytes())
}
