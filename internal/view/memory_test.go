package view

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/omnihsr/omnihsr/internal/model"
)

// serveBudget serves scenes with a tile cache of tiles bytes within a
// memory budget of total bytes.
func serveBudget(t *testing.T, scenes []*Scene, tiles, total int64) (*Server, *httptest.Server) {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	s := NewServer(scenes, ts.Listener.Addr().String(), tiles, total)
	ts.Config.Handler = s
	ts.Start()
	t.Cleanup(ts.Close)
	return s, ts
}

type statsReply struct {
	Cache  CacheStats
	Memory MemoryStats
}

func getStats(t *testing.T, ts *httptest.Server) statsReply {
	t.Helper()
	_, body := get(t, ts.URL+"/api/stats")
	var st statsReply
	if err := json.Unmarshal(body, &st); err != nil {
		t.Fatalf("stats %s: %v", body, err)
	}
	return st
}

func grids(st MemoryStats) string {
	s := ""
	for _, l := range st.Prepared {
		s += fmt.Sprintf("%dx%d ", l.H, l.W)
	}
	return s
}

// The encoding and a prepared level count what they hold: the encoder's
// C features a pixel and the filled copy of an input with no-data; the
// raw head output and the primitives (31 + 31 floats a pixel), and three
// bands of the input for a band choice; the filled copy bicubic spectra
// next to no-data read.
func TestMemorySizes(t *testing.T) {
	c := synth(12, 10, 16, 0) // holds no-data
	sc := NewScene("a", c, model.Default)
	if _, err := sc.Prepare(36, 30); err != nil {
		t.Fatal(err)
	}
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	st := sc.mem.Stats()
	if want := int64(4 * 12 * 10 * (m.Cfg.Encoder.C + 16)); st.Encodings != want {
		t.Errorf("encoding %d bytes, want %d", st.Encodings, want)
	}
	if want := int64(4 * 12 * 10 * (31 + 31)); len(st.Prepared) != 1 || st.Levels != want || st.Prepared[0].Bytes != want {
		t.Errorf("level %d bytes (%v), want %d", st.Levels, st.Prepared, want)
	}
	if _, err := sc.Window(OmniHSR, 36, 30, 0, 0, 4, 4, []int{3, 2, 0}); err != nil {
		t.Fatal(err)
	}
	if want := int64(4 * 12 * 10 * (31 + 31 + 3)); sc.mem.Stats().Levels != want {
		t.Errorf("level with a band choice %d bytes, want %d", sc.mem.Stats().Levels, want)
	}
	// A bicubic spectrum next to the no-data pixel (1, 2) reads the filled
	// scene, kept once; one away from it does not.
	for _, px := range [][3]int{{30, 27, 0}, {4, 7, 1}, {5, 6, 1}} {
		if _, err := sc.SpectrumNow(36, 30, px[0], px[1]); err != nil {
			t.Fatal(err)
		}
		if want := int64(4 * 12 * 10 * (m.Cfg.Encoder.C + 16 + px[2]*16)); sc.mem.Stats().Encodings != want {
			t.Errorf("after a spectrum at (%d, %d): encodings and filled copies %d bytes, want %d", px[0], px[1], sc.mem.Stats().Encodings, want)
		}
	}
}

// Prepared levels stay within the memory budget: the least recently used
// is evicted first, a level kept is used again without being made again,
// and /api/stats reports it all.
func TestMemoryBudget(t *testing.T) {
	c := synth(12, 10, 16, 0)
	probe := NewScene("probe", c, model.Default)
	if _, err := probe.Prepare(36, 30); err != nil {
		t.Fatal(err)
	}
	enc, lvl := probe.mem.Stats().Encodings, probe.mem.Stats().Levels
	const tiles = 4096
	total := enc + tiles + 2*lvl + lvl/2 // two levels and a half
	sc := NewScene("a", c, model.Default)
	_, ts := serveBudget(t, []*Scene{sc}, tiles, total)
	prep := func(gh, gw int) {
		t.Helper()
		if res, body := get(t, fmt.Sprintf("%s/api/prepare?f=0&gh=%d&gw=%d", ts.URL, gh, gw)); res.StatusCode != 200 {
			t.Fatalf("prepare %dx%d: %d %s", gh, gw, res.StatusCode, body)
		}
	}
	prep(24, 20)
	prep(36, 30)
	prep(48, 40)
	st := getStats(t, ts).Memory
	if grids(st) != "48x40 36x30 " || st.Evicted != 1 || st.Misses != 3 || st.Hits != 0 {
		t.Errorf("after three levels: %s, %d evicted, %d misses, %d hits", grids(st), st.Evicted, st.Misses, st.Hits)
	}
	if st.Total != total || st.Encodings != enc || st.Levels != 2*lvl || st.Encodings+st.Levels+tiles > total {
		t.Errorf("stats %+v: want total %d, encoding %d, levels %d", st, total, enc, 2*lvl)
	}
	// Back to a kept level: found, not made again.
	prep(36, 30)
	st = getStats(t, ts).Memory
	if grids(st) != "36x30 48x40 " || st.Hits != 1 || st.Misses != 3 || st.Evicted != 1 {
		t.Errorf("back to 36x30: %s, %d hits, %d misses, %d evicted", grids(st), st.Hits, st.Misses, st.Evicted)
	}
	// Back to the evicted one: made again, evicting the least recent.
	prep(24, 20)
	st = getStats(t, ts).Memory
	if grids(st) != "24x20 36x30 " || st.Misses != 4 || st.Evicted != 2 {
		t.Errorf("back to 24x20: %s, %d misses, %d evicted", grids(st), st.Misses, st.Evicted)
	}
	if c := getStats(t, ts).Cache; c.Budget != tiles {
		t.Errorf("tile cache budget %d, want %d", c.Budget, tiles)
	}
}

