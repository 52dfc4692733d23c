package shell

import "testing"

// Expected texts below were produced by upstream's TextRetainer and
// boundTerminalText under Node (TextEncoder/TextDecoder semantics).
func TestRetain(t *testing.T) {
	cases := []struct {
		kind string
		text string
		max  int
		want string
	}{
		{"head", "\uFEFFabc", 10, "abc"}, // TextDecoder drops a leading BOM even when nothing is cut
		{"head", "\uFEFFabcdef", 5, "ab"},
		{"tail", "ab\uFEFFcd", 5, "cd"},
		{"tail", "abc\uFEFF\uFEFFd", 7, "\uFEFFd"}, // only one BOM is dropped
		{"head", "😀😀", 5, "😀"},
		{"tail", "😀😀", 5, "😀"},
		{"head", "a\xed\xa0\xbdb", 4, "a\uFFFD"}, // lone surrogate encodes as U+FFFD
		{"tail", "a\xed\xa0\xbdb", 4, "\uFFFDb"},
		{"head", "a\xed\xa0\xbdb", 10, "a\uFFFDb"},
		{"head", "é", 1, ""},
		{"tail", "é", 1, ""},
		{"tail", "abc", 0, ""},
		{"head", "", 0, ""},
		{"head", "abc", -1, ""},
	}
	for _, c := range cases {
		var got string
		if c.kind == "head" {
			got = retainHead(c.text, c.max)
		} else {
			got = retainTail(c.text, c.max)
		}
		if got != c.want {
			t.Errorf("retain %s(%q, %d) = %q, want %q", c.kind, c.text, c.max, got, c.want)
		}
	}
}

func TestBoundTerminalText(t *testing.T) {
	x100 := ""
	for i := 0; i < 100; i++ {
		x100 += "x"
	}
	cases := []struct {
		text string
		max  int
		want string
	}{
		{"short", 64, "short"},
		{"\xed\xa0\xbd", 3, "\xed\xa0\xbd"}, // fits: kept verbatim, lone surrogate and all
		{"\uFEFF" + x100, 64, x100[:42] + "\n[output truncated]"},
		{x100, 19, "\n[output truncated]"},
		{x100, 10, "truncated]"},
		{"a\xed\xa0\xbd" + x100, 10, "truncated]"},
		{"ab😀" + x100, 24, "ab\n[output truncated]"},
	}
	for _, c := range cases {
		if got := boundTerminalText(c.text, c.max); got != c.want {
			t.Errorf("boundTerminalText(%q, %d) = %q, want %q", c.text, c.max, got, c.want)
		}
	}
}

func TestDecodeUTF8(t *testing.T) {
	cases := []struct{ in, want string }{
		{"abc", "abc"},
		{"\xEF\xBB\xBFabc", "abc"},
		{"\xE2\x82A", "\uFFFDA"},               // maximal subpart: one U+FFFD
		{"\xF0\x9F\x98", "\uFFFD"},             // truncated 4-byte sequence
		{"\xED\xA0\x80", "\uFFFD\uFFFD\uFFFD"}, // surrogate encodings are three errors
		{"\xC0\xAF", "\uFFFD\uFFFD"},
		{"\xF4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"\x80x", "\uFFFDx"},
	}
	for _, c := range cases {
		if got := decodeUTF8([]byte(c.in)); got != c.want {
			t.Errorf("decodeUTF8(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
