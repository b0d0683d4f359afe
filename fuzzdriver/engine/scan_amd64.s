#include "textflag.h"

// Bucket bits by low nibble (counters 0-15) and by high nibble (16 and
// up), each 16 bytes twice for VPSHUFB, which looks up within each
// 128-bit lane: bucketBit[c] is lo[c] for c < 16, else hi[c>>4].
DATA bucketLo<>+0(SB)/8, $0x0808080804020100
DATA bucketLo<>+8(SB)/8, $0x1010101010101010
DATA bucketLo<>+16(SB)/8, $0x0808080804020100
DATA bucketLo<>+24(SB)/8, $0x1010101010101010
GLOBL bucketLo<>(SB), RODATA|NOPTR, $32
DATA bucketHi<>+0(SB)/8, $0x4040404040402000
DATA bucketHi<>+8(SB)/8, $0x8080808080808080
DATA bucketHi<>+16(SB)/8, $0x4040404040402000
DATA bucketHi<>+24(SB)/8, $0x8080808080808080
GLOBL bucketHi<>(SB), RODATA|NOPTR, $32

// CLASSIFY replaces each counter of c by its bucket bit; t, u, v are
// scratch. Y8: 0x0F in every byte, Y9 and Y10: the tables, Y11: zero.
#define CLASSIFY(c, t, u, v) \
	VPAND    Y8, c, t    \
	VPSHUFB  t, Y9, t    \
	VPSRLW   $4, c, u    \
	VPAND    Y8, u, u    \
	VPSHUFB  u, Y10, v   \
	VPCMPEQB Y11, u, u   \
	VPAND    u, t, t     \
	VPOR     v, t, c

// func firstNew(c, s *uint8, n int) int
//
// firstNew returns the offset of the first 64-counter block of c[:n] (n a
// multiple of 64) that reaches a (counter, bucket) pair whose bit is
// clear in s, or n when there is none. AVX2.
TEXT ·firstNew(SB), NOSPLIT, $0-32
	MOVQ c+0(FP), SI
	MOVQ s+8(FP), DI
	MOVQ n+16(FP), CX
	XORQ AX, AX
	MOVQ $0xFEFEFEFEFEFEFEFE, DX
	MOVQ DX, X7
	VPBROADCASTQ X7, Y7
	MOVQ $0x0F0F0F0F0F0F0F0F, DX
	MOVQ DX, X8
	VPBROADCASTQ X8, Y8
	VMOVDQU bucketLo<>(SB), Y9
	VMOVDQU bucketHi<>(SB), Y10
	VPXOR   Y11, Y11, Y11
	CMPQ AX, CX
	JAE  done

loop:
	VMOVDQU (SI)(AX*1), Y0
	VMOVDQU 32(SI)(AX*1), Y1
	VPOR    Y0, Y1, Y2
	VPTEST  Y2, Y2
	JZ      next             // 64 zero counters
	VPTEST  Y7, Y2
	JZ      ones             // zeros and 1s are their own bucket bits
	CLASSIFY(Y0, Y3, Y4, Y5)
	CLASSIFY(Y1, Y3, Y4, Y5)

ones:
	VMOVDQU (DI)(AX*1), Y3
	VMOVDQU 32(DI)(AX*1), Y4
	VPANDN  Y0, Y3, Y3       // buckets &^ seen
	VPANDN  Y1, Y4, Y4
	VPOR    Y3, Y4, Y3
	VPTEST  Y3, Y3
	JNZ     done

next:
	ADDQ $64, AX
	CMPQ AX, CX
	JB   loop

done:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET
