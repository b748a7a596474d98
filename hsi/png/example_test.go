package png_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/png"
)

func ExampleWritePreview() {
	// A 31-band cube of 400-700 nm: the preview shows 650, 550 and 450 nm.
	c := hsi.MustNew(16, 16, 31)
	for i := range c.Data {
		c.Data[i] = float32(i % 97)
	}
	for b := 0; b < 31; b++ {
		c.Meta.Wavelengths = append(c.Meta.Wavelengths, 400+10*float64(b))
	}
	c.Meta.WavelengthUnits = "Nanometers"
	fmt.Println("bands:", png.ChooseBands(c))

	dir, err := os.MkdirTemp("", "png-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "preview.png")
	if err := png.WritePreview(p, c, png.PreviewOptions{}); err != nil {
		log.Fatal(err)
	}
	back, info, err := png.Read(p, hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Layout, back.H, back.W, back.B)
	// Output:
	// bands: [25 15 5]
	// RGB, 3 band(s) 16 16 3
}
