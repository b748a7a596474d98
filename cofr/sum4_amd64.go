//go:build amd64 && !purego

package cofr

import "golang.org/x/sys/cpu"

var useAVX = cpu.X86.HasAVX

// sum4AVX sets dst[i] = ((s0[i]*w[0] + s1[i]*w[1]) + s2[i]*w[2]) + s3[i]*w[3]
// for i < n, then adds t[i] when t is not nil, with AVX multiplies and adds
// (no FMA): the rounding of the scalar Go code, bit for bit.
//
//go:noescape
func sum4AVX(dst *float32, n int, s0, s1, s2, s3 *float32, w *[4]float32, t *float32)

// mulAVX sets d[i] *= s[i] for i < n and flushes results below tiny to
// zero (for non-negative data).
//
//go:noescape
func mulAVX(d, s *float32, n int, tiny float32)

// axpyAVX sets d[i] += a*s[i] for i < n.
//
//go:noescape
func axpyAVX(d, s *float32, n int, a float32)

// dotAVX returns sum_i a[i]*b[i] for i < n.
//
//go:noescape
func dotAVX(a, b *float32, n int) float32
