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

// func anyNew(c, s, m *uint8, n int) bool
//
// anyNew reports whether c[:n] (n >= 64) reaches a (counter, bucket) pair
// whose bit is clear in s; m[i] is coverMask[s[i]]. It takes 64 counters a
// step, the last step the map's last 64 (overlapping the step before it
// when n is not a multiple of 64: counters seen twice give the same
// answer). A step's first test, c &^ m, is exact for counters of 0 and 1
// and never misses a new pair; a block it does not clear goes to the exact
// test, which classifies counts above 1 by their nibbles. AVX2.
TEXT ·anyNew(SB), NOSPLIT, $0-33
	MOVQ c+0(FP), SI
	MOVQ s+8(FP), DI
	MOVQ m+16(FP), R8
	MOVQ n+24(FP), CX
	XORQ R10, R10            // the exact test's constants are not loaded yet
	MOVQ CX, BX
	ANDQ $~63, BX            // the bytes of whole blocks
	ADDQ BX, SI              // index from the end of the whole blocks
	ADDQ BX, DI
	ADDQ BX, R8
	MOVQ BX, AX
	NEGQ AX

loop:
	VMOVDQU (R8)(AX*1), Y0
	VMOVDQU 32(R8)(AX*1), Y1
	VPANDN  (SI)(AX*1), Y0, Y0  // c &^ m
	VPANDN  32(SI)(AX*1), Y1, Y1
	VPOR    Y0, Y1, Y2
	VPTEST  Y2, Y2
	JNZ     exact

next:
	ADDQ $64, AX
	JNZ  loop
	CMPQ BX, CX
	JEQ  none                // every counter seen
	// The last n%64 counters: one more step over the map's last 64,
	// from pointers moved to the map's end; BX = CX marks it taken.
	SUBQ BX, CX
	ADDQ CX, SI
	ADDQ CX, DI
	ADDQ CX, R8
	ADDQ CX, BX
	MOVQ BX, CX
	MOVQ $-64, AX
	JMP  loop

exact:
	TESTQ R10, R10
	JNZ   loaded
	MOVQ  $1, R10
	MOVQ  $0xFEFEFEFEFEFEFEFE, DX
	MOVQ  DX, X7
	VPBROADCASTQ X7, Y7
	MOVQ  $0x0F0F0F0F0F0F0F0F, DX
	MOVQ  DX, X8
	VPBROADCASTQ X8, Y8
	VMOVDQU bucketLo<>(SB), Y9
	VMOVDQU bucketHi<>(SB), Y10
	VPXOR   Y11, Y11, Y11

loaded:
	VMOVDQU (SI)(AX*1), Y0
	VMOVDQU 32(SI)(AX*1), Y1
	VPOR    Y0, Y1, Y2
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
	JZ      next
	VZEROUPPER
	MOVB $1, ret+32(FP)
	RET

none:
	VZEROUPPER
	MOVB $0, ret+32(FP)
	RET
