package view

import (
	"context"
	"fmt"

	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/model"
)

// benchScene returns an h x w x b scene with a cheap smooth pattern.
func benchScene(h, w, b int) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p := c.Data[(y*w+x)*b:][:b]
			base := float32((x*7+y*13)%97) / 97
			for k := range p {
				p[k] = base + float32(k%17)/40
			}
		}
	}
	return c
}

// BenchmarkFirstView renders the first screen of an EMIT-sized scene
// (1242 x 1280 x 285) once it is in memory: the stretch percentiles of
// three bands and every 256 x 256 tile of the 1:1 grid (the page shows
// them scaled down), PNG-encoded.
func BenchmarkFirstView(b *testing.B) {
	c := benchScene(1242, 1280, 285)
	s := NewServer(nil, "127.0.0.1:0", 0, DefaultMemory)
	b.ResetTimer()
	for b.Loop() {
		sc := NewScene("emit", c, nil)
		bands := sc.DefaultBands()
		for y := 0; y < c.H; y += 256 {
			for x := 0; x < c.W; x += 256 {
				if _, err := s.renderPNG(context.Background(), sc, sc.WindowContext, Nearest, c.H, c.W, y, x, min(256, c.H-y), min(256, c.W-x), bands, 2, 98); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkTileZoom4 renders a 256 x 256 screen tile of a 256 x 256 x 64
// scene at zoom 4 with the model (encoding and the zoom level's output
// prepared, as after the first tile of a zoom level), PNG-encoded.
func BenchmarkTileZoom4(b *testing.B) {
	sc := NewScene("bench", benchScene(256, 256, 64), model.Default)
	s := NewServer(nil, "127.0.0.1:0", 0, DefaultMemory)
	bands := sc.DefaultBands()
	if _, err := s.renderPNG(context.Background(), sc, sc.WindowContext, OmniHSR, 1024, 1024, 0, 0, 1, 1, bands, 2, 98); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.renderPNG(context.Background(), sc, sc.WindowContext, OmniHSR, 1024, 1024, 512, 256, 256, 256, bands, 2, 98); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSpectrum computes the low-res, bicubic and OmniHSR spectra of
// one pixel of a 256 x 256 x 64 scene at zoom 4, the scene encoded:
// "window" with the zoom level not prepared (the model's spectrum from a
// window of the encoding), "level" from the prepared level, and
// "prepare" the level prepared and then the spectrum taken (a new scene
// each time over the same encoding: what the model's spectrum waited for
// when only a prepared level gave it).
func BenchmarkSpectrum(b *testing.B) {
	sc := NewScene("bench", benchScene(256, 256, 64), model.Default)
	if _, err := sc.encoded(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Run("window", func(b *testing.B) {
		for b.Loop() {
			if sp, err := sc.SpectrumNow(1024, 1024, 600, 300); err != nil || sp.Pending {
				b.Fatal(err, sp.Pending)
			}
		}
	})
	b.Run("prepare", func(b *testing.B) {
		for b.Loop() {
			s2 := &Scene{Name: "bench", LR: sc.LR, nodata: sc.nodata, enc: sc.enc, samples: map[int][]float32{}, mem: NewMemory(DefaultMemory, NewCache(0))}
			s2.encDone.Store(true)
			if _, err := s2.Prepare(1024, 1024); err != nil {
				b.Fatal(err)
			}
			if _, err := s2.Spectrum(1024, 1024, 600, 300); err != nil {
				b.Fatal(err)
			}
		}
	})
	if _, err := sc.Prepare(1024, 1024); err != nil {
		b.Fatal(err)
	}
	b.Run("level", func(b *testing.B) {
		for b.Loop() {
			if _, err := sc.Spectrum(1024, 1024, 600, 300); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFirstSpectrum computes the first spectrum of an EMIT-sized
// scene (1242 x 1280 x 285) at zoom 8, on a scene just opened: "now" is
// what the page gets at once (low-res and bicubic, the model's pending:
// SpectrumNow), "filled" the bicubic spectrum through the scene filled
// and checked whole (two passes over the cube), the way a pixel next to
// no-data takes.
func BenchmarkFirstSpectrum(b *testing.B) {
	c := benchScene(1242, 1280, 285)
	gh, gw := 8*c.H, 8*c.W
	all := make([]int, c.B)
	for k := range all {
		all[k] = k
	}
	b.Run("now", func(b *testing.B) {
		for b.Loop() {
			sc := NewScene("emit", c, model.Default)
			sp, err := sc.SpectrumNow(gh, gw, gh/2+3, gw/3+5)
			if err != nil || !sp.Pending || sp.Bicubic[7] == nil {
				b.Fatal(err, sp.Pending)
			}
		}
	})
	b.Run("filled", func(b *testing.B) {
		for b.Loop() {
			sc := NewScene("emit", c, model.Default)
			if _, err := sc.Window(Bicubic, gh, gw, gh/2+3, gw/3+5, 1, 1, all); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTileBicubic renders a 256 x 256 bicubic tile (three bands, the
// band choice prepared, as after the first tile) of a scene of EMIT's
// size (1242 x 1280, 32 bands: a tile reads only the three bands it
// shows) at zoom 4 and 16, PNG-encoded ("window"), beside the bicubic
// rows of the tile rendered whole across the grid's width and cut
// ("rows", no PNG): the cost a window saves.
func BenchmarkTileBicubic(b *testing.B) {
	sc := NewScene("bench", benchScene(1242, 1280, 32), nil)
	s := NewServer(nil, "127.0.0.1:0", 0, DefaultMemory)
	bands := sc.DefaultBands()
	for _, z := range []int{4, 16} {
		gh, gw := 1242*z, 1280*z
		y0, x0 := gh/2, gw/2
		if _, err := s.renderPNG(context.Background(), sc, sc.WindowContext, Bicubic, gh, gw, 0, 0, 1, 1, bands, 2, 98); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("window/zoom%d", z), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.renderPNG(context.Background(), sc, sc.WindowContext, Bicubic, gh, gw, y0, x0, 256, 256, bands, 2, 98); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("rows/zoom%d", z), func(b *testing.B) {
			us, _, err := sc.bicubic(bands, gh, gw)
			if err != nil {
				b.Fatal(err)
			}
			rows := make([]float32, 256*gw*3)
			out := make([]float32, 256*256*3)
			for b.Loop() {
				if err := us.RenderRows(y0, y0+256, rows); err != nil {
					b.Fatal(err)
				}
				for u := range 256 {
					copy(out[u*256*3:(u+1)*256*3], rows[(u*gw+x0)*3:])
				}
			}
		})
	}
}
