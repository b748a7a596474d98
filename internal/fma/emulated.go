//go:build !(arm64 || ppc64 || ppc64le || s390x || riscv64 || amd64.v3)

package fma

import "math"

// Native reports that F32 is the compiler's fused instruction here (see
// fused.go); in this build it is emulated, and the compiler fuses nothing.
const Native = false

// F32 returns a*b + c rounded once to float32 (round to nearest, ties to
// even), as VFMADD231SS or FMADD does, including infinities, NaNs, signed
// zeros and subnormals.
func F32(a, b, c float32) float32 {
	s := float64(a)*float64(b) + float64(c)
	u := math.Float64bits(s) &^ (1 << 63)
	// A float32 rounding midpoint in the normal range has bit 28 set and
	// bits 0-27 clear; below 2^-126 (u-1 wraps for zero) the float32 grid
	// is coarser and the midpoint test differs, so both go the slow way.
	if u&0x1fffffff == 0x10000000 || u-1 < 0x380fffffffffffff {
		return f32Slow(a, b, c)
	}
	return float32(s)
}

// f32Slow rounds a*b + c to float32 through float64 rounded to odd: the
// float64 sum s and its exact error e (Knuth's TwoSum; the product is
// exact) give a*b + c = s + e; when e is not zero and s is even, s is
// replaced by its neighbour towards e, which is odd. A value rounded to
// odd with at least two more bits than the target rounds correctly.
func f32Slow(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	q := float64(c)
	s := p + q
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return float32(s)
	}
	bb := s - p
	e := (p - (s - bb)) + (q - bb)
	if e != 0 {
		bits := math.Float64bits(s)
		if bits&1 == 0 {
			if (e > 0) == (s > 0) {
				bits++ // away from zero
			} else {
				bits-- // towards zero
			}
			s = math.Float64frombits(bits)
		}
	}
	return float32(s)
}
