package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/resample"
)

// utm sets an ENVI map info in WGS 84 UTM zone 33 or 34 North: upper-left
// corner (e, n), square pixels of size px metres.
func utm(c *hsi.Cube, zone int, e, n, px float64) *hsi.Cube {
	c.Meta.Geo = &hsi.Geo{MapInfo: fmt.Sprintf("UTM, 1, 1, %g, %g, %g, %g, %d, North, WGS-84", e, n, px, px, zone)}
	return c
}

// alignScenes writes scene a (ENVI, 30 m) and b (GeoTIFF, 20 m, its
// corner 45 m east and 30 m south of a's) of the same area, c (b in
// another UTM zone) and d (no georeferencing), and serves them.
func alignScenes(t *testing.T) (*Server, string) {
	t.Helper()
	dir := t.TempDir()
	a := utm(synth(12, 10, 8, 0), 33, 500000, 4200000, 30)
	b := utm(synth(20, 16, 8, 0.7), 33, 500045, 4199970, 20)
	c := utm(synth(20, 16, 8, 0.7), 34, 500045, 4199970, 20)
	d := synth(20, 16, 8, 0.7)
	var scenes []*Scene
	for i, f := range []struct {
		name string
		c    *hsi.Cube
	}{{"a.hdr", a}, {"b.tif", b}, {"c.hdr", c}, {"d.hdr", d}} {
		p := dir + "/" + f.name
		if err := formats.Write(p, f.c, hsi.WriteOptions{}); err != nil {
			t.Fatalf("scene %d: %v", i, err)
		}
		sc, err := Open(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		scenes = append(scenes, sc)
	}
	if _, ok := scenes[1].LR.Meta.Geo.Transform(); !ok {
		t.Fatal("the GeoTIFF scene read back without a geotransform")
	}
	s, ts := serveScenes(t, scenes)
	return s, ts.URL
}

// The second file is drawn on the first's grid at the same ground point:
// each grid pixel shows the pixel of the 20 m file holding its centre's
// map coordinates, nothing outside its footprint; files in another CRS or
// not georeferenced are aligned by scale, and the scene list says why.
func TestAlignMap(t *testing.T) {
	s, url := alignScenes(t)
	a, b := s.Scenes[0], s.Scenes[1]
	al := s.align[0][1]
	if al.Mode != AlignMap || !strings.Contains(al.Note, "UTM") {
		t.Fatalf("b on a: %+v, want aligned on the map", al)
	}
	for j, want := range map[int][]string{2: {"aligned by scale", "Zone_33N", "Zone_34N"}, 3: {"d.hdr is not georeferenced", "aligned by scale"}} {
		al := s.align[0][j]
		for _, w := range want {
			if al.Mode != AlignScale || !strings.Contains(al.Note, w) {
				t.Errorf("file %d on a: %+v, want by scale, a note with %q", j, al, w)
			}
		}
	}
	// Zoom 2 on a: grid pixels of 15 m.
	gh, gw := 24, 20
	bands := []int{5, 3, 0}
	got, err := b.MapWindow(al, a.LR.H, a.LR.W, Nearest, gh, gw, 0, 0, gh, gw, bands)
	if err != nil {
		t.Fatal(err)
	}
	inside := 0
	for u := range gh {
		for v := range gw {
			x, y := 500000+(float64(v)+0.5)*15, 4200000-(float64(u)+0.5)*15
			j, i := math.Floor((x-500045)/20), math.Floor((4199970-y)/20)
			for k, band := range bands {
				g := got[(u*gw+v)*3+k]
				if i < 0 || j < 0 || i >= 20 || j >= 16 {
					if g == g {
						t.Fatalf("grid (%d, %d), map (%g, %g) outside b: %v, want NaN", u, v, x, y, g)
					}
					continue
				}
				if want := b.LR.At(int(i), int(j), band); g != want && !(b.IsNoData(g) && b.IsNoData(want)) {
					t.Fatalf("grid (%d, %d), map (%g, %g): band %d = %v, want b's pixel (%g, %g) = %v", u, v, x, y, band, g, i, j, want)
				}
				inside++
			}
		}
	}
	if inside < gh*gw*3/2 {
		t.Errorf("%d of %d samples inside b's footprint", inside, gh*gw*3)
	}

	// The tile the page asks for shows the same pixels, stretched.
	var lo, k [3]float32
	for c, band := range bands {
		l, u := b.Stretch(band, 2, 98)
		lo[c], k[c] = l, 255/(u-l)
	}
	res, body := get(t, url+fmt.Sprintf("/api/tile?f=1&ref=0&m=lowres&gh=%d&gw=%d&x=0&y=0&w=%d&h=%d&b=5,3,0", gh, gw, gw, gh))
	if res.StatusCode != 200 {
		t.Fatalf("tile: %d %s", res.StatusCode, body)
	}
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][2]int{{0, 0}, {5, 7}, {12, 3}, {23, 19}, {20, 15}} {
		u, v := p[0], p[1]
		r, g, bl, alpha := img.At(v, u).RGBA()
		px := [3]uint32{r >> 8, g >> 8, bl >> 8}
		val := got[(u*gw+v)*3:][:3]
		if val[0] != val[0] || b.IsNoData(val[0]) {
			if alpha != 0 {
				t.Errorf("tile (%d, %d): alpha %d, want transparent", u, v, alpha>>8)
			}
			continue
		}
		for c := range 3 {
			if want := uint32(Level(val[c], lo[c], k[c])); px[c] != want {
				t.Errorf("tile (%d, %d) channel %d: %d, want %d", u, v, c, px[c], want)
			}
		}
	}

	// The scene list carries the alignments and their notes.
	_, body = get(t, url+"/api/scenes")
	var d struct{ Scenes []SceneInfo }
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatal(err)
	}
	if n := len(d.Scenes[0].Align); n != 3 || d.Scenes[0].Align[0].Mode != AlignMap || d.Scenes[0].Align[2].Mode != AlignScale {
		t.Errorf("scene 0 alignments: %+v", d.Scenes[0].Align)
	}
	res, body = get(t, url+"/api/tile?f=1&ref=7&m=lowres&gh=24&gw=20&x=0&y=0&w=4&h=4")
	if res.StatusCode != 404 {
		t.Errorf("ref=7: status %d (%s), want 404", res.StatusCode, body)
	}
}

