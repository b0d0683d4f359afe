#include "textflag.h"

// func skipOld(c, s *uint8, n int) int
//
// skipOld returns the offset of the first 64-byte block of c[:n] (n a
// multiple of 64) that holds a counter above 1 or a 1 whose bucket bit
// is clear in the same byte of s, or n when there is none. AVX2.
TEXT ·skipOld(SB), NOSPLIT, $0-32
	MOVQ c+0(FP), SI
	MOVQ s+8(FP), DI
	MOVQ n+16(FP), CX
	XORQ AX, AX
	MOVQ $0xFEFEFEFEFEFEFEFE, DX
	MOVQ DX, X7
	VPBROADCASTQ X7, Y7
	CMPQ AX, CX
	JAE  done

loop:
	VMOVDQU (SI)(AX*1), Y0
	VMOVDQU 32(SI)(AX*1), Y1
	VPOR    Y0, Y1, Y2
	VPTEST  Y2, Y2
	JZ      next             // 64 zero counters
	VPTEST  Y7, Y2
	JNZ     done             // a counter above 1: the caller classifies it
	VMOVDQU (DI)(AX*1), Y3
	VMOVDQU 32(DI)(AX*1), Y4
	VPANDN  Y0, Y3, Y3       // c &^ s
	VPANDN  Y1, Y4, Y4
	VPOR    Y3, Y4, Y3
	VPTEST  Y3, Y3
	JNZ     done             // a 1 not seen before

next:
	ADDQ $64, AX
	CMPQ AX, CX
	JB   loop

done:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET
