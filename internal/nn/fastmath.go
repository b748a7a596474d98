package nn

import (
	"math"

	"github.com/omnihsr/omnihsr/internal/fma"
)

// erf32 is erf for float32 arguments: the rational approximation used by
// Eigen and XLA (odd polynomial over even polynomial on [-4, 4], where
// |erf| reaches 1 in float32). Its error is a few float32 ulps; see
// TestErf32. The polynomials are evaluated with fused multiply-adds
// (fma.F32), as the assembly of phiSlice does, so both give the same bits.
func erf32(x float32) float32 {
	x = min(max(x, -4), 4)
	x2 := x * x
	p := fma.F32(x2, -2.72614225801306e-10, 2.77068142495902e-08)
	p = fma.F32(p, x2, -2.10102402082508e-06)
	p = fma.F32(p, x2, -5.69250639462346e-05)
	p = fma.F32(p, x2, -7.34990630326855e-04)
	p = fma.F32(p, x2, -2.95459980854025e-03)
	p = fma.F32(p, x2, -1.60960333262415e-02)
	p *= x
	q := fma.F32(x2, -1.45660718464996e-05, -2.13374055278905e-04)
	q = fma.F32(q, x2, -1.68282697438203e-03)
	q = fma.F32(q, x2, -7.37332916720468e-03)
	q = fma.F32(q, x2, -1.42647390514189e-02)
	return p / q
}

// exp32 is e^x for float32 arguments with relative error below 2e-7 for x
// in [-87, 88]: 2^(x log2 e) split into an integer power (exponent bits)
// and a degree-6 polynomial for 2^f, f in [-0.5, 0.5]. Below -87 it
// returns 0, above 88 +Inf.
func exp32(x float32) float32 {
	if x < -87 {
		return 0
	}
	if x > 88 {
		return float32(math.Inf(1))
	}
	const log2e = 1.44269504088896341
	// Round t to the nearest integer: adding and subtracting 1.5*2^23
	// leaves no fraction bits in float32.
	const magic = 12582912
	t := x * log2e
	n := (t + magic) - magic
	// f = x - n*ln2, split ln2 in two parts (Cody-Waite) for accuracy.
	f := x - n*0.693145751953125
	f -= n * 1.428606765330187045e-06
	// e^f on [-ln2/2, ln2/2].
	p := float32(1.0 / 720)
	p = p*f + 1.0/120
	p = p*f + 1.0/24
	p = p*f + 1.0/6
	p = p*f + 0.5
	p = p*f + 1
	p = p*f + 1
	return p * math.Float32frombits(uint32(int32(n)+127)<<23)
}

const invSqrt2 = 0.70710678118654752440
const invSqrt2Pi = 0.39894228040143267794

// gelu is x * Phi(x) with Phi the standard normal CDF (PyTorch's default,
// erf form), multiplied in phiSlice's order.
func gelu(x float32) float32 { return x * phi(x) }

// phi is the standard normal CDF.
func phi(x float32) float32 { return (1 + erf32(x*invSqrt2)) * 0.5 }

// geluGrad is d gelu / dx = Phi(x) + x phi(x).
func geluGrad(x float32) float32 {
	return phi(x) + x*invSqrt2Pi*exp32(-0.5*x*x)
}

// phiSliceGo is phiSlice in Go: dst[i] = Phi(src[i]), times src[i] when mulx.
func phiSliceGo(dst, src []float32, mulx bool) {
	dst = dst[:len(src)]
	if mulx {
		for i, v := range src {
			dst[i] = gelu(v)
		}
		return
	}
	for i, v := range src {
		dst[i] = phi(v)
	}
}
