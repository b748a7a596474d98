//go:build !amd64 || purego

package resample

const useAVX = false

func wsum32AVX(dst *float32, n int, src *float32, off *int, w *float32, k int) {
	panic("resample: no AVX kernel on this platform")
}
