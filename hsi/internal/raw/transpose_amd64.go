//go:build amd64 && !purego

package raw

import "golang.org/x/sys/cpu"

var useAVX = cpu.X86.HasAVX

// transpose8AVX transposes n pixels (n a multiple of 8) of 8 bands:
// dst[j*ld+p] = src[p*B+j] for j < 8, p < n, and reports whether every
// value moved is finite.
//
//go:noescape
func transpose8AVX(dst *float32, ld int, src *float32, B int, n int) bool
