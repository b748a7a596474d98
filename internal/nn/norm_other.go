//go:build !amd64 || purego

package nn

const useNormAVX = false

func essaTokensAVX(src *float32, stride int, dst *float32, c, n, q int) {
	panic("nn: no AVX2 ESSA kernel on this platform")
}

func layerNormAVX(x, out, mean, rstd, gm, bt *float32, c, n int, invC, eps float32) {
	panic("nn: no AVX2 LayerNorm kernel on this platform")
}

func sqSumsAVX(acc *float64, x *float32, c, n int) {
	panic("nn: no AVX2 kernel on this platform")
}
