package jsonv

import (
	"math/rand"
	"strconv"
	"testing"
)

// naiveQuote is AppendQuote written the obvious way, byte by byte.
func naiveQuote(s string) string {
	b := []byte{'"'}
	for i := 0; i < len(s); {
		r, n := decodeWTF8(s[i:])
		switch {
		case IsSurrogate(r):
			b = append(b, `\u`...)
			h := strconv.FormatInt(int64(r), 16)
			b = append(b, h...)
		case s[i] == '"':
			b = append(b, `\"`...)
		case s[i] == '\\':
			b = append(b, `\\`...)
		case s[i] == '\b':
			b = append(b, `\b`...)
		case s[i] == '\f':
			b = append(b, `\f`...)
		case s[i] == '\n':
			b = append(b, `\n`...)
		case s[i] == '\r':
			b = append(b, `\r`...)
		case s[i] == '\t':
			b = append(b, `\t`...)
		case s[i] < 0x20:
			b = append(b, `\u00`...)
			b = append(b, hexDigits[s[i]>>4], hexDigits[s[i]&0xF])
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(append(b, '"'))
}

// The eight-bytes-at-a-time scan finds every byte that needs escaping,
// wherever it sits in a word.
func TestAppendQuoteMatchesNaive(t *testing.T) {
	pieces := []string{"a", "Z", " ", "\"", "\\", "\x00", "\x1f", "\n", "\x7f", "é", "😀", "\u2028", "\ud7ff", "\ue000",
		"\xed\xa0\x80", "\xed\xbf\xbf", "\xed\x9f\xbf", "<", "&", "\t"}
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 5000; n++ {
		var s string
		for k := rng.Intn(40); k >= 0; k-- {
			s += pieces[rng.Intn(len(pieces))]
		}
		if got, want := Quote(s), naiveQuote(s); got != want {
			t.Fatalf("Quote(%q) = %s, want %s", s, got, want)
		}
	}
}
