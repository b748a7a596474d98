package envi

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// Sizes: Small 64x64x31 (0.5 MB float32), Medium 256x256x128 (32 MB),
// Large 512x512x224 (224 MB).
var benchSizes = []struct {
	name    string
	h, w, b int
}{
	{"Small", 64, 64, 31},
	{"Medium", 256, 256, 128},
	{"Large", 512, 512, 224},
}

func BenchmarkRead(b *testing.B) {
	for _, sz := range benchSizes {
		for _, il := range []string{"bsq", "bil", "bip"} {
			b.Run(fmt.Sprintf("%s/%s/int16", sz.name, il), func(b *testing.B) {
				if sz.name == "Large" && testing.Short() {
					b.Skip("large")
				}
				c := testCube(sz.h, sz.w, sz.b, sample.Int16)
				p := filepath.Join(b.TempDir(), "x.hdr")
				if err := Write(p, c, hsi.WriteOptions{DataType: sample.Int16, Interleave: hsi.Interleave(il)}); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(c.Data)) * 2)
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
		for _, il := range []string{"bsq", "bil", "bip"} {
			b.Run(fmt.Sprintf("%s/%s/float32", sz.name, il), func(b *testing.B) {
				if sz.name == "Large" && testing.Short() {
					b.Skip("large")
				}
				c := testCube(sz.h, sz.w, sz.b, sample.Float32)
				p := filepath.Join(b.TempDir(), "x.hdr")
				b.SetBytes(int64(len(c.Data)) * 4)
				for b.Loop() {
					if err := Write(p, c, hsi.WriteOptions{Interleave: hsi.Interleave(il)}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// discardAt is an io.WriterAt that keeps nothing.
type discardAt struct{}

func (discardAt) WriteAt(p []byte, _ int64) (int, error) { return len(p), nil }

// BenchmarkEncodeBSQ times the conversion of pixel-interleaved rows to BSQ
// samples alone (transposition and encoding; the writes are discarded): a
// band of 32 rows of a 2048-wide, 102-band float32 output, as the
// streamed x4 output of a 512 x 512 x 102 scene arrives.
func BenchmarkEncodeBSQ(b *testing.B) {
	const h, w, nb = 32, 2048, 102
	data := testCube(h, w, nb, sample.Float32).Data
	for _, t := range []sample.Type{sample.Float32, sample.Int16} {
		b.Run(t.String(), func(b *testing.B) {
			dw := dataWriter{f: discardAt{}, h: 4 * h, w: w, b: nb, t: t, il: "bsq"}
			b.SetBytes(int64(len(data)) * 4)
			for b.Loop() {
				if err := dw.writeRows(data, h, h); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
