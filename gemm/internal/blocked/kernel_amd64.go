//go:build amd64 && !purego

package blocked

import "golang.org/x/sys/cpu"

// kern6x16 is the 6 x 16 AVX + FMA micro-kernel (see kernel_amd64.s for
// the strides). It uses no AVX2 instruction, so it also runs on CPUs (and
// virtual machines) that report AVX and FMA without AVX2.
//
//go:noescape
func kern6x16(k int, a, b, c *float32, ldc int, alpha float32, ars, aps, bps, add int)

// kern12x32 is the 12 x 32 AVX-512 micro-kernel.
//
//go:noescape
func kern12x32(k int, a, b, c *float32, ldc int, alpha float32, ars, aps, bps, add int)

var (
	kernAVX    = &kernel{name: KernelAVX, mr: 6, nr: 16, fn: kern6x16}
	kernAVX512 = &kernel{name: KernelAVX512, mr: 12, nr: 32, fn: kern12x32}
)

// The kernels run where the CPU has their instructions and the OS saves
// their registers (golang.org/x/sys/cpu checks both).
func init() {
	if cpu.X86.HasAVX && cpu.X86.HasFMA {
		narrow = kernAVX
		if cpu.X86.HasAVX512F {
			wide = kernAVX512
		}
	}
	use.wide, use.narrow = wide, narrow
}
