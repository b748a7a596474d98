//go:build arm64 || ppc64 || ppc64le || s390x || riscv64 || amd64.v3

package fma

// F32 returns a*b + c rounded once to float32. On these architectures
// (and amd64 built with GOAMD64=v3) the compiler turns the expression
// into the CPU's fused multiply-add instruction (FMADDS on arm64), which
// the Go specification allows and TestF32Cases checks.
func F32(a, b, c float32) float32 { return a*b + c }
