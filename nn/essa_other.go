//go:build !amd64 || purego

package nn

const useESSAAVX = false

func essaTokensAVX(src *float32, stride int, dst *float32, c, n, q int) {
	panic("nn: no AVX2 ESSA kernel on this platform")
}
