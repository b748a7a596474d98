//go:build amd64 && !purego

#include "textflag.h"

// func sum4AVX(dst *float32, n int, s0, s1, s2, s3 *float32, w *[4]float32, t *float32)
TEXT ·sum4AVX(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ s0+16(FP), R8
	MOVQ s1+24(FP), R9
	MOVQ s2+32(FP), R10
	MOVQ s3+40(FP), R11
	MOVQ w+48(FP), AX
	MOVQ t+56(FP), DX
	VBROADCASTSS 0(AX), Y12
	VBROADCASTSS 4(AX), Y13
	VBROADCASTSS 8(AX), Y14
	VBROADCASTSS 12(AX), Y15
	XORQ BX, BX // byte offset

loop16:
	CMPQ CX, $16
	JLT  loop8
	VMULPS (R8)(BX*1), Y12, Y0
	VMULPS 32(R8)(BX*1), Y12, Y1
	VMULPS (R9)(BX*1), Y13, Y2
	VMULPS 32(R9)(BX*1), Y13, Y3
	VADDPS Y2, Y0, Y0
	VADDPS Y3, Y1, Y1
	VMULPS (R10)(BX*1), Y14, Y2
	VMULPS 32(R10)(BX*1), Y14, Y3
	VADDPS Y2, Y0, Y0
	VADDPS Y3, Y1, Y1
	VMULPS (R11)(BX*1), Y15, Y2
	VMULPS 32(R11)(BX*1), Y15, Y3
	VADDPS Y2, Y0, Y0
	VADDPS Y3, Y1, Y1
	TESTQ DX, DX
	JZ   store16
	VADDPS (DX)(BX*1), Y0, Y0
	VADDPS 32(DX)(BX*1), Y1, Y1

store16:
	VMOVUPS Y0, (DI)(BX*1)
	VMOVUPS Y1, 32(DI)(BX*1)
	ADDQ $64, BX
	SUBQ $16, CX
	JMP  loop16

loop8:
	CMPQ CX, $8
	JLT  loop1
	VMULPS (R8)(BX*1), Y12, Y0
	VMULPS (R9)(BX*1), Y13, Y2
	VADDPS Y2, Y0, Y0
	VMULPS (R10)(BX*1), Y14, Y2
	VADDPS Y2, Y0, Y0
	VMULPS (R11)(BX*1), Y15, Y2
	VADDPS Y2, Y0, Y0
	TESTQ DX, DX
	JZ   store8
	VADDPS (DX)(BX*1), Y0, Y0

store8:
	VMOVUPS Y0, (DI)(BX*1)
	ADDQ $32, BX
	SUBQ $8, CX
	JMP  loop8

loop1:
	CMPQ CX, $1
	JLT  done
	VMOVSS (R8)(BX*1), X0
	VMULSS X12, X0, X0
	VMOVSS (R9)(BX*1), X2
	VMULSS X13, X2, X2
	VADDSS X2, X0, X0
	VMOVSS (R10)(BX*1), X2
	VMULSS X14, X2, X2
	VADDSS X2, X0, X0
	VMOVSS (R11)(BX*1), X2
	VMULSS X15, X2, X2
	VADDSS X2, X0, X0
	TESTQ DX, DX
	JZ   store1
	VADDSS (DX)(BX*1), X0, X0

store1:
	VMOVSS X0, (DI)(BX*1)
	ADDQ $4, BX
	DECQ CX
	JMP  loop1

done:
	VZEROUPPER
	RET

// func mulAVX(d, s *float32, n int, tiny float32)
// d[i] *= s[i] for i < n, then results below tiny (non-negative data) are
// flushed to zero.
TEXT ·mulAVX(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS tiny+24(FP), Y15
	XORQ BX, BX

mloop16:
	CMPQ CX, $16
	JLT  mloop8
	VMOVUPS (DI)(BX*1), Y0
	VMOVUPS 32(DI)(BX*1), Y1
	VMULPS (SI)(BX*1), Y0, Y0
	VMULPS 32(SI)(BX*1), Y1, Y1
	VCMPPS $0x1D, Y15, Y0, Y2
	VCMPPS $0x1D, Y15, Y1, Y3
	VANDPS Y2, Y0, Y0
	VANDPS Y3, Y1, Y1
	VMOVUPS Y0, (DI)(BX*1)
	VMOVUPS Y1, 32(DI)(BX*1)
	ADDQ $64, BX
	SUBQ $16, CX
	JMP  mloop16

mloop8:
	CMPQ CX, $8
	JLT  mloop1
	VMOVUPS (DI)(BX*1), Y0
	VMULPS (SI)(BX*1), Y0, Y0
	VCMPPS $0x1D, Y15, Y0, Y2
	VANDPS Y2, Y0, Y0
	VMOVUPS Y0, (DI)(BX*1)
	ADDQ $32, BX
	SUBQ $8, CX
	JMP  mloop8

mloop1:
	CMPQ CX, $1
	JLT  mdone
	VMOVSS (DI)(BX*1), X0
	VMULSS (SI)(BX*1), X0, X0
	VCMPSS $0x1D, X15, X0, X2
	VANDPS X2, X0, X0
	VMOVSS X0, (DI)(BX*1)
	ADDQ $4, BX
	DECQ CX
	JMP  mloop1

mdone:
	VZEROUPPER
	RET

// func axpyAVX(d, s *float32, n int, a float32)
// d[i] += a*s[i] for i < n (product rounded, then added).
TEXT ·axpyAVX(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS a+24(FP), Y15
	XORQ BX, BX

aloop16:
	CMPQ CX, $16
	JLT  aloop8
	VMULPS (SI)(BX*1), Y15, Y0
	VMULPS 32(SI)(BX*1), Y15, Y1
	VADDPS (DI)(BX*1), Y0, Y0
	VADDPS 32(DI)(BX*1), Y1, Y1
	VMOVUPS Y0, (DI)(BX*1)
	VMOVUPS Y1, 32(DI)(BX*1)
	ADDQ $64, BX
	SUBQ $16, CX
	JMP  aloop16

aloop8:
	CMPQ CX, $8
	JLT  aloop1
	VMULPS (SI)(BX*1), Y15, Y0
	VADDPS (DI)(BX*1), Y0, Y0
	VMOVUPS Y0, (DI)(BX*1)
	ADDQ $32, BX
	SUBQ $8, CX
	JMP  aloop8

aloop1:
	CMPQ CX, $1
	JLT  adone
	VMOVSS (SI)(BX*1), X0
	VMULSS X15, X0, X0
	VADDSS (DI)(BX*1), X0, X0
	VMOVSS X0, (DI)(BX*1)
	ADDQ $4, BX
	DECQ CX
	JMP  aloop1

adone:
	VZEROUPPER
	RET

// func dotAVX(a, b *float32, n int) float32
// sum_i a[i]*b[i], eight partial sums per lane group.
TEXT ·dotAVX(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	XORQ BX, BX

dloop16:
	CMPQ CX, $16
	JLT  dloop8
	VMOVUPS (DI)(BX*1), Y2
	VMOVUPS 32(DI)(BX*1), Y3
	VMULPS (SI)(BX*1), Y2, Y2
	VMULPS 32(SI)(BX*1), Y3, Y3
	VADDPS Y2, Y0, Y0
	VADDPS Y3, Y1, Y1
	ADDQ $64, BX
	SUBQ $16, CX
	JMP  dloop16

dloop8:
	CMPQ CX, $8
	JLT  dtail
	VMOVUPS (DI)(BX*1), Y2
	VMULPS (SI)(BX*1), Y2, Y2
	VADDPS Y2, Y0, Y0
	ADDQ $32, BX
	SUBQ $8, CX
	JMP  dloop8

dtail:
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0

dloop1:
	CMPQ CX, $1
	JLT  ddone
	VMOVSS (DI)(BX*1), X2
	VMULSS (SI)(BX*1), X2, X2
	VADDSS X2, X0, X0
	ADDQ $4, BX
	DECQ CX
	JMP  dloop1

ddone:
	VMOVSS X0, ret+24(FP)
	VZEROUPPER
	RET

// func fillRowsAVX(out *float32, sum *float64, v, e *float64, nb, na, stride int, r, ey, fy float64)
// For a < na, b < nb: g = r_a*v[b]; out[a*stride+b] = float32(g);
// sum[a*stride+b] += g; then v[b] *= e[b], r_{a+1} = r_a*ey_a,
// ey_{a+1} = ey_a*fy.
TEXT ·fillRowsAVX(SB), NOSPLIT, $0-80
	MOVQ out+0(FP), DI
	MOVQ sum+8(FP), SI
	MOVQ v+16(FP), R8
	MOVQ e+24(FP), R9
	MOVQ nb+32(FP), R10
	MOVQ na+40(FP), R11
	MOVQ stride+48(FP), R12
	VMOVSD r+56(FP), X13
	VMOVSD ey+64(FP), X14
	VMOVSD fy+72(FP), X15

row:
	TESTQ R11, R11
	JZ    fdone
	VBROADCASTSD X13, Y12 // r_a in every lane
	XORQ  BX, BX          // b
	MOVQ  R10, CX

f4:
	CMPQ CX, $4
	JLT  f1
	VMOVUPD (R8)(BX*8), Y0
	VMULPD  Y0, Y12, Y1
	VCVTPD2PSY Y1, X2
	VMOVUPS X2, (DI)(BX*4)
	VADDPD  (SI)(BX*8), Y1, Y3
	VMOVUPD Y3, (SI)(BX*8)
	VMULPD  (R9)(BX*8), Y0, Y0
	VMOVUPD Y0, (R8)(BX*8)
	ADDQ $4, BX
	SUBQ $4, CX
	JMP  f4

f1:
	TESTQ CX, CX
	JZ    nextrow
	VMOVSD (R8)(BX*8), X0
	VMULSD X0, X13, X1
	VCVTSD2SS X1, X1, X2
	VMOVSS X2, (DI)(BX*4)
	VADDSD (SI)(BX*8), X1, X3
	VMOVSD X3, (SI)(BX*8)
	VMULSD (R9)(BX*8), X0, X0
	VMOVSD X0, (R8)(BX*8)
	INCQ BX
	DECQ CX
	JMP  f1

nextrow:
	VMULSD X14, X13, X13 // r *= ey
	VMULSD X15, X14, X14 // ey *= fy
	LEAQ (DI)(R12*4), DI
	LEAQ (SI)(R12*8), SI
	DECQ R11
	JMP  row

fdone:
	VZEROUPPER
	RET
