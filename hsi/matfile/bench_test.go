package matfile

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

var benchSizes = []struct {
	name    string
	h, w, b int
}{
	{"Small", 64, 64, 31},
	{"Medium", 256, 256, 103},
	{"Large", 512, 512, 145},
}

// reportAlloc reports the bytes allocated per operation relative to the
// cube's float32 size.
func reportAlloc(b *testing.B, before uint64, cubeBytes int64) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(m.TotalAlloc-before)/float64(b.N)/float64(cubeBytes), "alloc/cube")
}

func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

func BenchmarkWrite(b *testing.B) {
	for _, sz := range benchSizes {
		for _, comp := range []string{"none", "deflate"} {
			b.Run(sz.name+"/"+comp, func(b *testing.B) {
				c := testrand.Integers(testrand.New(1, 1), sz.h, sz.w, sz.b, 0, 4000)
				path := filepath.Join(b.TempDir(), "b.mat")
				b.SetBytes(int64(len(c.Data)) * 4)
				b.ResetTimer()
				before := totalAlloc()
				for i := 0; i < b.N; i++ {
					if err := Write(path, c, hsi.WriteOptions{DataType: sample.Uint16, Compression: hsi.Compression(comp)}); err != nil {
						b.Fatal(err)
					}
				}
				reportAlloc(b, before, int64(len(c.Data))*4)
			})
		}
	}
}

func BenchmarkRead(b *testing.B) {
	for _, sz := range benchSizes {
		for _, comp := range []string{"none", "deflate"} {
			b.Run(sz.name+"/"+comp, func(b *testing.B) {
				c := testrand.Integers(testrand.New(1, 1), sz.h, sz.w, sz.b, 0, 4000)
				path := filepath.Join(b.TempDir(), "b.mat")
				if err := Write(path, c, hsi.WriteOptions{DataType: sample.Uint16, Compression: hsi.Compression(comp)}); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(c.Data)) * 4)
				b.ResetTimer()
				before := totalAlloc()
				for i := 0; i < b.N; i++ {
					if _, _, err := Read(path, hsi.ReadOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				reportAlloc(b, before, int64(len(c.Data))*4)
			})
		}
	}
}
