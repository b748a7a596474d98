package formats_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// Stream an image to disk in bands of rows, as the renderer does for an
// output too large for memory: only one band of rows is ever held.
func ExampleCreate() {
	dir, err := os.MkdirTemp("", "formats-stream")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	const H, W, B, band = 10, 8, 3, 4
	meta := hsi.Meta{Wavelengths: []float64{450, 550, 650}, WavelengthUnits: "Nanometers"}
	path := filepath.Join(dir, "big.hdr")
	w, err := formats.Create(path, H, W, B, meta, hsi.WriteOptions{DataType: sample.Uint16, Interleave: "bil"})
	if err != nil {
		log.Fatal(err)
	}
	defer w.Abort() // removes the temporary files unless Commit succeeded
	for y0 := 0; y0 < H; y0 += band {
		n := min(band, H-y0)
		rows := make([]float32, n*W*B) // rows y0..y0+n-1, H x W x B order
		for i := range rows {
			rows[i] = float32(y0*W*B + i)
		}
		if err := w.WriteRows(rows); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Commit(); err != nil {
		log.Fatal(err)
	}

	c, info, err := formats.Read(path, hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Format, info.DataType, info.Layout, c.H, c.W, c.B, c.At(9, 7, 2), c.Meta.Wavelengths)
	// Output:
	// ENVI uint16 bil 10 8 3 239 [450 550 650]
}
