//go:build amd64 && !purego

package simd

import "golang.org/x/sys/cpu"

var (
	useAVX = cpu.X86.HasAVX
	useFMA = cpu.X86.HasAVX && cpu.X86.HasFMA
)

// wsum32AVX is WSum32 with AVX multiplies and adds
// (no FMA, so that the rounding is ATen's).
//
//go:noescape
func wsum32AVX(dst *float32, n int, src *float32, off *int, w *float32, k int)

// wsum64FMA is WSum64 for n a multiple of 4, with AVX2 fused multiply-adds.
//
//go:noescape
func wsum64FMA(dst *float64, n int, src *float64, off *int, w *float64, k int)

// finiteAVX reports whether every value of d[0:n] is finite, n a multiple
// of 32.
//
//go:noescape
func finiteAVX(d *float32, n int) bool
