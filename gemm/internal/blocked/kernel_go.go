package blocked

import (
	"unsafe"

	"github.com/omnihsr/omnihsr/internal/fma"
)

// kernGo is the pure-Go micro-kernel (4 x 4 tile), with the same strides
// and the same arithmetic as the assembly kernels: each element of the
// tile is a chain of fused multiply-adds from zero over the k steps
// (fma.F32, one rounding each, as VFMADD231PS), then alpha times that sum,
// rounded, added to C (or stored). So every kernel, and every tiling,
// gives every element of C the same bits.
var kernGo = &kernel{name: KernelGo, mr: 4, nr: 4, fn: kern4x4Go}

func kern4x4Go(k int, a, b, c *float32, ldc int, alpha float32, ars, aps, bps, add int) {
	var c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33 float32
	ap, bp := unsafe.Pointer(a), unsafe.Pointer(b)
	for range k {
		b0 := *(*float32)(bp)
		b1 := *(*float32)(unsafe.Add(bp, 4))
		b2 := *(*float32)(unsafe.Add(bp, 8))
		b3 := *(*float32)(unsafe.Add(bp, 12))
		a0 := *(*float32)(ap)
		c00, c01, c02, c03 = fma.F32(a0, b0, c00), fma.F32(a0, b1, c01), fma.F32(a0, b2, c02), fma.F32(a0, b3, c03)
		a1 := *(*float32)(unsafe.Add(ap, ars))
		c10, c11, c12, c13 = fma.F32(a1, b0, c10), fma.F32(a1, b1, c11), fma.F32(a1, b2, c12), fma.F32(a1, b3, c13)
		a2 := *(*float32)(unsafe.Add(ap, 2*ars))
		c20, c21, c22, c23 = fma.F32(a2, b0, c20), fma.F32(a2, b1, c21), fma.F32(a2, b2, c22), fma.F32(a2, b3, c23)
		a3 := *(*float32)(unsafe.Add(ap, 3*ars))
		c30, c31, c32, c33 = fma.F32(a3, b0, c30), fma.F32(a3, b1, c31), fma.F32(a3, b2, c32), fma.F32(a3, b3, c33)
		ap, bp = unsafe.Add(ap, aps), unsafe.Add(bp, bps)
	}
	acc := [4][4]float32{
		{c00, c01, c02, c03},
		{c10, c11, c12, c13},
		{c20, c21, c22, c23},
		{c30, c31, c32, c33},
	}
	cs := unsafe.Slice(c, 3*ldc+4)
	for r := range 4 {
		row := cs[r*ldc : r*ldc+4]
		for j := range row {
			t := float32(alpha * acc[r][j]) // rounded: no fusion with the add
			if add != 0 {
				row[j] += t
			} else {
				row[j] = t
			}
		}
	}
}
