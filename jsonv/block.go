package jsonv

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// Block scanning: one exact bitmask per 32 bytes marks every byte a string
// scanner must look at, so a run of plain bytes costs a few word operations
// and each escape is visited once, without re-scanning the run after it.
// The per-word masks are exact (no borrow between bytes), unlike specialMask
// and quoteMask, whose lowest set bit only is reliable.

const (
	swarLow7  = 0x7f7f7f7f7f7f7f7f
	blockSize = 32
)

// special8 has the high bit set in each byte of x that is '"', '\\', < 0x20
// or >= 0x80 (the bytes that end a plain run when reading a string).
func special8(x uint64) uint64 {
	l := x & swarLow7
	plain := (l + swarOnes*0x60) & ((l ^ swarOnes*'"') + swarLow7) & ((l ^ swarOnes*'\\') + swarLow7)
	return (x | ^plain) & swarHigh
}

// quote8 has the high bit set in each byte of x that AppendQuote must look
// at: '"', '\\', < 0x20, or 0xED (the lead byte of a WTF-8 surrogate).
func quote8(x uint64) uint64 {
	l := x & swarLow7
	plain := (l + swarOnes*0x60) & ((l ^ swarOnes*'"') + swarLow7) & ((l ^ swarOnes*'\\') + swarLow7)
	e := x ^ swarOnes*0xED
	isE := ^(((e & swarLow7) + swarLow7) | e)
	return ((^plain &^ x) | isE) & swarHigh
}

// movemask gathers the high bit of each byte of m (which has no other bits)
// into the low 8 bits, byte 0 first.
func movemask(m uint64) uint64 { return ((m >> 7) * 0x0102040810204080) >> 56 }

// readBits is the special8 bitmask of b[0:32] (bit k for b[k]).
func readBits(b []byte) uint64 {
	_ = b[31]
	if haveMask32 {
		return uint64(readMask32(&b[0]))
	}
	return readBitsSWAR(b)
}

func readBitsSWAR(b []byte) uint64 {
	_ = b[31]
	return movemask(special8(binary.LittleEndian.Uint64(b))) |
		movemask(special8(binary.LittleEndian.Uint64(b[8:])))<<8 |
		movemask(special8(binary.LittleEndian.Uint64(b[16:])))<<16 |
		movemask(special8(binary.LittleEndian.Uint64(b[24:])))<<24
}

// quoteBits is the quote8 bitmask of b[0:32].
func quoteBits(b []byte) uint64 {
	_ = b[31]
	if haveMask32 {
		return uint64(quoteMask32(&b[0]))
	}
	return quoteBitsSWAR(b)
}

func quoteBitsSWAR(b []byte) uint64 {
	_ = b[31]
	return movemask(quote8(binary.LittleEndian.Uint64(b))) |
		movemask(quote8(binary.LittleEndian.Uint64(b[8:])))<<8 |
		movemask(quote8(binary.LittleEndian.Uint64(b[16:])))<<16 |
		movemask(quote8(binary.LittleEndian.Uint64(b[24:])))<<24
}

// readBitsAt is readBits of d[i:] for any i < len(d); bytes past the end are
// never marked.
func readBitsAt(d []byte, i int) uint64 {
	if i+blockSize <= len(d) {
		return readBits(d[i : i+blockSize])
	}
	var pad [blockSize]byte
	n := copy(pad[:], d[i:])
	return readBits(pad[:]) & (1<<n - 1)
}

// quoteBitsAt is the quote8 bitmask of s[i:i+32] (s[i:] padded when shorter).
func quoteBitsAt(s string, i int) uint64 {
	if i+blockSize <= len(s) {
		return quoteBits(unsafe.Slice(unsafe.StringData(s[i:]), blockSize))
	}
	var pad [blockSize]byte
	n := copy(pad[:], s[i:])
	return quoteBits(pad[:]) & (1<<n - 1)
}

// escLen is the length of an escape by the byte after its backslash: 2 for
// the one-letter escapes, 6 for \u (its hex digits still to check), else 0.
var escLen = [256]uint8{'"': 2, '\\': 2, '/': 2, 'b': 2, 'f': 2, 'n': 2, 'r': 2, 't': 2, 'u': 6}

// escapeLen is the length of the valid escape sequence at d[i] (a
// backslash), or 0 when it is invalid or cut short.
func escapeLen(d []byte, i int) int {
	if i+1 >= len(d) {
		return 0
	}
	n := int(escLen[d[i+1]])
	if n == 6 {
		if _, ok := hex4(d, i+2); !ok {
			return 0
		}
	}
	return n
}

// scanString checks the string literal whose opening quote is at d[i] and
// returns the index just past its closing quote and whether it held escapes.
// Anything unusual (an error, a cut) is left to scanStringSlow, which also
// words the error.
func scanString(d []byte, i int, strict bool) (end int, escaped bool, err error) {
	j := i + 1
	// Short strings (keys, small values) end within the first word, or
	// the second (most of the rest below 16 bytes: a block mask costs a
	// call).
	if j+8 <= len(d) {
		m := specialMask(binary.LittleEndian.Uint64(d[j:]))
		if m == 0 && j+16 <= len(d) {
			j += 8
			m = specialMask(binary.LittleEndian.Uint64(d[j:]))
		}
		if m != 0 {
			if k := j + bits.TrailingZeros64(m)>>3; d[k] == '"' {
				return k + 1, false, nil
			}
		}
	}
	for j < len(d) {
		base := j
		next := base + blockSize
		m := readBitsAt(d, base)
		for m != 0 {
			p := base + bits.TrailingZeros64(m)
			e := p + 1
			switch c := d[p]; {
			case c == '\\':
				n := 0
				if p+1 < len(d) {
					n = int(escLen[d[p+1]])
				}
				if n != 2 && escapeLen(d, p) == 0 {
					return scanStringSlow(d, i, strict)
				}
				escaped = true
				e = p + n
			case c == '"':
				return p + 1, escaped, nil
			case c < 0x20:
				return scanStringSlow(d, i, strict)
			default: // a run of non-ASCII bytes
				for e < len(d) && d[e] >= 0x80 {
					e++
				}
				if strict && !utf8.Valid(d[p:e]) {
					return scanStringSlow(d, i, strict)
				}
			}
			if e-base >= blockSize {
				next = e
				break
			}
			m &^= 1<<(e-base) - 1
		}
		j = next
	}
	return scanStringSlow(d, i, strict)
}
