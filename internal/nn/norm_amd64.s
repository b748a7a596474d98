//go:build amd64 && !purego

#include "textflag.h"

// float32 1, 1e-7 and 1e-12.
DATA essaConsts<>+0(SB)/4, $0x3f800000
DATA essaConsts<>+4(SB)/4, $0x33d6bf95
DATA essaConsts<>+8(SB)/4, $0x2b8cbccc
GLOBL essaConsts<>(SB), RODATA|NOPTR, $12

// HSUM leaves in the low lane of X0 the sum of Y0's eight lanes p0..p7 in
// laneTotal's order: ((p0+p4) + (p2+p6)) + ((p1+p5) + (p3+p7)).
#define HSUM \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPS       X1, X0, X0 \
	VMOVHLPS     X0, X0, X1 \
	VADDPS       X1, X0, X0 \
	VMOVSHDUP    X0, X1     \
	VADDSS       X1, X0, X0

// func essaTokensAVX(src *float32, stride int, dst *float32, c, n, q int)
// For each of n tokens (token i at src + i*stride floats, its result at
// dst + i*c floats; c a positive multiple of 8): essaTokenK, or
// essaTokenQ when q != 0, with the same operations in the same order.
// Lane l of a running sum takes channels l, l+8, ... in turn (laneSum).
TEXT ·essaTokensAVX(SB), NOSPLIT, $0-48
	MOVQ src+0(FP), SI
	MOVQ stride+8(FP), R8
	SHLQ $2, R8
	MOVQ dst+16(FP), DI
	MOVQ c+24(FP), R10
	MOVQ n+32(FP), DX
	MOVQ q+40(FP), R9
	VXORPS    X15, X15, X15
	CVTSQ2SS  R10, X15           // float32(c)
	SHLQ      $2, R10            // c in bytes
	LEAQ      essaConsts<>(SB), AX
	VMOVSS    0(AX), X12         // 1
	VMOVSS    4(AX), X13         // 1e-7
	VMOVSS    8(AX), X10         // 1e-12
	TESTQ     DX, DX
	JLE       done

token:
	// m = sum(x) / c
	VXORPS Y0, Y0, Y0
	XORQ   BX, BX

sum:
	VADDPS (SI)(BX*1), Y0, Y0
	ADDQ   $32, BX
	CMPQ   BX, R10
	JLT    sum
	HSUM
	VDIVSS       X15, X0, X0
	VBROADCASTSS X0, Y14

	// e = x - m into dst; s = sum(e*e)
	VXORPS Y0, Y0, Y0
	XORQ   BX, BX

centre:
	VMOVUPS (SI)(BX*1), Y1
	VSUBPS  Y14, Y1, Y1
	VMOVUPS Y1, (DI)(BX*1)
	VMULPS  Y1, Y1, Y2
	VADDPS  Y2, Y0, Y0
	ADDQ    $32, BX
	CMPQ    BX, R10
	JLT     centre
	HSUM
	VADDSS       X13, X0, X0
	VDIVSS       X0, X12, X0     // inv = 1 / (s + 1e-7)
	VBROADCASTSS X0, Y11

	// d = e*e*inv; for q, nn = sum(d*d)
	VXORPS Y0, Y0, Y0
	XORQ   BX, BX

square:
	VMOVUPS (DI)(BX*1), Y1
	VMULPS  Y1, Y1, Y1
	VMULPS  Y11, Y1, Y1
	VMOVUPS Y1, (DI)(BX*1)
	VMULPS  Y1, Y1, Y2
	VADDPS  Y2, Y0, Y0
	ADDQ    $32, BX
	CMPQ    BX, R10
	JLT     square
	TESTQ   R9, R9
	JZ      next

	// d *= 1 / max(sqrt(nn), 1e-12), NaN kept as Go's max keeps it.
	HSUM
	VSQRTSS      X0, X0, X0
	VMAXSS       X0, X10, X0
	VDIVSS       X0, X12, X0
	VBROADCASTSS X0, Y11
	XORQ         BX, BX

scale:
	VMULPS  (DI)(BX*1), Y11, Y1
	VMOVUPS Y1, (DI)(BX*1)
	ADDQ    $32, BX
	CMPQ    BX, R10
	JLT     scale

