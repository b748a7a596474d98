package npy

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// Small 64x64x31, Medium 256x256x128 (32 MB float32), Large 500x500x100
// (100 MB float32, the size the npyio comparison in doc.go used).
var benchSizes = []struct {
	name    string
	h, w, b int
}{{"Small", 64, 64, 31}, {"Medium", 256, 256, 128}, {"Large", 500, 500, 100}}

func BenchmarkRead(b *testing.B) {
	for _, sz := range benchSizes {
		for _, typ := range []sample.Type{sample.Float32, sample.Int16} {
			b.Run(fmt.Sprintf("%s/%s", sz.name, typ), func(b *testing.B) {
				if sz.name == "Large" && testing.Short() {
					b.Skip("large")
				}
				c := testCube(sz.h, sz.w, sz.b, typ)
				p := filepath.Join(b.TempDir(), "x.npy")
				if err := Write(p, c, hsi.WriteOptions{DataType: typ}); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(c.Data) * typ.Size()))
				for b.Loop() {
					if _, _, err := Read(p, hsi.ReadOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			if sz.name == "Large" && testing.Short() {
				b.Skip("large")
			}
			c := testCube(sz.h, sz.w, sz.b, sample.Float32)
			p := filepath.Join(b.TempDir(), "x.npy")
			b.SetBytes(int64(len(c.Data) * 4))
			for b.Loop() {
				if err := Write(p, c, hsi.WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
