package jsonv

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JavaScript string semantics over WTF-8 Go strings. A lone UTF-16 surrogate
// is stored as its 3-byte generalized UTF-8 form (ED A0..BF xx).

// appendUnit appends one UTF-16 code unit that is not part of a pair.
func appendUnit(b []byte, u rune) []byte {
	if u < 0xD800 || u > 0xDFFF {
		return utf8.AppendRune(b, u)
	}
	return append(b, 0xE0|byte(u>>12), 0x80|byte((u>>6)&0x3F), 0x80|byte(u&0x3F))
}

// decodeWTF8 decodes one code point or lone surrogate; size is 1 for invalid
// bytes, which decode as U+FFFD.
func decodeWTF8(s string) (r rune, size int) {
	r, size = utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 && len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2] >= 0x80 && s[2] <= 0xBF {
		return 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	}
	return r, size
}

// IsSurrogate reports a UTF-16 surrogate code unit.
func IsSurrogate(r rune) bool { return r >= 0xD800 && r <= 0xDFFF }

// Units is the string as UTF-16 code units (JavaScript's view of it).
func Units(s string) []uint16 {
	out := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		r, n := decodeWTF8(s[i:])
		i += n
		if r >= 0x10000 {
			a, b := utf16.EncodeRune(r)
			out = append(out, uint16(a), uint16(b))
		} else {
			out = append(out, uint16(r))
		}
	}
	return out
}

// FromUnits builds a WTF-8 string from UTF-16 code units, pairing valid
// surrogate pairs and keeping lone ones.
func FromUnits(u []uint16) string {
	b := make([]byte, 0, len(u))
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		if c >= 0xD800 && c <= 0xDBFF && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF {
			b = utf8.AppendRune(b, utf16.DecodeRune(c, rune(u[i+1])))
			i++
			continue
		}
		b = appendUnit(b, c)
	}
	return string(b)
}

// Len16 is JavaScript's string.length.
func Len16(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			n++
			i++
			continue
		}
		r, sz := decodeWTF8(s[i:])
		i += sz
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// Slice16 is JavaScript's s.slice(start, end) for non-negative indices
// (clamped); a cut inside a surrogate pair leaves a lone surrogate.
func Slice16(s string, start, end int) string {
	if start < 0 {
		start = 0
	}
	if end < start {
		return ""
	}
	// Fast path: ASCII prefix covers the range.
	if end <= len(s) {
		ascii := true
		for i := 0; i < end; i++ {
			if s[i] >= 0x80 {
				ascii = false
				break
			}
		}
		if ascii {
			return s[start:end]
		}
	}
	u := Units(s)
	if end > len(u) {
		end = len(u)
	}
	if start >= end {
		return ""
	}
	return FromUnits(u[start:end])
}

// HasLoneSurrogate reports whether s is not well-formed UTF-16.
func HasLoneSurrogate(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0xED && i+1 < len(s) && s[i+1] >= 0xA0 {
			return true
		}
	}
	return false
}

// ToWellFormed is String.prototype.toWellFormed: lone surrogates become U+FFFD.
// It is also what TextEncoder and Buffer.from(s) do to a string.
func ToWellFormed(s string) string {
	if !HasLoneSurrogate(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := decodeWTF8(s[i:])
		if IsSurrogate(r) {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// ByteLen is Buffer.byteLength(s, 'utf8'): a lone surrogate counts 3 bytes,
// exactly its WTF-8 size.
func ByteLen(s string) int { return len(s) }

// IsJSSpace reports the characters JavaScript's trim() and regex \s match.
func IsJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// TrimJS is String.prototype.trim.
func TrimJS(s string) string { return strings.TrimFunc(s, IsJSSpace) }

// TrimStartJS and TrimEndJS are trimStart/trimEnd.
func TrimStartJS(s string) string { return strings.TrimLeftFunc(s, IsJSSpace) }
func TrimEndJS(s string) string   { return strings.TrimRightFunc(s, IsJSSpace) }

// FormatNumber is JavaScript's Number.prototype.toString() / String(n).
// AppendNumber appends FormatNumber(f) to b; integers (the common case) are
// written without allocating.
func AppendNumber(b []byte, f float64) []byte {
	if f == math.Trunc(f) && f > -(1<<53) && f < 1<<53 {
		return strconv.AppendInt(b, int64(f), 10) // -0 gives "0", as String(-0)
	}
	return append(b, FormatNumber(f)...)
}

func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	if f < 0 {
		return "-" + FormatNumber(-f)
	}
	if f < 1e21 && f == math.Trunc(f) && f < 1<<53 {
		return strconv.FormatInt(int64(f), 10)
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k := len(digits)
	n := x + 1
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	ex := n - 1
	if ex < 0 {
		ex = -ex
	}
	if k == 1 {
		return digits + "e" + sign + strconv.Itoa(ex)
	}
	return digits[:1] + "." + digits[1:] + "e" + sign + strconv.Itoa(ex)
}
