//go:build amd64 && !purego

package nn

import "golang.org/x/sys/cpu"

var usePhiFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// phiConsts are the constants of phiFMA, in the order the assembly reads
// them: 1/sqrt(2), the clamp 4, -4, the numerator a0..a6 and denominator
// b0..b4 of erf32, 0.5 and 1.
var phiConsts = [17]float32{
	invSqrt2, 4, -4,
	-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06, -5.69250639462346e-05,
	-7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02,
	-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03, -7.37332916720468e-03,
	-1.42647390514189e-02,
	0.5, 1,
}

// phiFMA sets dst[i] = Phi(src[i]) (mulx == 0) or src[i]*Phi(src[i])
// (mulx != 0) for i < n, n a multiple of 8: erf32's rational polynomial
// evaluated 8 lanes at a time with fused multiply-adds.
//
//go:noescape
func phiFMA(dst, src *float32, n, mulx int, c *float32)

// phiSlice writes Phi(x) (or x Phi(x) when mulx) of src into dst.
func phiSlice(dst, src []float32, mulx bool) {
	n := len(src)
	i := 0
	if usePhiFMA && n >= 8 {
		m := 0
		if mulx {
			m = 1
		}
		i = n &^ 7
		phiFMA(&dst[0], &src[0], i, m, &phiConsts[0])
	}
	phiSliceGo(dst[i:n], src[i:n], mulx)
}
