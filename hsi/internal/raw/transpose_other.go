//go:build !amd64 || purego

package raw

const useAVX = false

func transpose8AVX(dst *float32, ld int, src *float32, B int, n int) bool {
	panic("raw: transpose8AVX without AVX")
}
