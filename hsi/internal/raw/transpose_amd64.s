//go:build amd64 && !purego

#include "textflag.h"

// func transpose8AVX(dst *float32, ld int, src *float32, B int, n int) bool
//
// Eight pixels at a time: their 8 bands are loaded as eight rows (Y0-Y7),
// transposed (unpack, shuffle, 128-bit permute) and stored as the 8 pixels
// of each of 8 band rows. Y15 ORs together x - x of every value: zero when
// all are finite, NaN bits otherwise.
TEXT ·transpose8AVX(SB), NOSPLIT, $0-41
	MOVQ dst+0(FP), DI
	MOVQ ld+8(FP), R9
	SHLQ $2, R9              // row stride of dst, bytes
	MOVQ src+16(FP), SI
	MOVQ B+24(FP), R8
	SHLQ $2, R8              // pixel stride of src, bytes
	MOVQ n+32(FP), CX
	SHRQ $3, CX              // blocks of 8 pixels
	LEAQ (R8)(R8*2), R11     // 3 pixels
	LEAQ (R9)(R9*2), R14     // 3 rows
	VXORPS Y15, Y15, Y15

loop:
	TESTQ CX, CX
	JZ    done
	LEAQ (SI)(R8*4), R12
	VMOVUPS (SI), Y0
	VMOVUPS (SI)(R8*1), Y1
	VMOVUPS (SI)(R8*2), Y2
	VMOVUPS (SI)(R11*1), Y3
	VMOVUPS (R12), Y4
	VMOVUPS (R12)(R8*1), Y5
	VMOVUPS (R12)(R8*2), Y6
	VMOVUPS (R12)(R11*1), Y7

	VSUBPS Y0, Y0, Y14
	VORPS  Y14, Y15, Y15
	VSUBPS Y1, Y1, Y14
	VORPS  Y14, Y15, Y15
	VSUBPS Y2, Y2, Y14
	VORPS  Y14, Y15, Y15
	VSUBPS Y3, Y3, Y14
	VORPS  Y14, Y15, Y15
	VSUBPS Y4, Y4, Y14
	VORPS  Y14, Y15, Y15
	VSUBPS Y5, Y5, Y14
	VORPS  Y14, Y15, Y15
	VSUBPS Y6, Y6, Y14
	VORPS  Y14, Y15, Y15
	VSUBPS Y7, Y7, Y14
	VORPS  Y14, Y15, Y15

	// t0..t7 (pixels a..h, bands 0..7): unpack pairs of pixels.
	VUNPCKLPS Y1, Y0, Y8     // t0 = a0 b0 a1 b1 | a4 b4 a5 b5
	VUNPCKHPS Y1, Y0, Y9     // t1 = a2 b2 a3 b3 | a6 b6 a7 b7
	VUNPCKLPS Y3, Y2, Y10    // t2 = c0 d0 c1 d1 | ...
	VUNPCKHPS Y3, Y2, Y11    // t3
	VUNPCKLPS Y5, Y4, Y12    // t4 = e0 f0 e1 f1 | ...
	VUNPCKHPS Y5, Y4, Y13    // t5
	VUNPCKLPS Y7, Y6, Y0     // t6 = g0 h0 g1 h1 | ...
	VUNPCKHPS Y7, Y6, Y1     // t7

	// s0..s7: four pixels of one band in each 128-bit lane.
	VSHUFPS $0x44, Y10, Y8, Y2   // s0 = a0 b0 c0 d0 | a4 b4 c4 d4
	VSHUFPS $0xEE, Y10, Y8, Y3   // s1 = a1 b1 c1 d1 | a5 ...
	VSHUFPS $0x44, Y11, Y9, Y4   // s2 = a2 ... | a6 ...
	VSHUFPS $0xEE, Y11, Y9, Y5   // s3 = a3 ... | a7 ...
	VSHUFPS $0x44, Y0, Y12, Y6   // s4 = e0 f0 g0 h0 | e4 ...
	VSHUFPS $0xEE, Y0, Y12, Y7   // s5 = e1 ... | e5 ...
	VSHUFPS $0x44, Y1, Y13, Y8   // s6 = e2 ... | e6 ...
	VSHUFPS $0xEE, Y1, Y13, Y9   // s7 = e3 ... | e7 ...

	// Band rows: low lanes give bands 0-3, high lanes bands 4-7.
	LEAQ (DI)(R9*4), BX
	VPERM2F128 $0x20, Y6, Y2, Y10
	VMOVUPS Y10, (DI)
	VPERM2F128 $0x31, Y6, Y2, Y10
	VMOVUPS Y10, (BX)
	VPERM2F128 $0x20, Y7, Y3, Y10
	VMOVUPS Y10, (DI)(R9*1)
	VPERM2F128 $0x31, Y7, Y3, Y10
	VMOVUPS Y10, (BX)(R9*1)
	VPERM2F128 $0x20, Y8, Y4, Y10
	VMOVUPS Y10, (DI)(R9*2)
	VPERM2F128 $0x31, Y8, Y4, Y10
	VMOVUPS Y10, (BX)(R9*2)
	VPERM2F128 $0x20, Y9, Y5, Y10
	VMOVUPS Y10, (DI)(R14*1)
	VPERM2F128 $0x31, Y9, Y5, Y10
	VMOVUPS Y10, (BX)(R14*1)

	LEAQ (SI)(R8*8), SI
	ADDQ $32, DI
	DECQ CX
	JMP  loop

done:
	VPTEST Y15, Y15
	SETEQ  ret+40(FP)
	VZEROUPPER
	RET
