package simd

import (
	"math"
	"sync/atomic"

	"github.com/omnihsr/omnihsr/internal/par"
)

// WSum32 sets dst[i] = sum_k w[k] * src[off[k]+i] for every i, summing the
// taps in order k = 0, 1, ... in float32 with every product rounded before
// it is added (no fused multiply-add): the order and rounding of ATen's
// interpolation loops, vectorised over i. It needs len(off) == len(w) >= 1
// and off[k]+len(dst) <= len(src).
func WSum32(dst, src []float32, off []int, w []float32) {
	n := len(dst)
	if n == 0 {
		return
	}
	_ = w[len(off)-1] // len(off) >= 1 and w as long: checked here for the assembly
	for _, o := range off {
		_ = src[o : o+n]
	}
	if useAVX {
		wsum32AVX(&dst[0], n, &src[0], &off[0], &w[0], len(off))
		return
	}
	wsum32Go(dst, src, off, w)
}

func wsum32Go(dst, src []float32, off []int, w []float32) {
	n := len(dst)
	s0 := src[off[0] : off[0]+n]
	w0 := w[0]
	for i := range dst {
		dst[i] = s0[i] * w0
	}
	for k := 1; k < len(off); k++ {
		sk := src[off[k] : off[k]+n]
		wk := w[k]
		for i := range dst {
			dst[i] += float32(sk[i] * wk) // explicit conversion: no fusion
		}
	}
}

// WSum64 sets dst[i] = sum_k w[k] * src[off[k]+i] in float64: the first
// product, then fused multiply-adds (the assembly's VFMADD231PD, or
// math.FMA, which gives the same bits on every CPU). It needs len(off) == len(w) >= 1
// and off[k]+len(dst) <= len(src).
func WSum64(dst, src []float64, off []int, w []float64) {
	n := len(dst)
	if n == 0 {
		return
	}
	_ = w[len(off)-1]
	for _, o := range off {
		_ = src[o : o+n] // bounds checked here, for the assembly too
	}
	done := 0
	if useFMA && n >= 4 {
		done = n &^ 3
		wsum64FMA(&dst[0], done, &src[0], &off[0], &w[0], len(off))
	}
	if done < n {
		wsum64Go(dst[done:], src[done:], off, w)
	}
}

func wsum64Go(dst, src []float64, off []int, w []float64) {
	n := len(dst)
	s0 := src[off[0] : off[0]+n]
	w0 := w[0]
	for i := range dst {
		dst[i] = s0[i] * w0
	}
	for k := 1; k < len(off); k++ {
		sk := src[off[k] : off[k]+n]
		wk := w[k]
		for i := range dst {
			dst[i] = math.FMA(sk[i], wk, dst[i]) // fused, as the assembly
		}
	}
}

// FiniteParallel is Finite on parts of d, one goroutine per core, each
// part at least a million values (a shorter slice is checked by the
// calling goroutine).
func FiniteParallel(d []float32) bool {
	var bad atomic.Bool
	par.Ranges(len(d), par.Parts(len(d), 1<<20, 0), func(_, lo, hi int) {
		if !Finite(d[lo:hi]) {
			bad.Store(true)
		}
	})
	return !bad.Load()
}

// Finite reports whether every value of d is finite (no NaN, no Inf).
func Finite(d []float32) bool {
	var a0, a1, a2, a3 float32
	i := 0
	if useAVX && len(d) >= 32 {
		i = len(d) &^ 31
		if !finiteAVX(&d[0], i) {
			return false
		}
	}
	for ; i+4 <= len(d); i += 4 {
		a0 += d[i] - d[i] // NaN for NaN and Inf, 0 otherwise
		a1 += d[i+1] - d[i+1]
		a2 += d[i+2] - d[i+2]
		a3 += d[i+3] - d[i+3]
	}
	for ; i < len(d); i++ {
		a0 += d[i] - d[i]
	}
	return a0+a1+a2+a3 == 0
}
