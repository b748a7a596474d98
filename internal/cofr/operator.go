package cofr

import "github.com/omnihsr/omnihsr/hsi"

// operatorRow computes r_n = sum_q k_nq x(q) for the primitives of low-res
// row i, on all B bands, with replicate padding: dst holds W*B values.
func operatorRow(x *hsi.Cube, k []float32, i int, dst []float32) {
	operatorRowCols(x, k, i, 0, x.W, dst)
}

// operatorRowCols is operatorRow for the primitives of columns [j0, j1)
// only: dst holds (j1-j0)*B values.
func operatorRowCols(x *hsi.Cube, k []float32, i, j0, j1 int, dst []float32) {
	B, h, w := x.B, x.H, x.W
	clear(dst)
	for j := j0; j < j1; j++ {
		n := i*w + j
		kn := k[n*Taps : (n+1)*Taps]
		d := dst[(j-j0)*B : (j-j0+1)*B]
		for t, kv := range kn {
			if kv == 0 {
				continue
			}
			yy := clampInt(i+t/5-2, 0, h-1)
			xx := clampInt(j+t%5-2, 0, w-1)
			axpy(d, x.Data[(yy*w+xx)*B:(yy*w+xx+1)*B], kv)
		}
	}
}

// operatorGradRow computes dL/dk for the primitives of low-res row i from
// dL/dr (dr holds W*B values of row i): dk_nq = <dr_n, x(q)>.
func operatorGradRow(x *hsi.Cube, dr []float32, i int, dk []float32) {
	B, h, w := x.B, x.H, x.W
	for j := 0; j < w; j++ {
		n := i*w + j
		g := dr[j*B : (j+1)*B]
		for t := 0; t < Taps; t++ {
			yy := clampInt(i+t/5-2, 0, h-1)
			xx := clampInt(j+t%5-2, 0, w-1)
			dk[n*Taps+t] = dot(g, x.Data[(yy*w+xx)*B:(yy*w+xx+1)*B])
		}
	}
}

func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// axpy sets d[i] += a*s[i].
func axpy(d, s []float32, a float32) {
	s = s[:len(d)]
	if useAVX && len(d) >= 8 {
		axpyAVX(&d[0], &s[0], len(d), a)
		return
	}
	for i := range d {
		d[i] += float32(a * s[i]) // rounded: no fusion (arm64), as the assembly
	}
}

// dot returns sum_i a[i]*b[i] (float32 partial sums).
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	if useAVX && len(a) >= 8 {
		return dotAVX(&a[0], &b[0], len(a))
	}
	var s float32
	for i, v := range a {
		s += float32(v * b[i]) // rounded: no fusion (arm64)
	}
	return s
}
