package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestWSum32AssemblyMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]float32, 4000)
	for i := range src {
		src[i] = r.Float32()*2 - 1
	}
	for _, n := range []int{1, 7, 8, 9, 31, 32, 33, 145, 500} {
		for _, k := range []int{1, 2, 4, 5, 16, 33} {
			off := make([]int, k)
			w := make([]float32, k)
			for i := range off {
				off[i] = r.IntN(len(src) - n)
				w[i] = r.Float32() - 0.3
			}
			got := make([]float32, n)
			want := make([]float32, n)
			WSum32(got, src, off, w)
			wsum32Go(want, src, off, w)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("n=%d k=%d: element %d = %v, scalar Go gives %v", n, k, i, got[i], want[i])
				}
			}
			// And the definition, in float64, to float32 accuracy.
			for i := range got {
				var s float64
				for j := range off {
					s += float64(w[j]) * float64(src[off[j]+i])
				}
				if math.Abs(s-float64(got[i])) > 1e-5 {
					t.Fatalf("n=%d k=%d: element %d = %v, want %v", n, k, i, got[i], s)
				}
			}
		}
	}
	if !useAVX {
		t.Log("no AVX on this machine: only the Go kernel was exercised")
	}
}

func TestWSum64AssemblyMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	src := make([]float64, 3000)
	for i := range src {
		src[i] = r.Float64()
	}
	for _, n := range []int{1, 3, 4, 5, 16, 17, 100} {
		for _, k := range []int{1, 2, 11} {
			off := make([]int, k)
			w := make([]float64, k)
			for i := range off {
				off[i] = r.IntN(len(src) - n)
				w[i] = r.Float64() - 0.5
			}
			got := make([]float64, n)
			want := make([]float64, n)
			WSum64(got, src, off, w)
			wsum64Go(want, src, off, w)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("n=%d k=%d: element %d = %v, the Go code gives %v (the bits must agree)", n, k, i, got[i], want[i])
				}
			}
		}
	}
	if !useFMA {
		t.Log("no AVX+FMA on this machine: only the Go kernel was exercised")
	}
}

func TestWSumEmptyDst(t *testing.T) {
	// A zero-length destination is a no-op, whatever the taps.
	WSum32(nil, nil, nil, nil)
	WSum64(nil, nil, nil, nil)
}

func TestFinite(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, n := range []int{0, 1, 3, 4, 5, 8, 13, 31, 32, 33, 64, 97, 200} {
		d := make([]float32, n)
		for i := range d {
			d[i] = float32(i) - 2.5
		}
		if !Finite(d) {
			t.Errorf("n=%d: finite values reported as non-finite", n)
		}
		for i := range n {
			for _, bad := range []float32{nan, inf, -inf} {
				e := append([]float32(nil), d...)
				e[i] = bad
				if Finite(e) {
					t.Errorf("n=%d: %v at %d not found", n, bad, i)
				}
			}
		}
	}
	// Large finite values whose sum would overflow are still finite.
	big := []float32{math.MaxFloat32, math.MaxFloat32, -math.MaxFloat32, math.MaxFloat32, math.MaxFloat32}
	for len(big) < 40 { // and on the vector path
		big = append(big, big...)
	}
	if !Finite(big) {
		t.Error("MaxFloat32 values reported as non-finite")
	}
}

// FiniteParallel finds a NaN or an infinity in any of its parts.
func TestFiniteParallel(t *testing.T) {
	n := 3<<20 + 5
	d := make([]float32, n)
	for i := range d {
		d[i] = float32(i%1000) - 500
	}
	if !FiniteParallel(d) {
		t.Fatal("finite values reported as non-finite")
	}
	for _, i := range []int{0, 1 << 20, n / 2, n - 1} {
		for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(-1))} {
			old := d[i]
			d[i] = bad
			if FiniteParallel(d) {
				t.Errorf("%v at %d of %d not found", bad, i, n)
			}
			d[i] = old
		}
	}
}
