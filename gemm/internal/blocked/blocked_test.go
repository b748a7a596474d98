package blocked

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/gemm/internal/refgemm"
)

// TestBlocks covers every blocking edge: m across mc and mr, n across nc
// and nr, k across kc, with both kernels.
func TestBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	defer selectKernels(hasAVX512, hasAVX2)
	for _, kern := range []string{"avx512", "avx2", "gonum"} {
		switch kern {
		case "avx512":
			if !hasAVX512 {
				t.Log("no AVX-512 here")
				continue
			}
			selectKernels(true, true)
		case "avx2":
			if !hasAVX2 {
				t.Log("no AVX2 here")
				continue
			}
			selectKernels(false, true)
		}
		ForceGonum = kern == "gonum"
		t.Logf("kernel %s", Kernel())
		for _, d := range [][3]int{{1, 1, 1}, {6, 16, 1}, {12, 32, 5}, {13, 33, 7}, {24, 64, 9}, {30, 70, 260}, {25, 300, 3}, {7, 17, 257}, {25, 70, 300}, {97, 2049 + 16, 3}, {200, 40, 600}, {5, 2100, 20}, {12, 32, 0}, {100, 32, 600}, {30, 16, 300}, {24, 32, 1152}} {
			for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
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
				Sgemm(tr[0], tr[1], m, n, k, 0.75, a, lda, b, ldb, 0.5, c, ldc)
				refgemm.Sgemm(tr[0], tr[1], m, n, k, 0.75, a, lda, b, ldb, 0.5, want, ldc)
				for i := range c {
					if math.Abs(float64(c[i]-want[i])) > 1e-4*math.Sqrt(float64(k+1)) {
						t.Fatalf("%s %v trans %v: C[%d] = %v, want %v", Kernel(), d, tr, i, c[i], want[i])
					}
				}
			}
		}
	}
	ForceGonum = false
}

// Reading A in place (a transposed A at small n, whatever m) gives the
// same bits as packing it: the products of the COFR renderer's shapes equal
// the same products with A at a row stride of 4 KB, which is always packed.
func TestInPlaceSameBits(t *testing.T) {
	if narrow == nil {
		t.Skip("no assembly kernel here")
	}
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
