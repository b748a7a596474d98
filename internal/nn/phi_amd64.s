//go:build amd64 && !purego

#include "textflag.h"

// func phiFMA(dst, src *float32, n, mulx int, c *float32)
// Constants c: [0] 1/sqrt2, [1] 4, [2] -4, [3..9] a0..a6, [10..14] b0..b4,
// [15] 0.5, [16] 1. Per lane: x = clamp(v/sqrt2, -4, 4), x2 = x*x,
// p = x*(((((a0 x2 + a1) x2 + a2) x2 + a3) x2 + a4) x2 + a5) x2 + a6),
// q = (((b0 x2 + b1) x2 + b2) x2 + b3) x2 + b4, Phi = 0.5 + 0.5 p/q.
TEXT ·phiFMA(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ mulx+24(FP), DX
	MOVQ c+32(FP), R8
	VBROADCASTSS 0(R8), Y15  // 1/sqrt2
	VBROADCASTSS 4(R8), Y14  // 4
	VBROADCASTSS 8(R8), Y13  // -4
	VBROADCASTSS 60(R8), Y12 // 0.5
	VBROADCASTSS 12(R8), Y11 // a0
	VBROADCASTSS 40(R8), Y10 // b0

loop:
	CMPQ CX, $8
	JLT  done
	VMOVUPS (SI), Y0       // v
	VMULPS  Y15, Y0, Y1    // x = v/sqrt2
	VMINPS  Y14, Y1, Y1
	VMAXPS  Y13, Y1, Y1
	VMULPS  Y1, Y1, Y2     // x2

	// numerator
	VMOVAPS      Y11, Y3
	VBROADCASTSS 16(R8), Y4
	VFMADD213PS  Y4, Y2, Y3 // p = p*x2 + a1
	VBROADCASTSS 20(R8), Y4
	VFMADD213PS  Y4, Y2, Y3
	VBROADCASTSS 24(R8), Y4
	VFMADD213PS  Y4, Y2, Y3
	VBROADCASTSS 28(R8), Y4
	VFMADD213PS  Y4, Y2, Y3
	VBROADCASTSS 32(R8), Y4
	VFMADD213PS  Y4, Y2, Y3
	VBROADCASTSS 36(R8), Y4
	VFMADD213PS  Y4, Y2, Y3
	VMULPS       Y1, Y3, Y3 // p *= x

	// denominator
	VMOVAPS      Y10, Y5
	VBROADCASTSS 44(R8), Y4
	VFMADD213PS  Y4, Y2, Y5
	VBROADCASTSS 48(R8), Y4
	VFMADD213PS  Y4, Y2, Y5
	VBROADCASTSS 52(R8), Y4
	VFMADD213PS  Y4, Y2, Y5
	VBROADCASTSS 56(R8), Y4
	VFMADD213PS  Y4, Y2, Y5

	VDIVPS       Y5, Y3, Y3 // erf = p/q
	VBROADCASTSS 64(R8), Y4 // 1
	VADDPS       Y4, Y3, Y3 // 1 + erf
	VMULPS       Y12, Y3, Y3 // Phi
	CMPQ         DX, $0
	JEQ          store
	VMULPS       Y0, Y3, Y3 // v * Phi

store:
	VMOVUPS Y3, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JMP     loop

done:
	VZEROUPPER
	RET