// On the map, bicubic interpolation of a file at a point agrees with the
// bicubic upsampling of that file where its grid coincides with the
// reference's, no-data included.
func TestAlignMapBicubic(t *testing.T) {
	a := utm(synth(12, 10, 8, 0), 33, 500000, 4200000, 30)
	e := utm(synth(12, 10, 8, 2.1), 33, 500000, 4200000, 30)
	ra, re := NewScene("a", a, nil), NewScene("e", e, nil)
	al := Align(0, ra, 1, re)
	if al.Mode != AlignMap {
		t.Fatalf("%+v", al)
	}
	gh, gw := 48, 40
	want, err := hsi.KeepNoData(e, func(f *hsi.Cube) (*hsi.Cube, error) { return resample.Upsample(f, gh, gw) })
	if err != nil {
		t.Fatal(err)
	}
	bands := []int{7, 2, 4}
	got, err := re.MapWindow(al, 12, 10, Bicubic, gh, gw, 3, 5, 30, 20, bands)
	if err != nil {
		t.Fatal(err)
	}
	for u := range 30 {
		for v := range 20 {
			for k, band := range bands {
				g, w := got[(u*20+v)*3+k], want.At(3+u, 5+v, band)
				if re.IsNoData(w) || re.IsNoData(g) {
					if !re.IsNoData(w) || !re.IsNoData(g) {
						t.Fatalf("(%d, %d) band %d: %v, want %v", 3+u, 5+v, band, g, w)
					}
					continue
				}
				if math.Abs(float64(g-w)) > 1e-5 {
					t.Fatalf("(%d, %d) band %d: %v, want %v", 3+u, 5+v, band, g, w)
				}
			}
		}
	}
	if _, err := re.MapWindow(al, 12, 10, OmniHSR, gh, gw, 0, 0, 1, 1, bands); err == nil {
		t.Error("the model on a file aligned on the map accepted")
	}
}
