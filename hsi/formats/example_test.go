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

// Convert an ENVI image to NumPy, as `omnihsr convert` does.
func Example() {
	dir, err := os.MkdirTemp("", "formats-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	c := hsi.MustNew(3, 4, 5)
	if err := formats.Write(filepath.Join(dir, "scene.hdr"), c, hsi.WriteOptions{DataType: sample.Int16, Interleave: "bil"}); err != nil {
		log.Fatal(err)
	}

	in, info, err := formats.Read(filepath.Join(dir, "scene.hdr"), hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	if err := formats.Write(filepath.Join(dir, "scene.npy"), in, hsi.WriteOptions{}); err != nil {
		log.Fatal(err)
	}
	out, info2, err := formats.Read(filepath.Join(dir, "scene.npy"), hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Format, info.DataType, info.Layout, "->", info2.Format, info2.DataType, out.H, out.W, out.B)
	// Output:
	// ENVI int16 bil -> NPY float32 3 4 5
}
