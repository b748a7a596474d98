package train

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
)

// byteCube is an image whose values are all integers in [0, 255] (an 8-bit
// photograph), kept as one byte per value with the normalisation factor
// 1/max: a quarter of the memory of the float32 cube. crop returns exactly
// the values hsi.Cube.NormalizeMax would have given (float32(code) * inv).
type byteCube struct {
	H, W, B int
	codes   []uint8
	inv     float32
}

// compact returns c as a byteCube when every value is an integer in
// [0, 255], and nil otherwise. c must not be normalised yet.
func compact(c *hsi.Cube) *byteCube {
	var mx float32
	for _, v := range c.Data {
		if !(v >= 0 && v <= 255) || v != float32(uint8(v)) {
			return nil
		}
		mx = max(mx, v)
	}
	bc := &byteCube{H: c.H, W: c.W, B: c.B, codes: make([]uint8, len(c.Data)), inv: 1}
	if mx > 0 {
		bc.inv = 1 / mx
	}
	for i, v := range c.Data {
		bc.codes[i] = uint8(v)
	}
	return bc
}

// crop returns the normalised float32 values of an h x w window at (y0, x0).
func (bc *byteCube) crop(y0, x0, h, w int) (*hsi.Cube, error) {
	if y0 < 0 || x0 < 0 || h <= 0 || w <= 0 || y0+h > bc.H || x0+w > bc.W {
		return nil, fmt.Errorf("train: crop %dx%d at (%d,%d) outside a %dx%d image", h, w, y0, x0, bc.H, bc.W)
	}
	out, err := hsi.New(h, w, bc.B)
	if err != nil {
		return nil, err
	}
	n := w * bc.B
	for y := 0; y < h; y++ {
		src := bc.codes[((y0+y)*bc.W+x0)*bc.B:][:n]
		dst := out.Data[y*n : (y+1)*n]
		for i, v := range src {
			dst[i] = float32(v) * bc.inv
		}
	}
	return out, nil
}

// newImage normalises c by its maximum (docs/CONVENTIONS.md section 6) and keeps it in
// the compact form when it is an 8-bit image.
func newImage(name string, c *hsi.Cube, isHSI bool, trainRows int) *Image {
	im := &Image{Name: name, HSI: isHSI, TrainRows: trainRows}
	if bc := compact(c); bc != nil {
		im.bytes = bc
		return im
	}
	c.NormalizeMax()
	c.Meta = hsi.Meta{}
	im.Cube = c
	return im
}

// Size is the image's height, width and band count.
func (im *Image) Size() (h, w, b int) {
	if im.bytes != nil {
		return im.bytes.H, im.bytes.W, im.bytes.B
	}
	return im.Cube.H, im.Cube.W, im.Cube.B
}

// Crop returns the normalised values of an h x w window at (y0, x0).
func (im *Image) Crop(y0, x0, h, w int) (*hsi.Cube, error) {
	if im.bytes != nil {
		return im.bytes.crop(y0, x0, h, w)
	}
	return im.Cube.Crop(y0, x0, h, w)
}
