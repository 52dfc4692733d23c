package retain

import "testing"

func TestTrimPartialTail(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"abc", "abc"},
		{"a\xc3", "a"},             // é cut after its lead byte
		{"a\xc3\xa9", "a\xc3\xa9"}, // complete é
		{"a\xe2\x82", "a"},         // € cut after two of three bytes
		{"a\xf0\x9f\x98", "a"},     // 😀 cut after three of four bytes
		{"a\xf0\x9f\x98\x80", "a\xf0\x9f\x98\x80"},
		{"\x80\x80\x80\x80", "\x80\x80\x80\x80"}, // no lead within three bytes: kept as is
		{"a\xff", "a\xff"},                       // not a lead byte upstream knows: kept
	}
	for _, c := range cases {
		if got := TrimPartialTail(c.in); got != c.want {
			t.Errorf("TrimPartialTail(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := string(TrimPartialTail([]byte(c.in))); got != c.want {
			t.Errorf("TrimPartialTail([]byte %q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTrimContinuationHead(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""}, {"abc", "abc"}, {"\xa9bc", "bc"}, {"\x82\xacx", "x"}, {"\x80\x80", ""},
	}
	for _, c := range cases {
		if got := TrimContinuationHead(c.in); got != c.want {
			t.Errorf("TrimContinuationHead(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
