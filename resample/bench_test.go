package resample

import (
	"fmt"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// Benchmarks at the sizes of the latency table: bicubic upsampling of a
// 32x32x145 cube by 4 and 16, antialiased downsampling of a 512x512x145 cube by 4, each next to
// BenchmarkWriteFloor at the same output size: the time to write the
// output once (allocate it and fill it: page faults plus memory
// bandwidth), and to fill an already allocated buffer (bandwidth alone).

func BenchmarkUpsample(b *testing.B) {
	for _, bc := range []struct {
		name       string
		h, w, c, s int
	}{
		{"Small/32x32x31_x4", 32, 32, 31, 4},
		{"Medium/32x32x145_x4", 32, 32, 145, 4},
		{"Large/32x32x145_x16", 32, 32, 145, 16},
	} {
		in := testrand.Cube(testrand.New(1, 1), bc.h, bc.w, bc.c)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(bc.h * bc.s * bc.w * bc.s * bc.c * 4))
			for b.Loop() {
				if _, err := Upsample(in, bc.h*bc.s, bc.w*bc.s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDownsample(b *testing.B) {
	for _, bc := range []struct {
		name       string
		h, w, c, s int
	}{
		{"Small/128x128x31_x4", 128, 128, 31, 4},
		{"Medium/512x512x31_x4", 512, 512, 31, 4},
		{"Large/512x512x145_x4", 512, 512, 145, 4},
	} {
		in := testrand.Cube(testrand.New(1, 1), bc.h, bc.w, bc.c)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(bc.h * bc.w * bc.c * 4)) // input bytes read
			for b.Loop() {
				if _, err := Downsample(in, bc.h/bc.s, bc.w/bc.s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWriteFloor measures writing n float32 values once, for the
// output sizes above (alloc: a fresh slice, as the resamplers allocate
// their output; fill: an existing buffer), and reading the 512x512x145
// input once (read).
func BenchmarkWriteFloor(b *testing.B) {
	for _, n := range []int{128 * 128 * 145, 512 * 512 * 145, 128 * 128 * 145 / 16} {
		b.Run(fmt.Sprintf("alloc/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n * 4))
			for b.Loop() {
				d := make([]float32, n)
				fillParallel(d)
			}
		})
		d := make([]float32, n)
		b.Run(fmt.Sprintf("fill/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n * 4))
			for b.Loop() {
				fillParallel(d)
			}
		})
	}
	src := testrand.Cube(testrand.New(2, 1), 512, 512, 145).Data
	b.Run("read/512x512x145", func(b *testing.B) {
		b.SetBytes(int64(len(src) * 4))
		for b.Loop() {
			if err := checkFinite(randCubeView(src)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func fillParallel(d []float32) {
	parallel(len(d), 1<<16, func(lo, hi int) {
		s := d[lo:hi]
		for i := range s {
			s[i] = 1
		}
	})
}

func randCubeView(d []float32) *hsi.Cube { return &hsi.Cube{H: 1, W: 1, B: len(d), Data: d} }
