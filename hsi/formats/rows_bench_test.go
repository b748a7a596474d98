package formats

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/resample"
)

// BenchmarkReadRowsScene reads a real scene (../shared/data's abu-beach-1,
// 150 x 150 x 188, upsampled x2 to 300 x 300 x 188 float32, 68 MB) stored
// as a tiled TIFF (deflate, floating-point predictor), a stripped TIFF
// (LZW) and a C-order NPY: whole (Read, as every format was read before
// Open streamed them) and through Open, 64 rows a call.
func BenchmarkReadRowsScene(b *testing.B) {
	p := filepath.Join("..", "..", "..", "shared", "data", "hsi", "train", "abu-beach-1.mat")
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s is absent: the benchmark needs the shared scenes", p)
	}
	c, _, err := Read(p, hsi.ReadOptions{Var: "data"})
	if err != nil {
		b.Fatal(err)
	}
	if c, err = resample.Upsample(c, 2*c.H, 2*c.W); err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for _, f := range []struct {
		name string
		co   []string
	}{
		{"tiled.tif", []string{"TILED=YES", "COMPRESS=DEFLATE", "PREDICTOR=3"}},
		{"strips.tif", []string{"COMPRESS=LZW"}},
		{"c.npy", nil},
	} {
		path := filepath.Join(dir, f.name)
		if err := Write(path, c, hsi.WriteOptions{Creation: f.co}); err != nil {
			b.Fatal(err)
		}
		bytes := int64(len(c.Data) * 4)
		b.Run(f.name+"/Read", func(b *testing.B) {
			b.SetBytes(bytes)
			for range b.N {
				if _, _, err := Read(path, hsi.ReadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(f.name+"/Rows64", func(b *testing.B) {
			b.SetBytes(bytes)
			dst := make([]float32, 64*c.W*c.B)
			for range b.N {
				src, err := Open(path, hsi.ReadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				for y := 0; y < c.H; y += 64 {
					y1 := min(y+64, c.H)
					if err := src.ReadRows(y, y1, dst[:(y1-y)*c.W*c.B]); err != nil {
						b.Fatal(err)
					}
				}
				src.Close()
			}
		})
	}
}
