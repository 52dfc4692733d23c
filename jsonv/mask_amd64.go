//go:build amd64 && !purego

package jsonv

import "golang.org/x/sys/cpu"

// With AVX2 a 32-byte block mask is one vector compare; readBits and
// quoteBits fall back to the word masks otherwise (and always under the
// purego tag, which leaves this file out).
var haveMask32 = cpu.X86.HasAVX2

// readMask32 is the special8 bitmask of the 32 bytes at p (AVX2 only).
//
//go:noescape
func readMask32(p *byte) uint32

// quoteMask32 is the quote8 bitmask of the 32 bytes at p (AVX2 only).
//
//go:noescape
func quoteMask32(p *byte) uint32

// indexPairBlocks is IndexPair over the first 32*((len(b)-1)/32) starting
// positions, 32 at a time (AVX2 only); -1 when none of them matches.
//
//go:noescape
func indexPairBlocks(b []byte, c0, c1 byte) int
