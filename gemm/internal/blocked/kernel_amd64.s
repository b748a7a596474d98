//go:build amd64 && !purego

#include "textflag.h"

// Micro-kernels: C[tile] += alpha * A * B over k steps (add != 0), or
// C[tile] = alpha * A * B, C not read (add == 0).
//
//	func kernNxM(k int, a, b, c *float32, ldc int, alpha float32, ars, aps, bps, add int)
//
// Row r of A at step p is the float at a + r*ars + p*aps bytes (a packed
// panel: ars = 4, aps = 4*mr; A in place: ars = 4*lda, aps = 4). The B
// row of step p is the nr floats at b + p*bps bytes (packed: bps = 4*nr; in
// place: bps = 4*ldb). c has row stride ldc floats.
//
// Registers: CX k, SI rows 0-2 of A, R11 rows 3-5, R12 rows 6-8, R13 rows
// 9-11, R9 ars, R10 aps, DI B, BX bps, DX C, R8 ldc in bytes.

#define FMA_ROW(addr, acc0, acc1) \
	VBROADCASTSS addr, Y2 \
	VFMADD231PS  Y0, Y2, acc0 \
	VFMADD231PS  Y1, Y2, acc1

#define STORE_ROW(acc0, acc1) \
	VMULPS  Y3, acc0, acc0 \
	VADDPS  (DX), acc0, acc0 \
	VMOVUPS acc0, (DX) \
	VMULPS  Y3, acc1, acc1 \
	VADDPS  32(DX), acc1, acc1 \
	VMOVUPS acc1, 32(DX) \
	ADDQ    R8, DX

#define SET_ROW(acc0, acc1) \
	VMULPS  Y3, acc0, acc0 \
	VMOVUPS acc0, (DX) \
	VMULPS  Y3, acc1, acc1 \
	VMOVUPS acc1, 32(DX) \
	ADDQ    R8, DX

#define LOAD_ARGS \
	MOVQ k+0(FP), CX \
	MOVQ a+8(FP), SI \
	MOVQ b+16(FP), DI \
	MOVQ c+24(FP), DX \
	MOVQ ldc+32(FP), R8 \
	SHLQ $2, R8 \
	MOVQ ars+48(FP), R9 \
	MOVQ aps+56(FP), R10 \
	MOVQ bps+64(FP), BX \
	LEAQ (SI)(R9*2), R11 \
	ADDQ R9, R11

// func kern6x16(k int, a, b, c *float32, ldc int, alpha float32, ars, aps, bps, add int)
//
// 6 x 16 tile, AVX2 + FMA: twelve YMM accumulators.
TEXT ·kern6x16(SB), NOSPLIT, $0-80
	LOAD_ARGS
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	VXORPS Y13, Y13, Y13
	VXORPS Y14, Y14, Y14
	VXORPS Y15, Y15, Y15
	TESTQ  CX, CX
	JZ     store6

loop6:
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	FMA_ROW((SI), Y4, Y5)
	FMA_ROW((SI)(R9*1), Y6, Y7)
	FMA_ROW((SI)(R9*2), Y8, Y9)
	FMA_ROW((R11), Y10, Y11)
	FMA_ROW((R11)(R9*1), Y12, Y13)
	FMA_ROW((R11)(R9*2), Y14, Y15)
	ADDQ R10, SI
	ADDQ R10, R11
	ADDQ BX, DI
	DECQ CX
	JNZ  loop6

store6:
	VBROADCASTSS alpha+40(FP), Y3
	CMPQ         add+72(FP), $0
	JEQ          set6
	STORE_ROW(Y4, Y5)
	STORE_ROW(Y6, Y7)
	STORE_ROW(Y8, Y9)
	STORE_ROW(Y10, Y11)
	STORE_ROW(Y12, Y13)
	STORE_ROW(Y14, Y15)
	VZEROUPPER
	RET

set6:
	SET_ROW(Y4, Y5)
	SET_ROW(Y6, Y7)
	SET_ROW(Y8, Y9)
	SET_ROW(Y10, Y11)
	SET_ROW(Y12, Y13)
	SET_ROW(Y14, Y15)
	VZEROUPPER
	RET

