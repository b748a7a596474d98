package png

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

type golden struct {
	Images []struct {
		File   string    `json:"file"`
		Shape  [3]int    `json:"shape"`
		DType  string    `json:"dtype"`
		Values []float32 `json:"values"`
	} `json:"images"`
	Preview struct {
		Shape       [3]int    `json:"shape"`
		Values      []float32 `json:"values"`
		Wavelengths []float64 `json:"wavelengths"`
		Ignore      float64   `json:"ignore"`
		Bands       []int     `json:"bands"`
		RGB         []uint8   `json:"rgb"`
	} `json:"preview"`
}

func loadGolden(t *testing.T) golden {
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestReadGoldens reads PNGs written by PIL and by a hand-made encoder.
func TestReadGoldens(t *testing.T) {
	g := loadGolden(t)
	if len(g.Images) != 9 {
		t.Fatalf("%d golden images", len(g.Images))
	}
	for _, im := range g.Images {
		t.Run(im.File, func(t *testing.T) {
			c, info, err := Read(filepath.Join("testdata", im.File), hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c.H != im.Shape[0] || c.W != im.Shape[1] || c.B != im.Shape[2] {
				t.Fatalf("shape %dx%dx%d, want %v", c.H, c.W, c.B, im.Shape)
			}
			if info.DataType != im.DType || info.Format != "PNG" {
				t.Errorf("info %+v, want %s", info, im.DType)
			}
			for i, v := range im.Values {
				if c.Data[i] != v {
					t.Fatalf("value %d = %v, want %v", i, c.Data[i], v)
				}
			}
			if c.B == 3 && strings.Join(c.Meta.BandNames, ",") != "red,green,blue" {
				t.Errorf("band names %v", c.Meta.BandNames)
			}
		})
	}
}

// TestPreviewGolden compares the preview with numpy's percentile stretch.
func TestPreviewGolden(t *testing.T) {
	g := loadGolden(t).Preview
	c := hsi.MustNew(g.Shape[0], g.Shape[1], g.Shape[2])
	copy(c.Data, g.Values)
	c.Meta.Wavelengths = g.Wavelengths
	c.Meta.WavelengthUnits = "Nanometers"
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = g.Ignore, true
	if got := ChooseBands(c); fmt.Sprint(got) != fmt.Sprint(g.Bands) {
		t.Fatalf("ChooseBands = %v, want %v", got, g.Bands)
	}
	p := filepath.Join(t.TempDir(), "p.png")
	if err := WritePreview(p, c, PreviewOptions{}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(p)
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != c.W || img.Bounds().Dy() != c.H {
		t.Fatalf("bounds %v", img.Bounds())
	}
	for y := 0; y < c.H; y++ {
		for x := 0; x < c.W; x++ {
			r, gg, b, a := img.At(x, y).RGBA()
			i := (y*c.W + x) * 3
			want := g.RGB[i : i+3]
			if uint8(r>>8) != want[0] || uint8(gg>>8) != want[1] || uint8(b>>8) != want[2] || a != 0xffff {
				t.Fatalf("pixel (%d,%d) = %d %d %d %d, want %v", y, x, r>>8, gg>>8, b>>8, a>>8, want)
			}
		}
	}
}

func cubeWith(b int, wl []float64, units string) *hsi.Cube {
	c := hsi.MustNew(2, 2, b)
	c.Meta.Wavelengths, c.Meta.WavelengthUnits = wl, units
	return c
}

func seq(n int, lo, step float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = lo + float64(i)*step
	}
	return v
}

func TestChooseBands(t *testing.T) {
	rgbNames := hsi.MustNew(1, 1, 3)
	rgbNames.Meta.BandNames = []string{"red", "green", "blue"}
	bad := cubeWith(31, seq(31, 400, 10), "Nanometers")
	bad.Meta.BadBands = make([]bool, 31)
	bad.Meta.BadBands[25] = true // 650 nm
	for _, tc := range []struct {
		name string
		c    *hsi.Cube
		want []int
	}{
		{"CAVE 31 bands 400-700 nm", cubeWith(31, seq(31, 400, 10), "Nanometers"), []int{25, 15, 5}},
		{"micrometers", cubeWith(31, seq(31, 0.4, 0.01), "Micrometers"), []int{25, 15, 5}},
		{"unitless micrometers", cubeWith(31, seq(31, 0.4, 0.01), ""), []int{25, 15, 5}},
		{"AVIRIS 224 bands", cubeWith(224, seq(224, 400, 9.6), "nm"), []int{26, 16, 5}},
		{"SWIR only: spread", cubeWith(101, seq(101, 1000, 15), "Nanometers"), []int{80, 50, 20}},
		{"bad band avoided", bad, []int{24, 15, 5}},
		{"no wavelengths", hsi.MustNew(1, 1, 11), []int{8, 5, 2}},
		{"wavenumbers: by index", cubeWith(11, seq(11, 1000, 100), "cm-1"), []int{8, 5, 2}},
		{"rgb names", rgbNames, []int{0, 1, 2}},
		{"3 bands by index", hsi.MustNew(1, 1, 3), []int{2, 1, 0}},
		{"2 bands: grey", hsi.MustNew(1, 1, 2), []int{0}},
		{"1 band", hsi.MustNew(1, 1, 1), []int{0}},
	} {
		if got := ChooseBands(tc.c); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPreviewGreyAndOptions(t *testing.T) {
	c := hsi.MustNew(4, 5, 2)
	for i := range c.Data {
		c.Data[i] = float32(i)
	}
	img, err := Preview(c, PreviewOptions{Low: 0, High: 100})
	if err != nil {
		t.Fatal(err)
	}
	gimg, ok := img.(*image.Gray)
	if !ok {
		t.Fatalf("2-band preview is %T, want *image.Gray", img)
	}
	// Band 0 holds 0, 2, ..., 38: 0..100% maps it to 0..255 exactly.
	if gimg.Pix[0] != 0 || gimg.Pix[len(gimg.Pix)-1] != 255 {
		t.Fatalf("grey ends %d %d", gimg.Pix[0], gimg.Pix[len(gimg.Pix)-1])
	}
	// Explicit single band 1.
	if img, err = Preview(c, PreviewOptions{Bands: []int{1}, Low: 10, High: 90}); err != nil || img.(*image.Gray).Pix[0] != 0 {
		t.Fatal(err)
	}
	for _, bad := range []PreviewOptions{{Bands: []int{0, 1}}, {Bands: []int{5}}, {Low: 50, High: 40}, {Low: -1, High: 50}, {High: 101}} {
		if _, err := Preview(c, bad); err == nil {
			t.Errorf("options %+v accepted", bad)
		}
	}
	// A constant band: no division by zero.
	flat := hsi.MustNew(3, 3, 3)
	if _, err := Preview(flat, PreviewOptions{}); err != nil {
		t.Fatal(err)
	}
	// NaN pixels are black and do not disturb the stretch.
	c.Data[2] = float32(math.NaN())
	if img, err = Preview(c, PreviewOptions{Low: 0, High: 100}); err != nil || img.(*image.Gray).Pix[1] != 0 {
		t.Fatalf("%v", err)
	}
}

func TestWriteNoPartialFile(t *testing.T) {
	dir := t.TempDir()
	if err := WritePreview(filepath.Join(dir, "x.png"), hsi.MustNew(2, 2, 3), PreviewOptions{Bands: []int{7, 0, 0}}); err == nil {
		t.Fatal("band 7 of 3 accepted")
	}
	if err := Write(filepath.Join(dir, "y.png"), hsi.MustNew(2, 2, 3), hsi.WriteOptions{DataType: sample.Float32}); err == nil {
		t.Fatal("float32 PNG accepted")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left %v", ents)
	}
}

// TestRoundTripThroughImagePNG writes 8 and 16-bit images with image/png
// and reads them back exactly.
func TestRoundTripThroughImagePNG(t *testing.T) {
	dir := t.TempDir()
	g16 := image.NewGray16(image.Rect(0, 0, 5, 3))
	n16 := image.NewNRGBA64(image.Rect(0, 0, 5, 3))
	for y := 0; y < 3; y++ {
		for x := 0; x < 5; x++ {
			g16.SetGray16(x, y, color.Gray16{Y: uint16(y*5000 + x*7)})
			n16.SetNRGBA64(x, y, color.NRGBA64{R: uint16(x * 13000), G: uint16(y * 3), B: 65535, A: uint16(x * 100)})
		}
	}
	for name, img := range map[string]image.Image{"g16.png": g16, "n16.png": n16} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, buf.Bytes(), 0o644)
		c, info, err := Read(p, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if info.DataType != "uint16" {
			t.Errorf("%s: %+v", name, info)
		}
		for y := 0; y < 3; y++ {
			for x := 0; x < 5; x++ {
				switch m := img.(type) {
				case *image.Gray16:
					if c.At(y, x, 0) != float32(m.Gray16At(x, y).Y) {
						t.Fatalf("%s (%d,%d) = %v", name, y, x, c.At(y, x, 0))
					}
				case *image.NRGBA64:
					v := m.NRGBA64At(x, y)
					if v.A == 0 {
						continue // image/png may store fully transparent pixels as zero
					}
					if c.At(y, x, 0) != float32(v.R) || c.At(y, x, 1) != float32(v.G) || c.At(y, x, 2) != float32(v.B) {
						t.Fatalf("%s (%d,%d) = %v, want %v", name, y, x, c.Spectrum(y, x), v)
					}
				}
			}
		}
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	good, _ := os.ReadFile("testdata/rgb8.png")
	huge := append([]byte(nil), good...)
	copy(huge[16:], []byte{0, 1, 0, 0, 0, 1, 0, 0}) // 65536 x 65536
	for name, data := range map[string][]byte{
		"empty.png":     nil,
		"text.png":      []byte("not a png at all, just some text here..."),
		"truncated.png": good[:len(good)/2],
		"huge.png":      huge,
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		_, _, err := Read(p, hsi.ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err = %v", name, err)
		}
		if name == "huge.png" && !strings.Contains(err.Error(), "impossible") {
			t.Errorf("huge: %v", err)
		}
	}
}

// FuzzRead decodes arbitrary bytes; it must never panic or allocate
// beyond what the file size allows.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.png")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, _, err := decode(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			if c != nil {
				t.Fatal("cube with error")
			}
			return
		}
		if c.B != 1 && c.B != 3 {
			t.Fatalf("%d bands", c.B)
		}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
	})
}

func BenchmarkPreview(b *testing.B) {
	for _, sz := range []struct {
		name    string
		h, w, c int
	}{{"Small", 64, 64, 31}, {"Medium", 512, 512, 128}, {"Large", 2048, 2048, 31}} {
		b.Run(sz.name, func(b *testing.B) {
			if sz.name == "Large" && testing.Short() {
				b.Skip("large")
			}
			c := hsi.MustNew(sz.h, sz.w, sz.c)
			for i := range c.Data {
				c.Data[i] = float32((i * 2654435761) % 10007)
			}
			b.SetBytes(int64(sz.h * sz.w * 3 * 4))
			for b.Loop() {
				if _, err := Preview(c, PreviewOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
