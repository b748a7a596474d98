package metrics

// wsum64 sets dst[i] = sum_k w[k] * src[off[k]+i] in float64 (with fused
// multiply-adds where the CPU has them). It needs len(off) == len(w) >= 1
// and off[k]+len(dst) <= len(src).
func wsum64(dst, src []float64, off []int, w []float64) {
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
			dst[i] += sk[i] * wk
		}
	}
}
