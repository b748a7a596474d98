// Package simd holds the small vector kernels that several packages share:
// the weighted sums of contiguous runs that separable filters are made of
// (resample's interpolation and blur passes, metrics' SSIM Gaussian window)
// and a finiteness check.
//
// # Kernels
//
//   - WSum32 sets dst[i] = sum_k w[k] * src[off[k]+i] in float32, summing
//     the taps in order k = 0, 1, ... with every product rounded before it
//     is added (no fused multiply-add): the order and rounding of ATen's
//     interpolation loops, vectorised over i. On amd64 with AVX an assembly
//     kernel computes every element; it gives the same bits as the Go loop.
//   - WSum64 is the same sum in float64, with fused multiply-adds where the
//     CPU has AVX and FMA (results then differ from the Go loop by rounding
//     only).
//   - Finite reports whether a float32 slice holds no NaN and no Inf.
//
// Build tag purego (or any architecture but amd64) selects the plain Go
// loops. The callers check sizes; the functions here check them again with
// slice expressions before the assembly runs, so a bad call panics with an
// index error instead of reading out of bounds.
package simd
