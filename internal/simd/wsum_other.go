//go:build !amd64 || purego

package simd

const (
	useAVX = false
	useFMA = false
)

func wsum32AVX(dst *float32, n int, src *float32, off *int, w *float32, k int) {
	panic("simd: no AVX kernel on this platform")
}

func wsum64FMA(dst *float64, n int, src *float64, off *int, w *float64, k int) {
	panic("simd: no FMA kernel on this platform")
}

func finiteAVX(d *float32, n int) bool {
	panic("simd: no AVX kernel on this platform")
}
