//go:build amd64 && !purego

package blocked

import "golang.org/x/sys/cpu"

// kern6x16 is the 6 x 16 AVX2 + FMA micro-kernel (see kernel_amd64.s for
// the strides).
//
//go:noescape
func kern6x16(k int, a, b, c *float32, ldc int, alpha float32, ars, aps, bps, add int)

// kern12x32 is the 12 x 32 AVX-512 micro-kernel.
//
//go:noescape
func kern12x32(k int, a, b, c *float32, ldc int, alpha float32, ars, aps, bps, add int)

var (
	kernAVX2   = &kernel{mr: 6, nr: 16, fn: kern6x16}
	kernAVX512 = &kernel{mr: 12, nr: 32, fn: kern12x32}

	hasAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	hasAVX512 = cpu.X86.HasAVX512F && hasAVX2
)

func init() { selectKernels(hasAVX512, hasAVX2) }

// selectKernels enables the kernels allowed (tests disable the wide one).
func selectKernels(avx512, avx2 bool) {
	wide, narrow = nil, nil
	if avx2 {
		narrow = kernAVX2
		if avx512 {
			wide = kernAVX512
		}
	}
}
