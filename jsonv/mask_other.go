//go:build !amd64 || purego

package jsonv

const haveMask32 = false

func readMask32(p *byte) uint32  { panic("unreachable") }
func quoteMask32(p *byte) uint32 { panic("unreachable") }

func indexPairBlocks(b []byte, c0, c1 byte) int { panic("unreachable") }
