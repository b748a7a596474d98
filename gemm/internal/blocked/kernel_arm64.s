//go:build arm64 && !purego

#include "textflag.h"

// func kern6x16NEON(k int, a, b, c *float32, ldc int, alpha float32, ars, aps, bps, add int)
//
// The 6 x 16 NEON micro-kernel: C[tile] += alpha * A * B over k steps
// (add != 0), or C[tile] = alpha * A * B, C not read (add == 0). The
// strides are those of the amd64 kernels (kernel_amd64.s): row r of A at
// step p is the float at a + r*ars + p*aps bytes, the B row of step p the
// 16 floats at b + p*bps bytes, c has row stride ldc floats.
//
// Each step loads the B row into V0-V3 (one LD1 of four registers) and
// each A value, replicated into all four lanes, into V4-V7 (LD1R; the
// rows' pointers R1-R6 each step on by aps), and multiplies-adds it into
// the row's four accumulators: 24 FMLAs, V8-V31 holding the tile (row r,
// columns 4j..4j+3 in V(8+4r+j)).
//
// The arithmetic is the Go kernel's (kernel_go.go), lane by lane: FMLA
// rounds once, as the FMADDS that fma.F32 compiles to, from accumulators
// cleared to +0, in the same order of steps; then FMUL by alpha, and FADD
// to C. The operands are in the order the Go compiler gives the scalar
// instructions (FMADDS: first multiplicand B, second A; FMULS: alpha,
// then the sum; FADDS: the product, then C), so that even the payload of
// a NaN result, which ARM takes from the first NaN operand, is the same.
//
// Registers: R0 k, R1-R6 rows 0-5 of A, R7 aps, R8 B, R9 bps, R10 C,
// R11 ldc in bytes.

// The Go assembler has no vector FMUL and FADD: these are their encodings
// (FMUL Vd.4S, Vn.4S, Vm.4S and FADD Vd.4S, Vn.4S, Vm.4S).
#define VFMUL4S(n, m, d) WORD $(0x6e20dc00 | (m)<<16 | (n)<<5 | (d))
#define VFADD4S(n, m, d) WORD $(0x4e20d400 | (m)<<16 | (n)<<5 | (d))

// ROW multiplies-adds the replicated A value in va by the B row V0-V3
// into the accumulators of one tile row. Go's operand order is reversed:
// VFMLA Vm, Vn, Vd is FMLA Vd, Vn, Vm (Vd += Vn * Vm); Vn is B.
#define ROW(va, acc0, acc1, acc2, acc3) \
	VFMLA va.S4, V0.S4, acc0.S4 \
	VFMLA va.S4, V1.S4, acc1.S4 \
	VFMLA va.S4, V2.S4, acc2.S4 \
	VFMLA va.S4, V3.S4, acc3.S4

// SCALE multiplies the accumulators n0..n0+3 (register numbers) by
// alpha in V4.
#define SCALE(n0) \
	VFMUL4S(4, n0, n0) \
	VFMUL4S(4, n0+1, n0+1) \
	VFMUL4S(4, n0+2, n0+2) \
	VFMUL4S(4, n0+3, n0+3)

// ADD_ROW adds the C row at R10 to the scaled accumulators acc0-acc3
// (register numbers n0..n0+3), stores them there and steps R10 to the
// next row.
#define ADD_ROW(n0, acc0, acc1, acc2, acc3) \
	VLD1   (R10), [V0.S4, V1.S4, V2.S4, V3.S4] \
	VFADD4S(n0, 0, n0) \
	VFADD4S(n0+1, 1, n0+1) \
	VFADD4S(n0+2, 2, n0+2) \
	VFADD4S(n0+3, 3, n0+3) \
	VST1.P [acc0.S4, acc1.S4, acc2.S4, acc3.S4], (R10)(R11)

TEXT ·kern6x16NEON(SB), NOSPLIT, $0-80
	MOVD k+0(FP), R0
	MOVD a+8(FP), R1
	MOVD b+16(FP), R8
	MOVD c+24(FP), R10
	MOVD ldc+32(FP), R11
	LSL  $2, R11, R11
	MOVD ars+48(FP), R12
	MOVD aps+56(FP), R7
	MOVD bps+64(FP), R9
	ADD  R12, R1, R2
	ADD  R12, R2, R3
	ADD  R12, R3, R4
	ADD  R12, R4, R5
	ADD  R12, R5, R6
	VEOR V8.B16, V8.B16, V8.B16
	VEOR V9.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	VEOR V11.B16, V11.B16, V11.B16
	VEOR V12.B16, V12.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	VEOR V14.B16, V14.B16, V14.B16
	VEOR V15.B16, V15.B16, V15.B16
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	VEOR V24.B16, V24.B16, V24.B16
	VEOR V25.B16, V25.B16, V25.B16
	VEOR V26.B16, V26.B16, V26.B16
	VEOR V27.B16, V27.B16, V27.B16
	VEOR V28.B16, V28.B16, V28.B16
	VEOR V29.B16, V29.B16, V29.B16
	VEOR V30.B16, V30.B16, V30.B16
	VEOR V31.B16, V31.B16, V31.B16
	CBZ  R0, store

loop:
	VLD1.P  (R8)(R9), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1R.P (R1)(R7), [V4.S4]
	VLD1R.P (R2)(R7), [V5.S4]
	VLD1R.P (R3)(R7), [V6.S4]
	VLD1R.P (R4)(R7), [V7.S4]
	ROW(V4, V8, V9, V10, V11)
	ROW(V5, V12, V13, V14, V15)
	VLD1R.P (R5)(R7), [V4.S4]
	VLD1R.P (R6)(R7), [V5.S4]
	ROW(V6, V16, V17, V18, V19)
	ROW(V7, V20, V21, V22, V23)
	ROW(V4, V24, V25, V26, V27)
	ROW(V5, V28, V29, V30, V31)
	SUBS $1, R0, R0
	BNE  loop

store:
	FMOVS alpha+40(FP), F4
	VDUP  V4.S[0], V4.S4
	SCALE(8)
	SCALE(12)
	SCALE(16)
	SCALE(20)
	SCALE(24)
	SCALE(28)
	MOVD add+72(FP), R12
	CBZ  R12, set

	ADD_ROW(8, V8, V9, V10, V11)
	ADD_ROW(12, V12, V13, V14, V15)
	ADD_ROW(16, V16, V17, V18, V19)
	ADD_ROW(20, V20, V21, V22, V23)
	ADD_ROW(24, V24, V25, V26, V27)
	ADD_ROW(28, V28, V29, V30, V31)
	RET

set:
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], (R10)(R11)
	VST1.P [V12.S4, V13.S4, V14.S4, V15.S4], (R10)(R11)
	VST1.P [V16.S4, V17.S4, V18.S4, V19.S4], (R10)(R11)
	VST1.P [V20.S4, V21.S4, V22.S4, V23.S4], (R10)(R11)
	VST1.P [V24.S4, V25.S4, V26.S4, V27.S4], (R10)(R11)
	VST1.P [V28.S4, V29.S4, V30.S4, V31.S4], (R10)(R11)
	RET
