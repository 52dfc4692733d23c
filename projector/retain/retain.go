package retain

// TrimPartialTail drops an incomplete UTF-8 sequence at the end of a head
// cut: it walks back over at most three continuation bytes to a lead byte
// and drops that sequence when fewer bytes follow than the lead declares.
func TrimPartialTail[T ~string | ~[]byte](b T) T {
	i := len(b) - 1
	for i >= 0 && b[i]&0xC0 == 0x80 && len(b)-i <= 3 {
		i--
	}
	if i < 0 {
		return b
	}
	lead := b[i]
	expected := 0
	switch {
	case lead < 0x80:
		expected = 1
	case lead < 0xE0:
		expected = 2
	case lead < 0xF0:
		expected = 3
	case lead < 0xF8:
		expected = 4
	}
	if expected != 0 && len(b)-i < expected {
		return b[:i]
	}
	return b
}

// TrimContinuationHead drops the continuation bytes a tail cut starts with.
func TrimContinuationHead[T ~string | ~[]byte](b T) T {
	i := 0
	for i < len(b) && b[i]&0xC0 == 0x80 {
		i++
	}
	return b[i:]
}
