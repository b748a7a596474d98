//go:build amd64 && !purego

package nn

import "golang.org/x/sys/cpu"

var useESSAAVX = cpu.X86.HasAVX2

// essaTokensAVX writes essaTokenK (q == 0) or essaTokenQ (q != 0) of n
// tokens, token i being src[i*stride:][:c] and its result dst[i*c:][:c],
// for c a positive multiple of 8: the same operations in the same order,
// eight channels at a time.
//
//go:noescape
func essaTokensAVX(src *float32, stride int, dst *float32, c, n, q int)
