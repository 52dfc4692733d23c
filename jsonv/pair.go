package jsonv

// IndexPair is the index of the first c0 followed by c1 in b, or -1: a
// search for a word of JSON text by a pair of its bytes that is rare in
// logs, where bytes.Index, led by a common first byte (a quote), compares
// at every position.
func IndexPair(b []byte, c0, c1 byte) int {
	from := 0
	if haveMask32 && len(b) > blockSize {
		if i := indexPairBlocks(b, c0, c1); i >= 0 {
			return i
		}
		from = (len(b) - 1) / blockSize * blockSize
	}
	for i := from; i+1 < len(b); i++ {
		if b[i] == c0 && b[i+1] == c1 {
			return i
		}
	}
	return -1
}
