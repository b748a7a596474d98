package tiff

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/matfile"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/resample"
)

// realScene loads an AVIRIS scene of ../shared/data (150x150x188 int16
// DN), or skips.
func realScene(b *testing.B) *hsi.Cube {
	p := filepath.Join("..", "..", "..", "shared", "data", "hsi", "train", "abu-beach-1.mat")
	if _, err := os.Stat(p); err != nil {
		b.Skipf("%s is absent: the codec benchmark needs the shared scenes", p)
	}
	c, _, err := matfile.Read(p, hsi.ReadOptions{Var: "data"})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkCodecs writes and reads a real scene with each compression:
// the raw int16 DN as int16 and its x2 bicubic upscaling as float32 (what
// omnihsr upscale writes), each with the predictor suited to the type.
// It reports the compressed size as a fraction of the raw samples.
func BenchmarkCodecs(b *testing.B) {
	raw := realScene(b)
	up, err := resample.Upsample(raw, 2*raw.H, 2*raw.W)
	if err != nil {
		b.Fatal(err)
	}
	for _, cube := range []struct {
		name string
		c    *hsi.Cube
		dt   sample.Type
		es   int
	}{{"int16", raw, sample.Int16, 2}, {"float32x2", up, sample.Float32, 4}} {
		for _, co := range []struct {
			name string
			co   []string
		}{
			{"none", []string{"COMPRESS=NONE"}},
			{"deflate1", []string{"COMPRESS=DEFLATE", "PREDICTOR=YES"}},
			{"deflate6", []string{"COMPRESS=DEFLATE", "PREDICTOR=YES", "ZLEVEL=6"}},
			{"lzw", []string{"COMPRESS=LZW", "PREDICTOR=YES"}},
			{"zstd1", []string{"COMPRESS=ZSTD", "PREDICTOR=YES", "ZSTD_LEVEL=1"}},
			{"zstd9", []string{"COMPRESS=ZSTD", "PREDICTOR=YES"}},
		} {
			c := cube.c
			opt := hsi.WriteOptions{DataType: cube.dt, Creation: co.co}
			rawBytes := int64(len(c.Data) * cube.es)
			path := filepath.Join(b.TempDir(), "b.tif")
			b.Run(cube.name+"/write/"+co.name, func(b *testing.B) {
				b.SetBytes(rawBytes)
				for i := 0; i < b.N; i++ {
					if err := Write(path, c, opt); err != nil {
						b.Fatal(err)
					}
				}
				st, _ := os.Stat(path)
				b.ReportMetric(float64(st.Size())/float64(rawBytes), "size/raw")
			})
			b.Run(cube.name+"/read/"+co.name, func(b *testing.B) {
				b.SetBytes(rawBytes)
				for i := 0; i < b.N; i++ {
					if _, _, err := Read(path, hsi.ReadOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
