//go:build amd64 && !purego

#include "textflag.h"

// Bytes broadcast into the compare vectors.
DATA maskc<>+0(SB)/1, $0x22 // '"'
DATA maskc<>+1(SB)/1, $0x5c // '\\'
DATA maskc<>+2(SB)/1, $0x20 // signed 0x20 > x: x < 0x20 or x >= 0x80
DATA maskc<>+3(SB)/1, $0x1f // unsigned x <= 0x1f
DATA maskc<>+4(SB)/1, $0xed // lead byte of a WTF-8 surrogate
GLOBL maskc<>(SB), RODATA|NOPTR, $8

// func readMask32(p *byte) uint32
TEXT ·readMask32(SB), NOSPLIT, $0-12
	MOVQ p+0(FP), AX
	VMOVDQU (AX), Y0
	VPBROADCASTB maskc<>+0(SB), Y1
	VPBROADCASTB maskc<>+1(SB), Y2
	VPBROADCASTB maskc<>+2(SB), Y3
	VPCMPEQB Y0, Y1, Y1
	VPCMPEQB Y0, Y2, Y2
	VPCMPGTB Y0, Y3, Y3
	VPOR Y1, Y2, Y1
	VPOR Y1, Y3, Y1
	VPMOVMSKB Y1, AX
	VZEROUPPER
	MOVL AX, ret+8(FP)
	RET

// func quoteMask32(p *byte) uint32
TEXT ·quoteMask32(SB), NOSPLIT, $0-12
	MOVQ p+0(FP), AX
	VMOVDQU (AX), Y0
	VPBROADCASTB maskc<>+0(SB), Y1
	VPBROADCASTB maskc<>+1(SB), Y2
	VPBROADCASTB maskc<>+3(SB), Y3
	VPBROADCASTB maskc<>+4(SB), Y4
	VPCMPEQB Y0, Y1, Y1
	VPCMPEQB Y0, Y2, Y2
	VPMINUB Y0, Y3, Y3
	VPCMPEQB Y0, Y3, Y3
	VPCMPEQB Y0, Y4, Y4
	VPOR Y1, Y2, Y1
	VPOR Y3, Y4, Y3
	VPOR Y1, Y3, Y1
	VPMOVMSKB Y1, AX
	VZEROUPPER
	MOVL AX, ret+8(FP)
	RET

// func indexPairBlocks(b []byte, c0, c1 byte) int
// The first i < 32*((len(b)-1)/32) with b[i] == c0 and b[i+1] == c1, or -1.
TEXT ·indexPairBlocks(SB), NOSPLIT, $0-40
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), CX
	LEAQ c0+24(FP), AX
	VPBROADCASTB (AX), Y1
	LEAQ c1+25(FP), AX
	VPBROADCASTB (AX), Y2
	DECQ CX
	SHRQ $5, CX // blocks whose 33rd byte is in b
	XORQ DX, DX // offset of the block
	TESTQ CX, CX
	JZ none
loop:
	VMOVDQU (SI)(DX*1), Y3
	VMOVDQU 1(SI)(DX*1), Y4
	VPCMPEQB Y3, Y1, Y3
	VPCMPEQB Y4, Y2, Y4
	VPAND Y3, Y4, Y3
	VPMOVMSKB Y3, AX
	TESTL AX, AX
	JNZ found
	ADDQ $32, DX
	DECQ CX
	JNZ loop
none:
	VZEROUPPER
	MOVQ $-1, ret+32(FP)
	RET
found:
	VZEROUPPER
	TZCNTL AX, AX
	ADDQ DX, AX
	MOVQ AX, ret+32(FP)
	RET
