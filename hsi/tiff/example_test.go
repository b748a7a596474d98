package tiff_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/tiff"
)

func Example() {
	dir, err := os.MkdirTemp("", "tiff-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	c := hsi.MustNew(2, 3, 4)
	for i := range c.Data {
		c.Data[i] = float32(i) / 4
	}
	c.Meta.Geo = &hsi.Geo{MapInfo: "UTM, 1, 1, 620000, 4200000, 30, 30, 13, North, WGS-84"}
	path := filepath.Join(dir, "cube.tif")
	if err := tiff.Write(path, c, hsi.WriteOptions{Compression: "lzw"}); err != nil {
		log.Fatal(err)
	}
	back, info, err := tiff.Read(path, hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Format, info.DataType, info.Layout, info.Detail)
	fmt.Println(back.H, back.W, back.B, back.Spectrum(1, 2))
	fmt.Println(back.Meta.Geo.PixelScale, back.Meta.Geo.Tiepoints)
	// Output:
	// GeoTIFF float32 samples little-endian, band-separate (planar 2), strips of 2 rows, LZW, predictor 3
	// 2 3 4 [5 5.25 5.5 5.75]
	// [30 30 0] [0 0 0 620000 4.2e+06 0]
}

func ExampleRead() {
	c, info, err := tiff.Read("testdata/int16_tiled_lzw_pred2_band.tif", hsi.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Format, info.DataType, info.Detail)
	fmt.Println(c.H, c.W, c.B, c.Meta.Geo.Summary())
	// Output:
	// GeoTIFF int16 little-endian, band-separate (planar 2), tiles 16x16, LZW, predictor 2
	// 7 9 5 GeoTIFF pixel scale 30 x 30; tie point (0,0) -> (500000,4200000); 7 geokeys
}
