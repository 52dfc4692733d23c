package jsonv

import (
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unsafe"
)

// Stringify is JSON.stringify(v): JS key order (integer-like keys first),
// JS number formatting, no HTML escaping, lone surrogates as \udxxx.
// Undefined at the top level gives "" (JavaScript gives undefined).
func Stringify(v Value) string {
	v = v.force()
	if v.kind == Undefined {
		return ""
	}
	var b []byte
	b = appendJS(b, v, "", "")
	return ownString(b)
}

// ownString is string(b) for a buffer nobody else holds: a large one
// becomes the string as it is (append grew it by a quarter at most, where
// a copy would hold the text twice at once).
func ownString(b []byte) string {
	if len(b) < 1<<16 {
		return string(b)
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// StringifyIndent is JSON.stringify(v, null, indent).
func StringifyIndent(v Value, indent string) string {
	v = v.force()
	if v.kind == Undefined {
		return ""
	}
	if indent == "" {
		return Stringify(v)
	}
	var b []byte
	b = appendJS(b, v, indent, "\n")
	return ownString(b)
}

// AppendStringifyIndent appends StringifyIndent(v, indent) to b.
func AppendStringifyIndent(b []byte, v Value, indent string) []byte {
	v = v.force()
	if v.kind == Undefined {
		return b
	}
	if indent == "" {
		return appendJS(b, v, "", "")
	}
	return appendJS(b, v, indent, "\n")
}

// AppendStringify appends JSON.stringify(v) to b.
func AppendStringify(b []byte, v Value) []byte { return appendJS(b, v, "", "") }

// StringifyLen is Buffer.byteLength(JSON.stringify(v)), counted without
// building the text (0 for undefined, as Stringify gives "").
func StringifyLen(v Value) int {
	v = v.force()
	if v.kind == Undefined {
		return 0
	}
	return jsLen(v)
}

func jsLen(v Value) int {
	v = v.force()
	switch v.kind {
	case Null, Undefined:
		return 4
	case Bool:
		if v.b {
			return 4
		}
		return 5
	case Number:
		var tmp [32]byte
		return len(appendJS(tmp[:0], v, "", ""))
	case String:
		return quotedLen(v.str)
	case Array:
		es := v.arrs()
		if len(es) == 0 {
			return 2
		}
		n := 1 + len(es) // brackets and commas
		for _, e := range es {
			n += jsLen(e)
		}
		return n
	case Object:
		n, k := 0, 0
		for _, m := range v.objs() {
			if m.Value.kind == Undefined {
				continue
			}
			k++
			n += quotedLen(m.Key) + 1 + jsLen(m.Value)
		}
		if k == 0 {
			return 2
		}
		return n + 1 + k // braces and commas
	}
	return 0
}

// quotedLen is len(AppendQuote(nil, s)).
func quotedLen(s string) int {
	n := len(s) + 2
	for j := 0; j < len(s); {
		base := j
		next := base + blockSize
		m := quoteBitsAt(s, base)
		for m != 0 {
			q := base + bits.TrailingZeros64(m)
			e := q + 1
			switch c := s[q]; {
			case c == 0xED:
				if r, size := decodeWTF8(s[q:]); IsSurrogate(r) {
					n += 6 - size
					e = q + size
				}
			case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n++
			default: // other control characters: \u00XX
				n += 5
			}
			if e-base >= blockSize {
				next = e
				break
			}
			m &^= 1<<(e-base) - 1
		}
		j = next
	}
	return n
}

func appendJS(b []byte, v Value, indent, nl string) []byte {
	v = v.force()
	switch v.kind {
	case Null, Undefined:
		return append(b, "null"...)
	case Bool:
		if v.b {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case Number:
		if math.IsNaN(v.num) || math.IsInf(v.num, 0) {
			return append(b, "null"...)
		}
		if v.num == math.Trunc(v.num) && v.num > -1e15 && v.num < 1e15 {
			return strconv.AppendInt(b, int64(v.num), 10) // -0 gives "0" too
		}
		return append(b, FormatNumber(v.num)...)
	case String:
		return AppendQuote(b, v.str)
	case Array:
		if len(v.arrs()) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		inner := nl
		if indent != "" {
			inner = nl + indent
		}
		for i, e := range v.arrs() {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, inner...)
			b = appendJS(b, e, indent, inner)
		}
		b = append(b, nl...)
		return append(b, ']')
	case Object:
		ms := JSOrder(v.objs())
		inner := nl
		if indent != "" {
			inner = nl + indent
		}
		n := 0
		for _, m := range ms {
			if m.Value.kind == Undefined {
				continue
			}
			if n == 0 {
				b = append(b, '{')
			} else {
				b = append(b, ',')
			}
			n++
			b = append(b, inner...)
			b = AppendQuote(b, m.Key)
			b = append(b, ':')
			if indent != "" {
				b = append(b, ' ')
			}
			b = appendJS(b, m.Value, indent, inner)
		}
		if n == 0 {
			return append(b, "{}"...)
		}
		b = append(b, nl...)
		return append(b, '}')
	}
	return b
}

// arrayIndex reports a canonical array-index key ("0", "17"; below 2^32-1),
// which JavaScript orders before every other key.
func arrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(k, 10, 64)
	if err != nil || n >= 1<<32-1 {
		return 0, false
	}
	return n, true
}

// JSOrder returns members in JavaScript property order: array-index keys
// ascending, then the rest in insertion order. It returns ms itself when
// already ordered.
func JSOrder(ms []Member) []Member {
	has := false
	for _, m := range ms {
		if _, ok := arrayIndex(m.Key); ok {
			has = true
			break
		}
	}
	if !has {
		return ms
	}
	var idx, rest []Member
	for _, m := range ms {
		if _, ok := arrayIndex(m.Key); ok {
			idx = append(idx, m)
		} else {
			rest = append(rest, m)
		}
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, _ := arrayIndex(idx[i].Key)
		c, _ := arrayIndex(idx[j].Key)
		return a < c
	})
	return append(idx, rest...)
}

