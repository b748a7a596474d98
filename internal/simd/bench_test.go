package simd

import (
	"fmt"
	"testing"
)

// Sizes: a spectrum of 31 bands (Small), an image row of 512 pixels x 31
// bands (Medium), a row of 2048 pixels x 128 bands (Large); 4 taps (bicubic)
// and 11 (the SSIM window).
var benchSizes = []struct {
	name string
	n    int
}{{"Small", 31}, {"Medium", 512 * 31}, {"Large", 2048 * 128}}

func BenchmarkWSum32(b *testing.B) {
	for _, s := range benchSizes {
		for _, k := range []int{4, 11} {
			b.Run(fmt.Sprintf("%s/taps=%d", s.name, k), func(b *testing.B) {
				src := make([]float32, s.n+k)
				dst := make([]float32, s.n)
				off := make([]int, k)
				w := make([]float32, k)
				for i := range off {
					off[i] = i
					w[i] = 1 / float32(k)
				}
				b.SetBytes(int64(4 * s.n))
				for b.Loop() {
					WSum32(dst, src, off, w)
				}
			})
		}
	}
}

func BenchmarkWSum64(b *testing.B) {
	for _, s := range benchSizes {
		for _, k := range []int{4, 11} {
			b.Run(fmt.Sprintf("%s/taps=%d", s.name, k), func(b *testing.B) {
				src := make([]float64, s.n+k)
				dst := make([]float64, s.n)
				off := make([]int, k)
				w := make([]float64, k)
				for i := range off {
					off[i] = i
					w[i] = 1 / float64(k)
				}
				b.SetBytes(int64(8 * s.n))
				for b.Loop() {
					WSum64(dst, src, off, w)
				}
			})
		}
	}
}

func BenchmarkFinite(b *testing.B) {
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			d := make([]float32, s.n)
			b.SetBytes(int64(4 * s.n))
			for b.Loop() {
				if !Finite(d) {
					b.Fatal("zeros reported as non-finite")
				}
			}
		})
	}
}
