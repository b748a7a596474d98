//go:build amd64 && !purego

package nn

import "golang.org/x/sys/cpu"

// useNormAVX selects the AVX2 kernels of the per-pixel normalisations
// (ESSA's tokens and LayerNorm).
var useNormAVX = cpu.X86.HasAVX2

// essaTokensAVX writes essaTokenK (q == 0) or essaTokenQ (q != 0) of n
// tokens, token i being src[i*stride:][:c] and its result dst[i*c:][:c],
// for c a positive multiple of 8: the same operations in the same order,
// eight channels at a time.
//
//go:noescape
func essaTokensAVX(src *float32, stride int, dst *float32, c, n, q int)

// layerNormAVX is layerNormRowsGo on n pixels of c channels (x, out:
// n*c values; mean, rstd: n), c a positive multiple of 8: the same
// operations in the same order, eight channels at a time.
//
//go:noescape
func layerNormAVX(x, out, mean, rstd, gm, bt *float32, c, n int, invC, eps float32)

// sqSumsAVX is sqSumsGo on n rows of c values, c a positive multiple of 4.
//
//go:noescape
func sqSumsAVX(acc *float64, x *float32, c, n int)
