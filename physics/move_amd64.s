//go:build !purego

#include "textflag.h"

// func moveVec(next, last, dir []int32, k, lox, spanx, loy, spany int32) int
//
// Eight int32s (four balls, x and y interleaved) a step:
//
//	u = next - lo + (dir*k >> DirBits)      per lane, lo and span per axis
//	if every u in [0, span] (unsigned):     next = u + lo
//	else if some u+span > 3*span (unsigned): stop (a ball to fold)
//	else: r = span - |span - |u||, dir negated where r != u, next = r + lo
//
// and last = the next read, before it is written.
TEXT ·moveVec(SB), NOSPLIT, $0-104
	MOVQ next_base+0(FP), SI
	MOVQ next_len+8(FP), DX
	MOVQ last_base+24(FP), R8
	MOVQ dir_base+48(FP), DI

	// Y15 = k in every lane; Y14 = lo, Y13 = span, Y12 = 3*span, as
	// (x, y) pairs built from the two dwords; Y11 = all ones.
	MOVL k+72(FP), AX
	MOVQ AX, X15
	VPBROADCASTD X15, Y15
	VPCMPEQD Y11, Y11, Y11
	MOVL lox+76(FP), AX
	MOVL loy+84(FP), BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, X14
	VPBROADCASTQ X14, Y14
	MOVL spanx+80(FP), AX
	MOVL spany+88(FP), BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, X13
	VPBROADCASTQ X13, Y13
	VPADDD Y13, Y13, Y12
	VPADDD Y13, Y12, Y12

	XORQ CX, CX
	SUBQ $8, DX // the last start index with eight int32s left
	JL done

loop:
	VMOVDQU (SI)(CX*4), Y0 // next
	VMOVDQU (DI)(CX*4), Y1 // dir
	VPMULLD Y15, Y1, Y2
	VPSRAD $14, Y2, Y2
	VPSUBD Y14, Y0, Y3
	VPADDD Y2, Y3, Y3 // u
	VPMINUD Y13, Y3, Y4
	VPCMPEQD Y3, Y4, Y4 // u <= span, unsigned
	VPMOVMSKB Y4, AX
	CMPL AX, $0xffffffff
	JNE bounce
	VPADDD Y14, Y3, Y5
	VMOVDQU Y0, (R8)(CX*4)
	VMOVDQU Y5, (SI)(CX*4)
	ADDQ $8, CX
	CMPQ CX, DX
	JLE loop
	JMP done

bounce:
	VPADDD Y13, Y3, Y6
	VPMINUD Y12, Y6, Y7
	VPCMPEQD Y6, Y7, Y7 // u+span <= 3*span, unsigned
	VPMOVMSKB Y7, AX
	CMPL AX, $0xffffffff
	JNE done // a ball to fold: CX is its group's start
	VPABSD Y3, Y6
	VPSUBD Y6, Y13, Y6
	VPABSD Y6, Y6
	VPSUBD Y6, Y13, Y6 // r = span - |span - |u||
	VPCMPEQD Y6, Y3, Y7
	VPXOR Y11, Y7, Y7 // -1 where reflected
	VPXOR Y7, Y1, Y1
	VPSUBD Y7, Y1, Y1 // dir negated where reflected
	VMOVDQU Y1, (DI)(CX*4)
	VPADDD Y14, Y6, Y5
	VMOVDQU Y0, (R8)(CX*4)
	VMOVDQU Y5, (SI)(CX*4)
	ADDQ $8, CX
	CMPQ CX, DX
	JLE loop

done:
	VZEROUPPER
	MOVQ CX, ret+96(FP)
	RET
