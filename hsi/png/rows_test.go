package png

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// RowReader gives Read's cube, metadata and description on every PNG it
// streams (the committed goldens and random images of each colour type and
// depth with every filter the encoder picks), in ranges of rows read
// forwards, skipping, and backwards; the other kinds are ErrNotStreamed.
func TestRowReaderMatchesRead(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.png")
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	for i, img := range []image.Image{image.NewGray(image.Rect(0, 0, 37, 23)), image.NewGray16(image.Rect(0, 0, 5, 41)),
		image.NewRGBA(image.Rect(0, 0, 29, 17)), image.NewNRGBA(image.Rect(0, 0, 31, 19)), image.NewNRGBA64(image.Rect(0, 0, 13, 11)),
		image.NewRGBA64(image.Rect(0, 0, 17, 9))} {
		b := img.Bounds()
		for y := range b.Dy() {
			for x := range b.Dx() {
				// smooth with noise, so that the encoder uses every filter
				v := uint16(x*900 + y*700 + r.IntN(3000))
				switch m := img.(type) {
				case *image.Gray:
					m.SetGray(x, y, color.Gray{uint8(v >> 8)})
				case *image.Gray16:
					m.SetGray16(x, y, color.Gray16{v})
				case *image.RGBA:
					m.SetRGBA(x, y, color.RGBA{uint8(v >> 8), uint8(v), uint8(x), 255})
				case *image.NRGBA:
					m.SetNRGBA(x, y, color.NRGBA{uint8(v >> 8), uint8(v), uint8(y), uint8(r.IntN(256))})
				case *image.NRGBA64:
					m.SetNRGBA64(x, y, color.NRGBA64{v, v / 3, uint16(r.IntN(65536)), uint16(r.IntN(65536))})
				case *image.RGBA64:
					m.SetRGBA64(x, y, color.RGBA64{v, v / 2, v / 5, 65535})
				}
			}
		}
		p := filepath.Join(dir, "r"+string(rune('a'+i))+".png")
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	streamed := 0
	for _, p := range paths {
		want, info, err := Read(p, hsi.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		rr, err := OpenRows(p)
		if errors.Is(err, ErrNotStreamed) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		streamed++
		if rr.H != want.H || rr.W != want.W || rr.B != want.B || !reflect.DeepEqual(rr.Meta, want.Meta) || rr.Info != info {
			t.Errorf("%s: %dx%dx%d %+v %+v, Read gives %dx%dx%d %+v %+v", p, rr.H, rr.W, rr.B, rr.Meta, rr.Info, want.H, want.W, want.B, want.Meta, info)
		}
		row := rr.W * rr.B
		got := make([]float32, len(want.Data))
		for _, rg := range [][2]int{{0, rr.H}, {1, 3}, {rr.H - 1, rr.H}, {0, 1}, {2, rr.H}} {
			y0, y1 := rg[0], min(rg[1], rr.H)
			if y0 >= y1 {
				continue
			}
			if err := rr.ReadRows(y0, y1, got[y0*row:y1*row]); err != nil {
				t.Fatalf("%s: rows %d..%d: %v", p, y0, y1, err)
			}
			if !slices.Equal(got[y0*row:y1*row], want.Data[y0*row:y1*row]) {
				t.Fatalf("%s: rows %d..%d differ from Read's", p, y0, y1)
			}
		}
		rr.Close()
	}
	if streamed < 8 {
		t.Fatalf("only %d PNGs streamed", streamed)
	}
}

// A cut or corrupted PNG is an error naming the file, never a crash.
func TestRowReaderBadInput(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	dir := t.TempDir()
	flip := slices.Clone(good)
	flip[len(flip)-30] ^= 0x55 // inside the image data: a checksum fails
	for name, b := range map[string][]byte{"cut": good[:len(good)-40], "flipped": flip, "no data": good[:33]} {
		p := filepath.Join(dir, name+".png")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		rr, err := OpenRows(p)
		if err == nil {
			err = rr.ReadRows(0, rr.H, make([]float32, rr.H*rr.W*rr.B))
			rr.Close()
		}
		if err == nil {
			t.Errorf("%s: no error", name)
		} else if !bytes.Contains([]byte(err.Error()), []byte(p)) {
			t.Errorf("%s: error %q does not name the file", name, err)
		}
	}
}

// A small PNG that declares 3000 x 30000 pixels (a decompression bomb of
// 90 KB; 30000 x 30000, 0.9 MB, with OMNIHSR_BIG=1) is read row by row
// holding two rows of the file: reading every row allocates under 16 MiB
// in all (Read's decode would take 90 MB for the image and 360 MB for the
// cube; 0.9 and 3.6 GB at 30000 x 30000).
func TestRowReaderBomb(t *testing.T) {
	h := 3000
	if os.Getenv("OMNIHSR_BIG") == "1" {
		h = 30000
	}
	p := filepath.Join(t.TempDir(), "bomb.png")
	if err := testrand.WritePNGBomb(p, h, 30000); err != nil {
		t.Fatal(err)
	}
	rr, err := OpenRows(p)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	dst := make([]float32, 64*rr.W*rr.B)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for y := 0; y < rr.H; y += 64 {
		y1 := min(y+64, rr.H)
		if err := rr.ReadRows(y, y1, dst[:(y1-y)*rr.W*rr.B]); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if a := after.TotalAlloc - before.TotalAlloc; a > 16<<20 {
		t.Fatalf("reading the 30000 x 30000 image row by row allocated %d MiB", a>>20)
	}
}
