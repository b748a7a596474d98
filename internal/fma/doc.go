// Package fma computes fused multiply-adds in float32 exactly as an FMA
// instruction does: a*b + c with a single rounding to float32.
//
// The assembly kernels of the module (the GEMM's AVX2 and AVX-512
// micro-kernels, the GELU and Winograd transforms) fuse their
// multiply-adds. Their pure-Go counterparts, which run on arm64, on
// amd64 CPUs without FMA and in builds with the purego tag, call F32 at
// the same places, so that every CPU gives the same bits.
//
// On arm64, ppc64, s390x, riscv64 and amd64 built with GOAMD64=v3, F32
// is the expression a*b + c, which the compiler fuses into the CPU's
// instruction. Elsewhere Go has no float32 FMA, and F32 computes a*b
// (exact in float64, since the product of two 24-bit significands has at
// most 48 bits) plus c in float64, and rounds that sum to float32. Rounding twice (to float64,
// then to float32) can differ from rounding once when the float64 sum
// lands exactly halfway between two float32 values; F32 detects those
// cases (and float32 subnormal results, whose halfway points lie
// elsewhere) and resolves them from the exact error of the float64 sum
// by rounding to odd, which makes the second rounding correct.
package fma
