package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// phiSlice (assembly where available) against the scalar erf32 path (the
// same bits) and against math.Erf, on values across the clamp and random
// ones, with ragged lengths.
func TestPhiSlice(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, 8, 9, 31, 64, 1000, 4096} {
		src := make([]float32, n)
		for i := range src {
			src[i] = float32(-7 + 14*float64(i)/float64(max(n-1, 1)))
			if n == 4096 {
				src[i] = float32(r.NormFloat64() * 2)
			}
		}
		for _, mulx := range []bool{false, true} {
			dst, ref := make([]float32, n), make([]float32, n)
			phiSlice(dst, src, mulx)
			phiSliceGo(ref, src, mulx)
			for i, v := range src {
				exact := 0.5 * (1 + math.Erf(float64(v)/math.Sqrt2))
				if mulx {
					exact *= float64(v)
				}
				if math.Float32bits(dst[i]) != math.Float32bits(ref[i]) {
					t.Fatalf("n=%d mulx=%v x=%v: %v, the scalar code gives %v (the bits must agree)", n, mulx, v, dst[i], ref[i])
				}
				if d := math.Abs(float64(dst[i]) - exact); d > 5e-7*math.Max(1, math.Abs(float64(v))) {
					t.Fatalf("n=%d mulx=%v x=%v: %v, exact %v", n, mulx, v, dst[i], exact)
				}
			}
		}
	}
}

func TestFillRows(t *testing.T) {
	for _, c := range []struct{ n, c int }{{0, 3}, {3, 3}, {7, 3}, {96, 32}, {1000, 7}} {
		rows := make([]float32, c.n)
		for i := range rows {
			rows[i] = -1
		}
		bias := make([]float32, c.c)
		for j := range bias {
			bias[j] = float32(j + 1)
		}
		fillRows(rows, bias)
		full := c.n / c.c * c.c
		for i, v := range rows {
			want := float32(-1) // a ragged tail is left alone
			if i < full {
				want = bias[i%c.c]
			}
			if v != want {
				t.Fatalf("n=%d c=%d: rows[%d] = %v, want %v", c.n, c.c, i, v, want)
			}
		}
	}
}
