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

// fillRowsAVX writes, for a < na and b < nb, g = r_a*v[b] to
// out[a*stride+b] (as float32) and adds it to sum[a*stride+b]; after each
// row v[b] *= e[b], r_{a+1} = r_a*ey_a and ey_{a+1} = ey_a*fy (r_0 = r,
// ey_0 = ey). v is overwritten.
//
//go:noescape
func fillRowsAVX(out *float32, sum *float64, v, e *float64, nb, na, stride int, r, ey, fy float64)