// A budget that holds the encoding but not a level and the tile cache
// keeps the level used last (tiles need it) and gives the tile cache what
// is left, here nothing: tiles still render, uncached.
func TestMemoryBudgetTight(t *testing.T) {
	c := synth(12, 10, 16, 0)
	probe := NewScene("probe", c, model.Default)
	if _, err := probe.Prepare(36, 30); err != nil {
		t.Fatal(err)
	}
	enc, lvl := probe.mem.Stats().Encodings, probe.mem.Stats().Levels
	sc := NewScene("a", c, model.Default)
	_, ts := serveBudget(t, []*Scene{sc}, 4096, enc+lvl/2)
	url := ts.URL + "/api/tile?f=0&m=omnihsr&gh=36&gw=30&x=0&y=0&w=30&h=36"
	for range 2 {
		if res, body := get(t, url); res.StatusCode != 200 || res.Header.Get("X-Cache") != "miss" {
			t.Errorf("tile: %d, X-Cache %q: %s", res.StatusCode, res.Header.Get("X-Cache"), body)
		}
	}
	if res, body := get(t, ts.URL+"/api/prepare?f=0&gh=48&gw=40"); res.StatusCode != 200 {
		t.Fatalf("prepare: %d %s", res.StatusCode, body)
	}
	st := getStats(t, ts)
	if grids(st.Memory) != "48x40 " || st.Memory.Evicted != 1 || st.Cache.Budget != 0 || st.Cache.Entries != 0 {
		t.Errorf("tight budget: levels %s, %d evicted, tile cache %+v", grids(st.Memory), st.Memory.Evicted, st.Cache)
	}
}

// Once the scene is encoded, the model's spectrum at a power-of-two
// factor comes at once from a window of the encoding, equal to the whole
// output at every pixel tested, with no level prepared; at another factor
// it is pending until the level is prepared (Spectrum prepares it), then
// comes from the level.
func TestSpectrumLocal(t *testing.T) {
	c := synth(60, 70, 8, 0.4)
	sc := NewScene("a", c, model.Default)
	if _, err := sc.encoded(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, z := range []int{2, 4, 3} {
		gh, gw := 60*z, 70*z
		o, err := sc.enc.Output(gh, gw)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := o.Render()
		if err != nil {
			t.Fatal(err)
		}
		for k, px := range [][2]int{{0, 0}, {gh - 1, gw - 1}, {gh / 2, gw / 3}, {5, gw - 7}, {3 * z, 2*z + 1}, {gh - 30, 40}} {
			y, x := px[0], px[1]
			sp, err := sc.SpectrumNow(gh, gw, y, x)
			if err != nil {
				t.Fatal(err)
			}
			if z == 3 && k == 0 { // then prepared
				if !sp.Pending || sp.OmniHSR != nil {
					t.Errorf("factor 3 (%d, %d): pending %v, spectrum %v", y, x, sp.Pending, sp.OmniHSR)
				}
				if sp, err = sc.Spectrum(gh, gw, y, x); err != nil {
					t.Fatal(err)
				}
			}
			for b, w := range whole.Spectrum(y, x) {
				g := sp.OmniHSR[b]
				if sc.IsNoData(w) || c.Meta.BadBands[b] {
					if g != nil {
						t.Errorf("factor %d (%d, %d) band %d: %v, want none", z, y, x, b, *g)
					}
					continue
				}
				if g == nil {
					t.Errorf("factor %d (%d, %d) band %d: none, want %v", z, y, x, b, w)
				} else if *g != float64(w) {
					t.Errorf("factor %d (%d, %d) band %d: %v, want %v", z, y, x, b, *g, w)
				}
			}
		}
		if want := map[int]int{2: 0, 4: 0, 3: 1}[z]; len(sc.mem.Stats().Prepared) != want {
			t.Errorf("factor %d: %d levels prepared, want %d", z, len(sc.mem.Stats().Prepared), want)
		}
	}
}
