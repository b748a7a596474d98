package train

import (
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// An 8-bit image is held as bytes and crops to exactly the values the
// float32 path (NormalizeMax, then Crop) gives; other images stay float32.
func TestImageStore(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	byteImage := func(h, w, b int, top uint8) *hsi.Cube {
		c := hsi.MustNew(h, w, b)
		for i := range c.Data {
			c.Data[i] = float32(r.IntN(int(top) + 1))
		}
		return c
	}
	for _, tc := range []struct {
		name    string
		cube    func() *hsi.Cube
		compact bool
	}{
		{"rgb 0..255", func() *hsi.Cube { return byteImage(17, 23, 3, 255) }, true},
		{"grey 0..200", func() *hsi.Cube { return byteImage(9, 31, 1, 200) }, true},
		{"all zero", func() *hsi.Cube { return hsi.MustNew(5, 6, 3) }, true},
		{"16-bit", func() *hsi.Cube { c := byteImage(8, 8, 3, 255); c.Data[5] = 256; return c }, false},
		{"fraction", func() *hsi.Cube { c := byteImage(8, 8, 3, 255); c.Data[7] = 0.5; return c }, false},
		{"negative", func() *hsi.Cube { c := byteImage(8, 8, 3, 255); c.Data[2] = -1; return c }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.cube()
			ref := c.Clone()
			ref.NormalizeMax()
			im := newImage("x", c, false, c.H)
			if got := im.bytes != nil; got != tc.compact {
				t.Fatalf("compact = %v, want %v", got, tc.compact)
			}
			if h, w, b := im.Size(); h != ref.H || w != ref.W || b != ref.B {
				t.Fatalf("size %dx%dx%d, want %dx%dx%d", h, w, b, ref.H, ref.W, ref.B)
			}
			for _, win := range [][4]int{{0, 0, ref.H, ref.W}, {1, 2, 3, 4}, {ref.H - 2, ref.W - 3, 2, 3}} {
				got, err := im.Crop(win[0], win[1], win[2], win[3])
				if err != nil {
					t.Fatal(err)
				}
				want, _ := ref.Crop(win[0], win[1], win[2], win[3])
				for i := range want.Data {
					if got.Data[i] != want.Data[i] {
						t.Fatalf("crop %v value %d: %v, want %v", win, i, got.Data[i], want.Data[i])
					}
				}
			}
			if _, err := im.Crop(ref.H-1, 0, 2, 1); err == nil {
				t.Error("crop past the bottom: no error")
			}
		})
	}
}