#define ZFMA_ROW(addr, acc0, acc1) \
	VBROADCASTSS addr, Z2 \
	VFMADD231PS  Z0, Z2, acc0 \
	VFMADD231PS  Z1, Z2, acc1

#define ZSTORE_ROW(acc0, acc1) \
	VMULPS  Z3, acc0, acc0 \
	VADDPS  (DX), acc0, acc0 \
	VMOVUPS acc0, (DX) \
	VMULPS  Z3, acc1, acc1 \
	VADDPS  64(DX), acc1, acc1 \
	VMOVUPS acc1, 64(DX) \
	ADDQ    R8, DX

#define ZSET_ROW(acc0, acc1) \
	VMULPS  Z3, acc0, acc0 \
	VMOVUPS acc0, (DX) \
	VMULPS  Z3, acc1, acc1 \
	VMOVUPS acc1, 64(DX) \
	ADDQ    R8, DX

// func kern12x32(k int, a, b, c *float32, ldc int, alpha float32, ars, aps, bps, add int)
//
// 12 x 32 tile, AVX-512: 24 ZMM accumulators.
TEXT ·kern12x32(SB), NOSPLIT, $0-80
	LOAD_ARGS
	LEAQ   (R11)(R9*2), R12
	ADDQ   R9, R12
	LEAQ   (R12)(R9*2), R13
	ADDQ   R9, R13
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
	VPXORD Z24, Z24, Z24
	VPXORD Z25, Z25, Z25
	VPXORD Z26, Z26, Z26
	VPXORD Z27, Z27, Z27
	VPXORD Z28, Z28, Z28
	VPXORD Z29, Z29, Z29
	VPXORD Z30, Z30, Z30
	VPXORD Z31, Z31, Z31
	TESTQ  CX, CX
	JZ     store12

loop12:
	VMOVUPS (DI), Z0
	VMOVUPS 64(DI), Z1
	ZFMA_ROW((SI), Z8, Z9)
	ZFMA_ROW((SI)(R9*1), Z10, Z11)
	ZFMA_ROW((SI)(R9*2), Z12, Z13)
	ZFMA_ROW((R11), Z14, Z15)
	ZFMA_ROW((R11)(R9*1), Z16, Z17)
	ZFMA_ROW((R11)(R9*2), Z18, Z19)
	ZFMA_ROW((R12), Z20, Z21)
	ZFMA_ROW((R12)(R9*1), Z22, Z23)
	ZFMA_ROW((R12)(R9*2), Z24, Z25)
	ZFMA_ROW((R13), Z26, Z27)
	ZFMA_ROW((R13)(R9*1), Z28, Z29)
	ZFMA_ROW((R13)(R9*2), Z30, Z31)
	ADDQ R10, SI
	ADDQ R10, R11
	ADDQ R10, R12
	ADDQ R10, R13
	ADDQ BX, DI
	DECQ CX
	JNZ  loop12

store12:
	VBROADCASTSS alpha+40(FP), Z3
	CMPQ         add+72(FP), $0
	JEQ          set12
	ZSTORE_ROW(Z8, Z9)
	ZSTORE_ROW(Z10, Z11)
	ZSTORE_ROW(Z12, Z13)
	ZSTORE_ROW(Z14, Z15)
	ZSTORE_ROW(Z16, Z17)
	ZSTORE_ROW(Z18, Z19)
	ZSTORE_ROW(Z20, Z21)
	ZSTORE_ROW(Z22, Z23)
	ZSTORE_ROW(Z24, Z25)
	ZSTORE_ROW(Z26, Z27)
	ZSTORE_ROW(Z28, Z29)
	ZSTORE_ROW(Z30, Z31)
	VZEROUPPER
	RET

set12:
	ZSET_ROW(Z8, Z9)
	ZSET_ROW(Z10, Z11)
	ZSET_ROW(Z12, Z13)
	ZSET_ROW(Z14, Z15)
	ZSET_ROW(Z16, Z17)
	ZSET_ROW(Z18, Z19)
	ZSET_ROW(Z20, Z21)
	ZSET_ROW(Z22, Z23)
	ZSET_ROW(Z24, Z25)
	ZSET_ROW(Z26, Z27)
	ZSET_ROW(Z28, Z29)
	ZSET_ROW(Z30, Z31)
	VZEROUPPER
	RET
