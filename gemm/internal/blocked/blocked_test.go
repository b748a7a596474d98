package blocked

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/gemm/internal/refgemm"
	"github.com/omnihsr/omnihsr/internal/fma"
)

// spec is the arithmetic every kernel must reproduce bit for bit, written
// element by element: C scaled by beta, then for each block of kc steps a
// chain of fused multiply-adds from zero, times alpha, added to C (stored
// in the first block when beta is 0).
func spec(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	opA := func(i, p int) float32 {
		if transA {
			return a[p*lda+i]
		}
		return a[i*lda+p]
	}
	opB := func(p, j int) float32 {
		if transB {
			return b[j*ldb+p]
		}
		return b[p*ldb+j]
	}
	for i := range m {
		for j := range n {
			ci := &c[i*ldc+j]
			if beta == 0 {
				*ci = 0
			} else if beta != 1 {
				*ci *= beta
			}
			for pc := 0; pc < k; pc += kc {
				var acc float32
				for p := pc; p < min(pc+kc, k); p++ {
					acc = fma.F32(opA(i, p), opB(p, j), acc)
				}
				t := float32(alpha * acc)
				if beta == 0 && pc == 0 {
					*ci = t
				} else {
					*ci += t
				}
			}
		}
	}
}

// TestBlocks covers every blocking edge: m across mc and mr, n across nc
// and nr, k across kc, with every kernel this CPU runs. Each must give the
// bits of spec, and agree with the float64 reference within rounding.
func TestBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	defer Use("auto")
	for _, kern := range Available() {
		if !Use(kern) {
			t.Fatalf("Use(%q) refused an available kernel", kern)
		}
		t.Logf("kernel %s", Kernel())
		for _, d := range [][3]int{{1, 1, 1}, {6, 16, 1}, {12, 32, 5}, {13, 33, 7}, {24, 64, 9}, {30, 70, 260}, {25, 300, 3}, {7, 17, 257}, {25, 70, 300}, {97, 2049 + 16, 3}, {200, 40, 600}, {5, 2100, 20}, {12, 32, 0}, {100, 32, 600}, {30, 16, 300}, {24, 32, 1152}} {
			for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				for _, beta := range []float32{0.5, 0, 1} {
					m, n, k := d[0], d[1], d[2]
					lda, ldb, ldc := k+1, n+2, n+3
					if tr[0] {
						lda = m + 1
					}
					if tr[1] {
						ldb = k + 2
					} else if n == 32 || n == 16 {
						ldb = n // B's rows exactly one panel wide: read in place
					}
					fill := func(n int) []float32 {
						s := make([]float32, n)
						for i := range s {
							s[i] = float32(r.NormFloat64())
						}
						return s
					}
					a, b := fill(max(m, k)*lda), fill(max(n, k)*ldb)
					c := fill(m * ldc)
					want := append([]float32(nil), c...)
					bits := append([]float32(nil), c...)
					Sgemm(tr[0], tr[1], m, n, k, 0.75, a, lda, b, ldb, beta, c, ldc)
					refgemm.Sgemm(tr[0], tr[1], m, n, k, 0.75, a, lda, b, ldb, beta, want, ldc)
					spec(tr[0], tr[1], m, n, k, 0.75, a, lda, b, ldb, beta, bits, ldc)
					for i := range c {
						if math.Float32bits(c[i]) != math.Float32bits(bits[i]) {
							t.Fatalf("%s %v trans %v beta %v: C[%d] = %v, the specified arithmetic gives %v", Kernel(), d, tr, beta, i, c[i], bits[i])
						}
						if math.Abs(float64(c[i]-want[i])) > 1e-4*math.Sqrt(float64(k+1)) {
							t.Fatalf("%s %v trans %v: C[%d] = %v, want %v", Kernel(), d, tr, i, c[i], want[i])
						}
					}
				}
			}
		}
	}
}

// Reading A in place (a transposed A at small n, whatever m) gives the
// same bits as packing it: the products of the COFR renderer's shapes equal
// the same products with A at a row stride of 4 KB, which is always packed.
func TestInPlaceSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const packed = 1024 // a row stride of 4 KB: A is packed
	for _, d := range [][3]int{{64, 102, 36}, {64, 31, 49}, {64, 15, 49}, {40, 145, 300}, {61, 103, 25}, {200, 16, 40}} {
		m, n, k := d[0], d[1], d[2]
		a := make([]float32, k*m) // op(A) = a^T: k rows of m pixels
		ap := make([]float32, k*packed)
		for i := range a {
			a[i] = r.Float32()
			ap[i/m*packed+i%m] = a[i]
		}
		b := make([]float32, k*n)
		for i := range b {
			b[i] = float32(r.NormFloat64())
		}
		got := make([]float32, m*n)
		Sgemm(true, false, m, n, k, 1, a, m, b, n, 0, got, n)
		want := make([]float32, m*n)
		Sgemm(true, false, m, n, k, 1, ap, packed, b, n, 0, want, n)
		for i, v := range got {
			if math.Float32bits(v) != math.Float32bits(want[i]) {
				t.Fatalf("%v: C[%d] = %v in place, %v packed", d, i, v, want[i])
			}
		}
	}
}