const hexDigits = "0123456789abcdef"

// AppendQuote appends s as a JSON.stringify string literal.
func AppendQuote(b []byte, s string) []byte {
	if len(s) < blockSize {
		return appendQuoteShort(b, s)
	}
	b = slices.Grow(b, len(s)+2)
	b = append(b, '"')
	start := 0 // the run not yet copied
	for j := 0; j < len(s); {
		base := j
		next := base + blockSize
		m := quoteBitsAt(s, base)
		for m != 0 {
			q := base + bits.TrailingZeros64(m)
			e := q + 1
			if c := s[q]; c == 0xED {
				if r, n := decodeWTF8(s[q:]); IsSurrogate(r) {
					b = append(b, s[start:q]...)
					b = append(b, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
					e = q + n
					start = e
				}
			} else {
				b = append(b, s[start:q]...)
				b = appendEscape(b, c)
				start = e
			}
			if e-base >= blockSize {
				next = e
				break
			}
			m &^= 1<<(e-base) - 1
		}
		j = next
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendEscape appends JSON.stringify's escape of c ('"', '\\' or a
// control character).
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '"':
		return append(b, '\\', '"')
	case '\\':
		return append(b, '\\', '\\')
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// appendQuoteShort is AppendQuote one run at a time (short strings).
func appendQuoteShort(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		i = quoteRun(s, i)
		if i >= len(s) {
			break
		}
		c := s[i]
		if c == 0xED {
			r, n := decodeWTF8(s[i:])
			if IsSurrogate(r) {
				b = append(b, s[start:i]...)
				b = append(b, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
				i += n
				start = i
				continue
			}
			i++
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Quote is JSON.stringify of a string.
func Quote(s string) string { return string(AppendQuote(nil, s)) }

// Encode writes v losslessly: keys in written order, number lexemes as
// parsed (JS formatting for constructed numbers), strings as JSON.stringify.
// Used when rewriting a log so that untouched values keep their bytes.
func Encode(v Value) string { return string(AppendEncode(nil, v)) }

// AppendEncode appends Encode(v) to b.
func AppendEncode(b []byte, v Value) []byte {
	v = v.force()
	switch v.kind {
	case Number:
		if v.str != "" {
			return append(b, v.str...)
		}
		return appendJS(b, v, "", "")
	case Array:
		b = append(b, '[')
		for i, e := range v.arrs() {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendEncode(b, e)
		}
		return append(b, ']')
	case Object:
		b = append(b, '{')
		n := 0
		for _, m := range v.objs() {
			if m.Value.kind == Undefined {
				continue
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = AppendQuote(b, m.Key)
			b = append(b, ':')
			b = AppendEncode(b, m.Value)
		}
		return append(b, '}')
	}
	return appendJS(b, v, "", "")
}

// String implements fmt.Stringer as compact JSON (for messages and tests).
func (v Value) String() string {
	v = v.force()
	if v.kind == Undefined {
		return "undefined"
	}
	return Stringify(v)
}

// Equal is structural equality with JavaScript semantics: object key order
// ignored, numbers compared as doubles, strings exact, undefined members
// treated as absent.
func Equal(a, b Value) bool {
	a, b = a.force(), b.force()
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case Undefined, Null:
		return true
	case Bool:
		return a.b == b.b
	case Number:
		return a.num == b.num || (math.IsNaN(a.num) && math.IsNaN(b.num))
	case String:
		return a.str == b.str
	case Array:
		if len(a.arrs()) != len(b.arrs()) {
			return false
		}
		for i := range a.arrs() {
			if !Equal(a.arrs()[i], b.arrs()[i]) {
				return false
			}
		}
		return true
	case Object:
		na, nb := 0, 0
		for _, m := range a.objs() {
			if m.Value.kind == Undefined {
				continue
			}
			na++
			if !Equal(m.Value, b.Get(m.Key)) {
				return false
			}
		}
		for _, m := range b.objs() {
			if m.Value.kind != Undefined {
				nb++
			}
		}
		return na == nb
	}
	return false
}

// Escape-free helper for messages: a short one-line rendering.
func Short(v Value, max int) string {
	s := Stringify(v)
	if len(s) > max && max > 3 {
		cut := max - 1
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		return s[:cut] + "…"
	}
	return strings.ReplaceAll(s, "\n", " ")
}

// quoteRun returns the first index >= i of a byte AppendQuote must look at:
// '"', '\\', a control character, or 0xED (the lead byte of a WTF-8
// surrogate); len(s) when there is none. Eight bytes at a time.
func quoteRun(s string, i int) int {
	for i+8 <= len(s) {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if m := quoteMask(x); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(s) {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c == 0xED {
			return i
		}
		i++
	}
	return i
}

// quoteMask has the high bit set in each byte of x that quoteRun stops at;
// only the lowest set bit is exact. Bytes >= 0x80 are masked out of the
// control-character test, which would otherwise see them as small.
func quoteMask(x uint64) uint64 {
	q := x ^ (swarOnes * '"')
	b := x ^ (swarOnes * '\\')
	e := x ^ (swarOnes * 0xED)
	ctl := (x - swarOnes*0x20) &^ x
	return (ctl | ((q - swarOnes) &^ q) | ((b - swarOnes) &^ b) | ((e - swarOnes) &^ e)) & swarHigh
}
