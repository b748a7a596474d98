package npy_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/npy"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

func Example() {
	dir, err := os.MkdirTemp("", "npy-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	c := hsi.MustNew(2, 3, 2)
	for i := range c.Data {
		c.Data[i] = float32(i) / 2
	}
	p := filepath.Join(dir, "cube.npy") // np.load gives shape (2, 3, 2), float32
	if err := npy.Write(p, c, hsi.WriteOptions{}); err != nil {
		log.Fatal(err)
	}
	got, info, err := npy.Read(p, hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Format, info.DataType, info.Layout)
	fmt.Println(got.Spectrum(1, 2))
	// Output:
	// NPY float32 C order (2, 3, 2)
	// [5 5.5]
}

// ExampleDecode reads an array from bytes in memory (here those of a file
// written as uint16), as archive/zip.NewReader reads an archive.
func ExampleDecode() {
	dir, err := os.MkdirTemp("", "npy-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	c := hsi.MustNew(2, 2, 3)
	for i := range c.Data {
		c.Data[i] = float32(100 * i)
	}
	p := filepath.Join(dir, "cube.npy")
	if err := npy.Write(p, c, hsi.WriteOptions{DataType: sample.Uint16}); err != nil {
		log.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		log.Fatal(err)
	}
	got, info, err := npy.Decode(bytes.NewReader(b), int64(len(b)), hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Format, info.DataType, info.Layout)
	fmt.Println(got.Spectrum(1, 1))
	// Output:
	// NPY uint16 C order (2, 2, 3)
	// [900 1000 1100]
}
