package png

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

var signature = []byte("\x89PNG\r\n\x1a\n")

// ihdr holds the fields of a PNG header chunk.
type ihdr struct {
	w, h       uint32
	depth      uint8
	colourType uint8
}

func readIHDR(b []byte) (ihdr, error) {
	if len(b) < 33 || !bytes.Equal(b[:8], signature) {
		return ihdr{}, errNotPNG
	}
	if string(b[12:16]) != "IHDR" {
		return ihdr{}, fmt.Errorf("%w: the first chunk is not IHDR", errNotPNG)
	}
	return ihdr{w: binary.BigEndian.Uint32(b[16:]), h: binary.BigEndian.Uint32(b[20:]), depth: b[24], colourType: b[25]}, nil
}

var colourNames = map[uint8]string{0: "grey", 2: "RGB", 3: "palette", 4: "grey+alpha", 6: "RGBA"}

// Read reads a PNG image as a cube of 1 (grey) or 3 (RGB) bands. See the
// package documentation.
func Read(path string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, hsi.SourceInfo{}, fmt.Errorf("png: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, hsi.SourceInfo{}, fmt.Errorf("png: %w", err)
	}
	if st.IsDir() {
		return nil, hsi.SourceInfo{}, fmt.Errorf("png: %s is a directory", path)
	}
	c, info, err := decode(f, st.Size())
	if err != nil {
		return nil, info, fmt.Errorf("png: %s: %w", path, err)
	}
	return c, info, nil
}

// decode reads a PNG of size bytes from r.
func decode(r io.ReadSeeker, size int64) (*hsi.Cube, hsi.SourceInfo, error) {
	var info hsi.SourceInfo
	head := make([]byte, 33)
	n, _ := io.ReadFull(r, head)
	hd, err := readIHDR(head[:n])
	if err != nil {
		return nil, info, err
	}
	if hd.w == 0 || hd.h == 0 {
		return nil, info, fmt.Errorf("image of %dx%d pixels has no data (%w)", hd.w, hd.h, hsi.ErrEmpty)
	}
	// Deflate cannot compress better than about 1032:1, and a pixel takes
	// at least one bit: a larger claim is a corrupt or hostile file.
	pixels := uint64(hd.w) * uint64(hd.h)
	if pixels > 8*1040*uint64(size)+1<<16 {
		return nil, info, fmt.Errorf("the header claims %dx%d pixels, impossible for a file of %d bytes", hd.w, hd.h, size)
	}
	// Decoded image (up to 8 bytes a pixel) plus the float32 cube (3 bands).
	if err := memlimit.Check(pixels*(8+12), fmt.Sprintf("a %dx%d image", hd.w, hd.h)); err != nil {
		return nil, info, err
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, info, err
	}
	img, err := png.Decode(r)
	if err != nil {
		return nil, info, err
	}
	info = hsi.SourceInfo{Format: "PNG", DataType: "uint8", Layout: colourNames[hd.colourType],
		Detail: fmt.Sprintf("colour type %d (%s), bit depth %d", hd.colourType, colourNames[hd.colourType], hd.depth)}
	if hd.colourType == 4 || hd.colourType == 6 {
		info.Detail += "; alpha dropped"
	}
	b := img.Bounds()
	H, W := b.Dy(), b.Dx()
	grey := hd.colourType == 0 || hd.colourType == 4
	if p, ok := img.(*image.Paletted); ok {
		grey = true
		for _, col := range p.Palette {
			r, g, bl, _ := col.RGBA()
			grey = grey && r == g && g == bl
		}
	}
	bands := 3
	if grey {
		bands = 1
	}
	c, err := raw.NewCube(H, W, bands)
	if err != nil {
		return nil, info, err
	}
	if bands == 3 {
		c.Meta.BandNames = []string{"red", "green", "blue"}
	}
	info.Layout += fmt.Sprintf(", %d band(s)", bands)
	set := func(y, x int, v [3]float32) {
		i := (y*W + x) * bands
		copy(c.Data[i:i+bands], v[:bands])
	}
	switch m := img.(type) {
	case *image.Gray:
		for y := 0; y < H; y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+W]
			for x, v := range row {
				c.Data[y*W+x] = float32(v)
			}
		}
	case *image.Gray16:
		info.DataType = "uint16"
		for y := 0; y < H; y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+2*W]
			for x := 0; x < W; x++ {
				c.Data[y*W+x] = float32(binary.BigEndian.Uint16(row[2*x:]))
			}
		}
	case *image.RGBA: // opaque truecolour: premultiplied equals straight
		eight(m.Pix, m.Stride, H, W, set)
	case *image.NRGBA:
		eight(m.Pix, m.Stride, H, W, set)
	case *image.RGBA64:
		info.DataType = "uint16"
		sixteen(m.Pix, m.Stride, H, W, set)
	case *image.NRGBA64:
		info.DataType = "uint16"
		sixteen(m.Pix, m.Stride, H, W, set)
	case *image.Paletted:
		// image/png stores palette entries as color.RGBA (opaque) or
		// color.NRGBA (with tRNS): the stored 8-bit values either way.
		pal := make([][3]float32, len(m.Palette))
		for i, col := range m.Palette {
			n := color.NRGBAModel.Convert(col).(color.NRGBA)
			switch e := col.(type) {
			case color.RGBA:
				n = color.NRGBA{e.R, e.G, e.B, e.A}
			case color.NRGBA:
				n = e
			}
			pal[i] = [3]float32{float32(n.R), float32(n.G), float32(n.B)}
		}
		for y := 0; y < H; y++ {
			for x := 0; x < W; x++ {
				if k := int(m.Pix[y*m.Stride+x]); k < len(pal) {
					set(y, x, pal[k])
				}
			}
		}
	default:
		return nil, info, fmt.Errorf("unsupported decoded image type %T", img)
	}
	return c, info, nil
}

func eight(pix []uint8, stride, H, W int, set func(y, x int, v [3]float32)) {
	for y := 0; y < H; y++ {
		row := pix[y*stride:]
		for x := 0; x < W; x++ {
			set(y, x, [3]float32{float32(row[4*x]), float32(row[4*x+1]), float32(row[4*x+2])})
		}
	}
}

func sixteen(pix []uint8, stride, H, W int, set func(y, x int, v [3]float32)) {
	for y := 0; y < H; y++ {
		row := pix[y*stride:]
		for x := 0; x < W; x++ {
			set(y, x, [3]float32{
				float32(binary.BigEndian.Uint16(row[8*x:])),
				float32(binary.BigEndian.Uint16(row[8*x+2:])),
				float32(binary.BigEndian.Uint16(row[8*x+4:]))})
		}
	}
}
