package termquote

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// QuoteName is a file name (or call id) as it may reach a terminal: as is
// when every character is printable, else Go-quoted ("x\n\x1b[31m.jsonl"),
// so a name cannot break a line, drive the terminal or hide in invalid
// UTF-8.
func QuoteName(s string) string {
	if printable(s) {
		return s
	}
	return strconv.Quote(s)
}

// EscapeControls escapes, as Go quoting does but without the quotes, what
// is not printable in a line for a terminal (a message that may carry a
// name: an operating system error, say).
func EscapeControls(s string) string {
	if printable(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !strconv.IsPrint(r) {
			q := strconv.Quote(s[i : i+n])
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return printableSlow(s)
		}
	}
	return true
}

func printableSlow(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !strconv.IsPrint(r) {
			return false
		}
		i += n
	}
	return true
}
