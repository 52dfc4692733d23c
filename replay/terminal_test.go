package replay

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Diff lines are safe on a terminal: a lone surrogate (WTF-8) or invalid
// UTF-8 shows as U+FFFD, C1 controls and bidi overrides as <U+XXXX>; and
// lines that differ only there are still marked as changed.
func TestTextDiffTerminalSafe(t *testing.T) {
	surrogate := "retryLimit: \xed\xa0\x80,"
	for _, c := range []struct {
		recorded, replayed string
		want               []string
	}{
		{surrogate + "\nb\n", "retryLimit: 3,\nb\n", []string{"- retryLimit: \uFFFD,", "+ retryLimit: 3,", "  b"}},
		{surrogate + "\n", "retryLimit: \uFFFD,\n", []string{"- retryLimit: \uFFFD,", "+ retryLimit: \uFFFD,"}},
		{"x\xff\x9b\u202e\n", "x\n", []string{"- x\uFFFD\uFFFD<U+202E>", "+ x"}},
		{"a\u009b[31mb\n", "ab\n", []string{"- a<U+009B>[31mb", "+ ab"}},
		{"", "x", []string{"- (empty)", "+ x"}},
		{"(empty)\n", "", []string{"- (empty)", "+ (empty)"}},
	} {
		got := TextDiff(c.recorded, c.replayed, 0)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("TextDiff(%q, %q) =\n%q\nwant\n%q", c.recorded, c.replayed, got, c.want)
		}
		for _, l := range got {
			if !utf8.ValidString(l) {
				t.Errorf("invalid UTF-8 in %q", l)
			}
		}
	}
	// A long line that differs past the clip is still marked changed.
	long := strings.Repeat("x", MaxLineWidth+50)
	if d := TextDiff(long+"a\n", long+"b\n", 0); len(d) != 2 || d[0][0] != '-' || d[1][0] != '+' {
		t.Errorf("clipped lines: %q", d)
	}
}
