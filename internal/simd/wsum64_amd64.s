//go:build amd64 && !purego

#include "textflag.h"

// func wsum64FMA(dst *float64, n int, src *float64, off *int, w *float64, k int)
// dst[i] = sum_{t<k} w[t]*src[off[t]+i], i < n (n a multiple of 4).
TEXT ·wsum64FMA(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ src+16(FP), SI
	MOVQ off+24(FP), R8
	MOVQ w+32(FP), R9
	MOVQ k+40(FP), R10

loop16:
	CMPQ CX, $16
	JLT  loop4
	MOVQ (R8), AX
	LEAQ (SI)(AX*8), BX
	VBROADCASTSD (R9), Y4
	VMULPD (BX), Y4, Y0
	VMULPD 32(BX), Y4, Y1
	VMULPD 64(BX), Y4, Y2
	VMULPD 96(BX), Y4, Y3
	MOVQ $1, DX

k16:
	CMPQ DX, R10
	JGE  store16
	MOVQ (R8)(DX*8), AX
	LEAQ (SI)(AX*8), BX
	VBROADCASTSD (R9)(DX*8), Y4
	VFMADD231PD (BX), Y4, Y0
	VFMADD231PD 32(BX), Y4, Y1
	VFMADD231PD 64(BX), Y4, Y2
	VFMADD231PD 96(BX), Y4, Y3
	INCQ DX
	JMP  k16

store16:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ $128, DI
	ADDQ $128, SI
	SUBQ $16, CX
	JMP  loop16

loop4:
	CMPQ CX, $4
	JLT  done
	MOVQ (R8), AX
	LEAQ (SI)(AX*8), BX
	VBROADCASTSD (R9), Y4
	VMULPD (BX), Y4, Y0
	MOVQ $1, DX

k4:
	CMPQ DX, R10
	JGE  store4
	MOVQ (R8)(DX*8), AX
	LEAQ (SI)(AX*8), BX
	VBROADCASTSD (R9)(DX*8), Y4
	VFMADD231PD (BX), Y4, Y0
	INCQ DX
	JMP  k4

store4:
	VMOVUPD Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	SUBQ $4, CX
	JMP  loop4

done:
	VZEROUPPER
	RET
