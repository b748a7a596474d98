package refgemm

import "testing"

func TestSgemm(t *testing.T) {
	// A = [1 2 3; 4 5 6] (2x3), B = [1 0; 0 1; 1 1] (3x2):
	// A B = [4 5; 10 11].
	a := []float32{1, 2, 3, 4, 5, 6}
	b := []float32{1, 0, 0, 1, 1, 1}
	aT := []float32{1, 4, 2, 5, 3, 6}
	bT := []float32{1, 0, 1, 0, 1, 1}
	for _, tc := range []struct {
		tA, tB   bool
		a, b     []float32
		lda, ldb int
	}{{false, false, a, b, 3, 2}, {true, false, aT, b, 2, 2}, {false, true, a, bT, 3, 3}, {true, true, aT, bT, 2, 3}} {
		c := []float32{1, 1, 1, 1}
		Sgemm(tc.tA, tc.tB, 2, 2, 3, 2, tc.a, tc.lda, tc.b, tc.ldb, 0.5, c, 2)
		want := []float32{8.5, 10.5, 20.5, 22.5}
		for i := range c {
			if c[i] != want[i] {
				t.Fatalf("transA=%v transB=%v: C = %v, want %v", tc.tA, tc.tB, c, want)
			}
		}
		// beta = 0: C is not read (NaN stays out).
		nan := float32(0)
		nan /= nan
		c = []float32{nan, nan, nan, nan}
		Sgemm(tc.tA, tc.tB, 2, 2, 3, 1, tc.a, tc.lda, tc.b, tc.ldb, 0, c, 2)
		if c[0] != 4 || c[1] != 5 || c[2] != 10 || c[3] != 11 {
			t.Fatalf("transA=%v transB=%v beta=0: C = %v", tc.tA, tc.tB, c)
		}
	}
}
