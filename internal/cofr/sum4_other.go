//go:build !amd64 || purego

package cofr

const useAVX = false

func sum4AVX(dst *float32, n int, s0, s1, s2, s3 *float32, w *[4]float32, t *float32) {
	panic("cofr: no AVX kernel on this platform")
}

func mulAVX(d, s *float32, n int, tiny float32) {
	panic("cofr: no AVX kernel on this platform")
}

func axpyAVX(d, s *float32, n int, a float32) {
	panic("cofr: no AVX kernel on this platform")
}

func dotAVX(a, b *float32, n int) float32 {
	panic("cofr: no AVX kernel on this platform")
}

func fillRowsAVX(out *float32, sum *float64, v, e *float64, nb, na, stride int, r, ey, fy float64) {
	panic("cofr: no AVX kernel on this platform")
}
