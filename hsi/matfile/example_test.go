package matfile_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/matfile"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

func Example() {
	dir, err := os.MkdirTemp("", "matfile-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	c := hsi.MustNew(2, 3, 4) // 2 rows, 3 columns, 4 bands
	for i := range c.Data {
		c.Data[i] = float32(i)
	}
	c.Meta.Wavelengths = []float64{450, 550, 650, 750}
	c.Meta.WavelengthUnits = "Nanometers"
	path := filepath.Join(dir, "cube.mat")
	if err := matfile.Write(path, c, hsi.WriteOptions{DataType: sample.Uint16, Compression: "deflate"}); err != nil {
		log.Fatal(err)
	}

	vars, err := matfile.List(path)
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range vars {
		fmt.Println(v)
	}
	back, info, err := matfile.Read(path, hsi.ReadOptions{}) // the largest numeric array
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s %s %s %q: %dx%dx%d, pixel (1,2) = %v, %v %s\n", info.Format, info.DataType, info.Layout,
		info.Variable, back.H, back.W, back.B, back.Spectrum(1, 2), back.Meta.Wavelengths, back.Meta.WavelengthUnits)
	// Output:
	// cube (2x3x4 uint16)
	// wavelength (4x1 double)
	// wavelength_units (1x10 char)
	// MAT v5 uint16 HWB "cube": 2x3x4, pixel (1,2) = [20 21 22 23], [450 550 650 750] Nanometers
}

func ExampleRead_bandsByPixels() {
	// A bands x pixels matrix (as in Jasper Ridge or Moffett Field) needs the
	// image height, or is taken as square.
	c, info, err := matfile.Read("testdata/v5_bhw_3x4x5.mat.golden", hsi.ReadOptions{Var: "Y", Layout: matfile.LayoutBHW, Height: 3, Width: 4})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Layout, c.H, c.W, c.B)
	// Output:
	// B_HW_colmajor 3 4 5
}
