//go:build amd64 && !purego

#include "textflag.h"

// func wsum32AVX(dst *float32, n int, src *float32, off *int, w *float32, k int)
// dst[i] = sum_{t<k} w[t]*src[off[t]+i], i < n, taps summed in order, each
// product rounded before the add: 32 and 8 lanes at a time, then one.
TEXT ·wsum32AVX(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ src+16(FP), SI
	MOVQ off+24(FP), R8
	MOVQ w+32(FP), R9
	MOVQ k+40(FP), R10

loop32:
	CMPQ CX, $32
	JLT  loop8
	MOVQ (R8), AX
	LEAQ (SI)(AX*4), BX
	VBROADCASTSS (R9), Y4
	VMULPS (BX), Y4, Y0
	VMULPS 32(BX), Y4, Y1
	VMULPS 64(BX), Y4, Y2
	VMULPS 96(BX), Y4, Y3
	MOVQ $1, DX

k32:
	CMPQ DX, R10
	JGE  store32
	MOVQ (R8)(DX*8), AX
	LEAQ (SI)(AX*4), BX
	VBROADCASTSS (R9)(DX*4), Y4
	VMULPS (BX), Y4, Y5
	VMULPS 32(BX), Y4, Y6
	VMULPS 64(BX), Y4, Y7
	VMULPS 96(BX), Y4, Y8
	VADDPS Y5, Y0, Y0
	VADDPS Y6, Y1, Y1
	VADDPS Y7, Y2, Y2
	VADDPS Y8, Y3, Y3
	INCQ DX
	JMP  k32

store32:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, DI
	ADDQ $128, SI
	SUBQ $32, CX
	JMP  loop32

loop8:
	CMPQ CX, $8
	JLT  loop1
	MOVQ (R8), AX
	LEAQ (SI)(AX*4), BX
	VBROADCASTSS (R9), Y4
	VMULPS (BX), Y4, Y0
	MOVQ $1, DX

k8:
	CMPQ DX, R10
	JGE  store8
	MOVQ (R8)(DX*8), AX
	LEAQ (SI)(AX*4), BX
	VBROADCASTSS (R9)(DX*4), Y4
	VMULPS (BX), Y4, Y5
	VADDPS Y5, Y0, Y0
	INCQ DX
	JMP  k8

store8:
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	SUBQ $8, CX
	JMP  loop8

loop1:
	CMPQ CX, $1
	JLT  done
	MOVQ (R8), AX
	LEAQ (SI)(AX*4), BX
	VMOVSS (BX), X0
	VMULSS (R9), X0, X0
	MOVQ $1, DX

k1:
	CMPQ DX, R10
	JGE  store1
	MOVQ (R8)(DX*8), AX
	LEAQ (SI)(AX*4), BX
	VMOVSS (BX), X5
	VMULSS (R9)(DX*4), X5, X5
	VADDSS X5, X0, X0
	INCQ DX
	JMP  k1

store1:
	VMOVSS X0, (DI)
	ADDQ $4, DI
	ADDQ $4, SI
	DECQ CX
	JMP  loop1

done:
	VZEROUPPER
	RET

// func finiteAVX(d *float32, n int) bool
// Whether every value of d[0:n] is finite, n a multiple of 32: x - x is 0
// for a finite x and NaN otherwise; the differences are added up in four
// accumulators and the sum compared with itself.
TEXT ·finiteAVX(SB), NOSPLIT, $0-17
	MOVQ   d+0(FP), SI
	MOVQ   n+8(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

floop:
	TESTQ   CX, CX
	JZ      fdone
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VSUBPS  Y4, Y4, Y4
	VSUBPS  Y5, Y5, Y5
	VSUBPS  Y6, Y6, Y6
	VSUBPS  Y7, Y7, Y7
	VADDPS  Y4, Y0, Y0
	VADDPS  Y5, Y1, Y1
	VADDPS  Y6, Y2, Y2
	VADDPS  Y7, Y3, Y3
	ADDQ    $128, SI
	SUBQ    $32, CX
	JMP     floop

fdone:
	VADDPS   Y1, Y0, Y0
	VADDPS   Y3, Y2, Y2
	VADDPS   Y2, Y0, Y0
	VCMPPS   $3, Y0, Y0, Y0 // unordered: NaN lanes
	VMOVMSKPS Y0, AX
	TESTL    AX, AX
	SETEQ    ret+16(FP)
	VZEROUPPER
	RET
