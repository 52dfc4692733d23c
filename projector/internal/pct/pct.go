package pct

import (
	"strings"
	"unicode/utf8"
)

// IsHex reports an ASCII hex digit.
func IsHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Unhex is the value of a hex digit (IsHex(c) holds).
func Unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// Decode decodes %XX escapes. With strict set it is decodeURIComponent: a
// malformed escape or invalid UTF-8 fails; otherwise (the URL parser's
// percent-decode) malformed escapes stay literal and bytes are kept.
func Decode(s string, strict bool) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && IsHex(s[i+1]) && IsHex(s[i+2]) {
			out = append(out, Unhex(s[i+1])<<4|Unhex(s[i+2]))
			i += 2
			continue
		}
		if s[i] == '%' && strict {
			return "", false
		}
		out = append(out, s[i])
	}
	if strict && !utf8.Valid(out) {
		return "", false
	}
	return string(out), true
}
