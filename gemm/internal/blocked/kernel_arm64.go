//go:build arm64 && !purego

package blocked

// kern6x16NEON is the 6 x 16 NEON micro-kernel (see kernel_arm64.s for
// the strides and the order of its operations).
//
//go:noescape
func kern6x16NEON(k int, a, b, c *float32, ldc int, alpha float32, ars, aps, bps, add int)

var kernNEON = &kernel{name: KernelNEON, mr: 6, nr: 16, fn: kern6x16NEON}

// Every arm64 CPU has NEON (Advanced SIMD is part of the base ARMv8-A
// architecture that GOARCH=arm64 requires; the Go runtime uses it
// unconditionally), so there is nothing to detect.
func init() {
	narrow = kernNEON
	use.wide, use.narrow = wide, narrow
}
