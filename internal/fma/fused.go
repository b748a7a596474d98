//go:build arm64 || ppc64 || ppc64le || s390x || riscv64 || amd64.v3

package fma

// F32 returns a*b + c rounded once to float32. On these architectures
// (and amd64 built with GOAMD64=v3) the compiler turns the expression
// into the CPU's fused multiply-add instruction (FMADDS on arm64), which
// the Go specification allows and TestF32Cases checks.
func F32(a, b, c float32) float32 { return a*b + c }

// Native reports that F32 is the compiler's fused instruction here. Where
// it is, the compiler fuses plain x*y + z elsewhere in float code too, so
// results can differ in the last bits from a build where Native is false.
const Native = true
