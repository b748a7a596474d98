// Package refgemm is the definition of gemm.Sgemm, computed in float64,
// that the tests of package gemm and of its backends compare against. Only
// tests import it.
package refgemm

// Sgemm sets C = alpha * op(A) op(B) + beta * C with gemm.Sgemm's
// row-major contract, summing each dot product in float64 (C is not read
// when beta is 0).
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for p := 0; p < k; p++ {
				var av, bv float32
				if transA {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if transB {
					bv = b[j*ldb+p]
				} else {
					bv = b[p*ldb+j]
				}
				s += float64(av) * float64(bv)
			}
			v := float64(alpha) * s
			if beta != 0 {
				v += float64(beta) * float64(c[i*ldc+j])
			}
			c[i*ldc+j] = float32(v)
		}
	}
}
