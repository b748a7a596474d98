package envi_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

func Example() {
	dir, err := os.MkdirTemp("", "envi-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	// A 2 x 3 cube of 4 bands with wavelengths.
	c := hsi.MustNew(2, 3, 4)
	for i := range c.Data {
		c.Data[i] = float32(i)
	}
	c.Meta.Wavelengths = []float64{450, 550, 650, 750}
	c.Meta.WavelengthUnits = "Nanometers"

	// Stored as uint16, band-interleaved by line: scene.img + scene.hdr.
	p := filepath.Join(dir, "scene.hdr")
	if err := envi.Write(p, c, hsi.WriteOptions{DataType: sample.Uint16, Interleave: "bil"}); err != nil {
		log.Fatal(err)
	}
	got, info, err := envi.Read(filepath.Join(dir, "scene.img"), hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Format, info.DataType, info.Layout)
	fmt.Printf("%dx%dx%d, spectrum of (1,2): %v\n", got.H, got.W, got.B, got.Spectrum(1, 2))
	fmt.Println(got.Meta.Wavelengths, got.Meta.WavelengthUnits)
	// Output:
	// ENVI uint16 bil
	// 2x3x4, spectrum of (1,2): [20 21 22 23]
	// [450 550 650 750] Nanometers
}
