//go:build amd64 && !purego

package metrics

import "golang.org/x/sys/cpu"

var useFMA = cpu.X86.HasAVX && cpu.X86.HasFMA

// wsum64FMA is wsum64 for n a multiple of 4, with AVX2 fused multiply-adds.
//
//go:noescape
func wsum64FMA(dst *float64, n int, src *float64, off *int, w *float64, k int)
