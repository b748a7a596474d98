//go:build amd64 && !purego

package resample

import "golang.org/x/sys/cpu"

var useAVX = cpu.X86.HasAVX

// wsum32AVX is wsum32 with AVX multiplies and adds
// (no FMA, so that the rounding is ATen's).
//
//go:noescape
func wsum32AVX(dst *float32, n int, src *float32, off *int, w *float32, k int)