next:
	ADDQ R8, SI
	ADDQ R10, DI
	DECQ DX
	JNZ  token

done:
	VZEROUPPER
	RET

// func layerNormAVX(x, out, mean, rstd, gm, bt *float32, c, n int, invC, eps float32)
// LayerNorm's forward pass on n pixels of c channels (c a positive multiple
// of 8), with layerNormRowsGo's operations in the same order: m =
// laneSum(x) invC, v2 = laneSum((x-m)^2), rstd = 1/sqrt(v2 invC + eps) in
// float64, out = (x-m) rstd gm + bt.
TEXT ·layerNormAVX(SB), NOSPLIT, $0-72
	MOVQ x+0(FP), SI
	MOVQ out+8(FP), DI
	MOVQ mean+16(FP), R11
	MOVQ rstd+24(FP), R12
	MOVQ gm+32(FP), R13
	MOVQ bt+40(FP), R14
	MOVQ c+48(FP), R10
	SHLQ $2, R10
	MOVQ n+56(FP), DX
	VMOVSS invC+64(FP), X15
	VMOVSS eps+68(FP), X13
	MOVQ   $0x3ff0000000000000, AX
	MOVQ   AX, X12                 // float64 1
	TESTQ  DX, DX
	JLE    lndone

pixel:
	VXORPS Y0, Y0, Y0
	XORQ   BX, BX

lnsum:
	VADDPS (SI)(BX*1), Y0, Y0
	ADDQ   $32, BX
	CMPQ   BX, R10
	JLT    lnsum
	HSUM
	VMULSS       X15, X0, X0
	VMOVSS       X0, (R11)
	VBROADCASTSS X0, Y14          // m

	VXORPS Y0, Y0, Y0
	XORQ   BX, BX

lnvar:
	VMOVUPS (SI)(BX*1), Y1
	VSUBPS  Y14, Y1, Y1
	VMULPS  Y1, Y1, Y1
	VADDPS  Y1, Y0, Y0
	ADDQ    $32, BX
	CMPQ    BX, R10
	JLT     lnvar
	HSUM
	VMULSS       X15, X0, X0
	VADDSS       X13, X0, X0
	VCVTSS2SD    X0, X0, X0
	VSQRTSD      X0, X0, X0
	VDIVSD       X0, X12, X0
	VCVTSD2SS    X0, X0, X0
	VMOVSS       X0, (R12)
	VBROADCASTSS X0, Y11          // rstd
	XORQ         BX, BX

lnaffine:
	VMOVUPS (SI)(BX*1), Y1
	VSUBPS  Y14, Y1, Y1
	VMULPS  Y11, Y1, Y1
	VMULPS  (R13)(BX*1), Y1, Y1
	VADDPS  (R14)(BX*1), Y1, Y1
	VMOVUPS Y1, (DI)(BX*1)
	ADDQ    $32, BX
	CMPQ    BX, R10
	JLT     lnaffine

	ADDQ R10, SI
	ADDQ R10, DI
	ADDQ $4, R11
	ADDQ $4, R12
	DECQ DX
	JNZ  pixel

lndone:
	VZEROUPPER
	RET

// func sqSumsAVX(acc *float64, x *float32, c, n int)
// acc[j] += float64(x[i*c+j])^2 for i < n, j < c (c a positive multiple of
// 4): sqSumsGo's operations in its order, four channels at a time.
TEXT ·sqSumsAVX(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ c+16(FP), R10
	SHLQ $2, R10
	MOVQ n+24(FP), DX
	TESTQ DX, DX
	JLE   sqdone

sqtoken:
	XORQ BX, BX

sqgroup:
	VCVTPS2PD (SI)(BX*1), Y1
	VMULPD    Y1, Y1, Y1
	VADDPD    (DI)(BX*2), Y1, Y1
	VMOVUPD   Y1, (DI)(BX*2)
	ADDQ      $16, BX
	CMPQ      BX, R10
	JLT       sqgroup
	ADDQ      R10, SI
	DECQ      DX
	JNZ       sqtoken

sqdone:
	VZEROUPPER
	RET
