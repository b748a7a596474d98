package metrics

import (
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
)

func BenchmarkCompute(b *testing.B) {
	for _, bc := range []struct {
		name    string
		h, w, c int
	}{
		{"Small/64x64x31", 64, 64, 31},
		{"Medium/256x256x31", 256, 256, 31},
		{"Large/512x512x145", 512, 512, 145},
	} {
		ref := testrand.Cube(testrand.New(1, 3), bc.h, bc.w, bc.c)
		est := testrand.Cube(testrand.New(2, 3), bc.h, bc.w, bc.c)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(2 * 4 * len(ref.Data)))
			for b.Loop() {
				if _, err := Compute(ref, est, 4); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSSIM(b *testing.B) {
	ref := testrand.Cube(testrand.New(1, 3), 512, 512, 145)
	est := testrand.Cube(testrand.New(2, 3), 512, 512, 145)
	b.Run("Large/512x512x145", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := SSIM(ref, est); err != nil {
				b.Fatal(err)
			}
		}
	})
}
