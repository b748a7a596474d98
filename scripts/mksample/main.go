// Command mksample regenerates the bundled sample scene, sample/muufl_gulfport.hdr
// and .img, from the public scene it is cut from (see sample/README.md):
//
//	go run ./scripts/mksample            # reads ../shared/data/hsi/train/an_hsi_image_sub_for_demo.mat
//	go run ./scripts/mksample -src FILE -out sample/muufl_gulfport.hdr
//
// It keeps the crop window below, stores reflectance x 10000 as int16 (ENVI
// "reflectance scale factor = 10000"), and writes the wavelengths in
// nanometres rounded to float32 precision, as the source holds them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// The crop window, in pixels of the source (rows y0 <= y < y1, columns
// x0 <= x < x1): the top-left 36 x 64 pixels of the 51 x 88 source, every
// one inside the source's validity mask (mask_sub), which leaves out a dark
// corner at the bottom right.
const (
	y0, y1 = 0, 36
	x0, x1 = 0, 64
)

// scale is the ENVI reflectance scale factor: stored value = reflectance x scale.
const scale = 10000

const description = "MUUFL Gulfport campus, CASI-1500, 72 bands 368-1043 nm, reflectance x 10000 " +
	"(hsi_img_sub of an_hsi_image_sub_for_demo.mat, GatorSense/hsi_toolkit, MIT licence); see sample/README.md"

func main() {
	src := flag.String("src", "../shared/data/hsi/train/an_hsi_image_sub_for_demo.mat", "source MAT file")
	out := flag.String("out", "sample/muufl_gulfport.hdr", "output ENVI header (the .img goes beside it)")
	flag.Parse()
	if err := run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "mksample:", err)
		os.Exit(1)
	}
}

func run(src, out string) error {
	c, _, err := formats.Read(src, hsi.ReadOptions{Var: "hsi_img_sub"})
	if err != nil {
		return err
	}
	crop, err := cropScale(c)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	return formats.Write(out, crop, hsi.WriteOptions{DataType: "int16"})
}

// cropScale cuts the crop window out of c and scales it to int16 counts.
func cropScale(c *hsi.Cube) (*hsi.Cube, error) {
	if c.H < y1 || c.W < x1 {
		return nil, fmt.Errorf("cube is %d x %d, the crop window needs %d x %d", c.H, c.W, y1, x1)
	}
	if len(c.Meta.Wavelengths) != c.B {
		return nil, errors.New("the source has no wavelengths")
	}
	o, err := hsi.New(y1-y0, x1-x0, c.B)
	if err != nil {
		return nil, err
	}
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			in := c.Spectrum(y, x)
			to := o.Data[((y-y0)*o.W+(x-x0))*o.B:][:o.B]
			for b, v := range in {
				to[b] = float32(math.Round(float64(v) * scale))
			}
		}
	}
	o.Meta.Description = description
	o.Meta.ReflectanceScale = scale
	o.Meta.WavelengthUnits = "Nanometers"
	o.Meta.Wavelengths = make([]float64, c.B)
	for b, w := range c.Meta.Wavelengths {
		// The source holds float32 wavelengths; write them as such (367.7, not 367.700012...).
		o.Meta.Wavelengths[b], _ = strconv.ParseFloat(strconv.FormatFloat(w, 'g', -1, 32), 64)
	}
	return o, nil
}
