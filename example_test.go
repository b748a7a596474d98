package omnihsr_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// smallCube returns a smooth 12 x 16 x 6 cube.
func smallCube() *hsi.Cube {
	c := &hsi.Cube{H: 12, W: 16, B: 6, Data: make([]float32, 12*16*6)}
	for y := 0; y < c.H; y++ {
		for x := 0; x < c.W; x++ {
			for b := 0; b < c.B; b++ {
				c.Data[(y*c.W+x)*c.B+b] = float32(1000 + 300*math.Sin(0.4*float64(x)+0.1*float64(b)) + 200*math.Cos(0.3*float64(y)))
			}
		}
	}
	return c
}

// Read a cube from a file, upscale it by 2 in memory and print its shape.
func Example() {
	dir, err := os.MkdirTemp("", "omnihsr-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "lr.npy")
	if err := formats.Write(in, smallCube(), hsi.WriteOptions{}); err != nil {
		log.Fatal(err)
	}

	lr, _, err := omnihsr.ReadFile(in, hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	sr, res, err := omnihsr.Upscale(context.Background(), lr, omnihsr.Options{Scale: 2})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d x %d x %d -> %d x %d x %d (%s)\n", lr.H, lr.W, lr.B, sr.H, sr.W, sr.B, res.Method)
	// Output: 12 x 16 x 6 -> 24 x 32 x 6 (omnihsr)
}

// Read a cube, upscale it by 3 in memory and write it: the output keeps
// the input's metadata on the new grid.
func ExampleUpscale() {
	dir, err := os.MkdirTemp("", "omnihsr-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "lr.hdr"), filepath.Join(dir, "sr.tif")
	lr := smallCube()
	lr.Meta.Wavelengths = []float64{450, 550, 650, 750, 850, 950}
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		log.Fatal(err)
	}

	c, _, err := omnihsr.ReadFile(in, hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	sr, _, err := omnihsr.Upscale(context.Background(), c, omnihsr.Options{Scale: 3})
	if err != nil {
		log.Fatal(err)
	}
	if err := formats.Write(out, sr, hsi.WriteOptions{}); err != nil {
		log.Fatal(err)
	}
	back, _, err := omnihsr.ReadFile(out, hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d x %d x %d, wavelengths %v\n", filepath.Base(out), back.H, back.W, back.B, back.Meta.Wavelengths)
	// Output: sr.tif: 36 x 48 x 6, wavelengths [450 550 650 750 850 950]
}

// Upscale a file by a fractional factor: each side becomes round(S*side).
func ExampleUpscaleFile() {
	dir, err := os.MkdirTemp("", "omnihsr-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "lr.hdr"), filepath.Join(dir, "sr.hdr")
	if err := formats.Write(in, smallCube(), hsi.WriteOptions{}); err != nil {
		log.Fatal(err)
	}

	res, err := omnihsr.UpscaleFile(context.Background(), in, out, omnihsr.Options{Scale: 2.5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d x %d x %d\n", filepath.Base(out), res.Height, res.Width, res.Bands)
	// Output: sr.hdr: 30 x 40 x 6
}

// Render several factors from one encoding of the input: out is a
// pattern holding {scale} (or a directory, receiving STEM_xS.EXT).
func ExampleUpscaleFile_scales() {
	dir, err := os.MkdirTemp("", "omnihsr-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "lr.npy")
	if err := formats.Write(in, smallCube(), hsi.WriteOptions{}); err != nil {
		log.Fatal(err)
	}

	out := filepath.Join(dir, "sr_x{scale}.npy")
	res, err := omnihsr.UpscaleFile(context.Background(), in, out, omnihsr.Options{Scales: []float64{2, 3.5, 4}})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Files {
		fmt.Printf("%s: %d x %d\n", filepath.Base(f.Path), f.Height, f.Width)
	}
	// Output:
	// sr_x2.npy: 24 x 32
	// sr_x3.5.npy: 42 x 56
	// sr_x4.npy: 48 x 64
}

// NaN samples are no-data by default (hsi.ReadOptions): read, filled
// from valid neighbours before upscaling and no-data again in the output.
// RefuseNaN makes them an error, as an infinite sample always is.
func ExampleReadFile() {
	dir, err := os.MkdirTemp("", "omnihsr-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "lr.hdr")
	c := smallCube()
	c.Data[(2*c.W+3)*c.B+1] = float32(math.NaN()) // row 2, column 3, band 1
	if err := formats.Write(in, c, hsi.WriteOptions{}); err != nil {
		log.Fatal(err)
	}

	lr, _, err := omnihsr.ReadFile(in, hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	_, res, err := omnihsr.Upscale(context.Background(), lr, omnihsr.Options{Scale: 2})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("no-data samples:", res.NoData)
	_, _, err = omnihsr.ReadFile(in, hsi.ReadOptions{RefuseNaN: true})
	var nf *hsi.NonFiniteError
	if errors.As(err, &nf) {
		fmt.Printf("refused: NaN at row %d, column %d, band %d\n", nf.Row, nf.Col, nf.Band)
	}
	// Output:
	// no-data samples: 1
	// refused: NaN at row 2, column 3, band 1
}

// Cancelling the context stops the work and returns an error matching
// context.Canceled; no output file is left. Here the context is cancelled
// once the first rows are rendered.
func ExampleUpscaleFile_cancel() {
	dir, err := os.MkdirTemp("", "omnihsr-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "lr.npy"), filepath.Join(dir, "sr.npy")
	if err := formats.Write(in, smallCube(), hsi.WriteOptions{}); err != nil {
		log.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := omnihsr.Options{Scale: 4, Progress: func(done, total int) { cancel() }}
	_, err = omnihsr.UpscaleFile(ctx, in, out, opt)
	_, statErr := os.Stat(out)
	fmt.Println(errors.Is(err, context.Canceled), os.IsNotExist(statErr))
	// Output: true true
}
