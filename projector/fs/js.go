package fs

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// JavaScript semantics the ports need beyond jsonv.

// nullish reports v == null (the ?? and ?. test).
func nullish(v jsonv.Value) bool { return v.IsUndefined() || v.IsNull() }

// orElse is v ?? def.
func orElse(v, def jsonv.Value) jsonv.Value {
	if nullish(v) {
		return def
	}
	return v
}

// argString reads <label>.<key> where upstream calls a string method on it
// (args.file_path.trim()), throwing the TypeError V8 would on a non-string.
func argString(obj jsonv.Value, label, key, method string) (string, error) {
	if nullish(obj) {
		return "", projector.Throwf("Cannot read properties of %s (reading '%s')", jsonv.ToString(obj), key)
	}
	v := obj.Get(key)
	switch {
	case v.IsString():
		return v.Str(), nil
	case nullish(v):
		return "", projector.Throwf("Cannot read properties of %s (reading '%s')", jsonv.ToString(v), method)
	}
	return "", projector.Throwf("%s.%s.%s is not a function", label, key, method)
}

// prefix16 is the first n UTF-16 units of s (s.slice(0, n)); cut reports
// that s was longer. A cut inside a surrogate pair keeps the lone high
// surrogate, as JavaScript does.
func prefix16(s string, n int) (prefix string, cut bool) {
	units := 0
	for i := 0; i < len(s); {
		if units >= n {
			return s[:i], true
		}
		c := s[i]
		if c < utf8.RuneSelf {
			units++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			if units+2 > n {
				hi, _ := utf16.EncodeRune(r)
				return s[:i] + string(appendSurrogate(nil, hi)), true
			}
			units += 2
		} else {
			if r == utf8.RuneError && size == 1 && isWTF8Surrogate(s[i:]) {
				size = 3
			}
			units++
		}
		i += size
	}
	return s, false
}

func isWTF8Surrogate(s string) bool {
	return len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2] >= 0x80 && s[2] <= 0xBF
}

// appendSurrogate appends a lone surrogate in its WTF-8 form.
func appendSurrogate(b []byte, u rune) []byte {
	return append(b, 0xE0|byte(u>>12), 0x80|byte((u>>6)&0x3F), 0x80|byte(u&0x3F))
}
