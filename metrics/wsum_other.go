//go:build !amd64 || purego

package metrics

const useFMA = false

func wsum64FMA(dst *float64, n int, src *float64, off *int, w *float64, k int) {
	panic("metrics: no FMA kernel on this platform")
}
