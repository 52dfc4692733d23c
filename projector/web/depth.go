package web

import (
	"sync"
	"unicode"
	"unicode/utf16"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// MaxConversionDepth is the lexical nesting above which an html body is
// passed through raw instead of being converted.
const MaxConversionDepth = 512

// The element sets are built on first use, not at start-up.
var (
	voidElements = sync.OnceValue(func() map[string]bool {
		return map[string]bool{
			"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true, "input": true,
			"link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true,
		}
	})
	rawTextElements = sync.OnceValue(func() map[string]bool { return map[string]bool{"script": true, "style": true, "noscript": true} })
)

// ExceedsConversionDepth is upstream's exceedsConversionDepth: a single
// lexical pass over the UTF-16 units that counts open non-void elements
// (closing tags pop only the current element and never inside comments,
// raw-text bodies are skipped, quoted ">" does not end a tag). Names are
// read from html.toLowerCase() at the original indices, as upstream does
// (U+0130 lower-cases to two units and so shifts that copy).
func ExceedsConversionDepth(html string) bool {
	h := jsonv.Units(html)
	lower := jsLowerUnits(html)
	n := len(h)
	at := func(s []uint16, i int) int { // -1 is JavaScript's undefined
		if i < 0 || i >= len(s) {
			return -1
		}
		return int(s[i])
	}
	var open []string
	offset := 0
	inComment := false
	for offset < n {
		start := indexUnits(h, "<", offset)
		if inComment {
			end := indexUnits(h, "-->", offset)
			if end != -1 && (start == -1 || end < start) {
				inComment = false
				offset = end + 3
				continue
			}
		}
		if start == -1 {
			break
		}
		if !inComment && hasPrefixAt(h, "<!--", start) {
			inComment = true
			offset = start + 4
			continue
		}
		cursor := start + 1
		closing := at(h, cursor) == '/'
		if closing {
			cursor++
		}
		nameStart := cursor
		for isNameUnit(at(h, cursor)) {
			cursor++
		}
		if cursor == nameStart || !isASCIILetter(at(h, nameStart)) {
			offset = start + 1
			continue
		}
		name := unitsString(lower, nameStart, cursor)
		quote := -1
		for cursor < n {
			c := int(h[cursor])
			cursor++
			if quote != -1 {
				if c == quote {
					quote = -1
				}
			} else if c == '"' || c == '\'' {
				quote = c
			} else if c == '>' {
				break
			}
		}
		if at(h, cursor-1) != '>' {
			break
		}
		if closing {
			if !inComment && len(open) > 0 && open[len(open)-1] == name {
				open = open[:len(open)-1]
			}
		} else {
			last := cursor - 2
			for c := at(h, last); c != -1 && unicode.In(rune(c), jsSpace); c = at(h, last) {
				last--
			}
			if !voidElements()[name] && at(h, last) != '/' {
				open = append(open, name)
				if len(open) > MaxConversionDepth {
					return true
				}
				if !inComment && rawTextElements()[name] {
					end := findRawTextEnd(lower, name, cursor)
					if end == -1 {
						break
					}
					offset = end
					continue
				}
			}
		}
		offset = cursor
	}
	return false
}

// jsSpace is JavaScript's \s as a range table test helper.
var jsSpace = &unicode.RangeTable{R16: []unicode.Range16{
	{0x0009, 0x000D, 1}, {0x0020, 0x0020, 1}, {0x00A0, 0x00A0, 1}, {0x1680, 0x1680, 1},
	{0x2000, 0x200A, 1}, {0x2028, 0x2029, 1}, {0x202F, 0x202F, 1}, {0x205F, 0x205F, 1},
	{0x3000, 0x3000, 1}, {0xFEFF, 0xFEFF, 1},
}}

func isASCIILetter(c int) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isNameUnit(c int) bool { return isASCIILetter(c) || c >= '0' && c <= '9' || c == '-' }

func isTagBoundary(c int) bool {
	return c == -1 || c == '>' || c == '/' || unicode.In(rune(c), jsSpace)
}

// findRawTextEnd finds "</name" followed by a tag boundary in the lowered units.
func findRawTextEnd(lower []uint16, name string, from int) int {
	prefix := "</" + name
	cand := indexUnits(lower, prefix, from)
	for cand != -1 {
		i := cand + len(prefix)
		c := -1
		if i < len(lower) {
			c = int(lower[i])
		}
		if isTagBoundary(c) {
			break
		}
		cand = indexUnits(lower, prefix, cand+len(prefix))
	}
	return cand
}

// indexUnits is String.prototype.indexOf for an ASCII needle.
func indexUnits(s []uint16, needle string, from int) int {
	if from < 0 {
		from = 0
	}
	for i := from; i+len(needle) <= len(s); i++ {
		if hasPrefixAt(s, needle, i) {
			return i
		}
	}
	return -1
}

func hasPrefixAt(s []uint16, p string, i int) bool {
	if i < 0 || i+len(p) > len(s) {
		return false
	}
	for k := 0; k < len(p); k++ {
		if s[i+k] != uint16(p[k]) {
			return false
		}
	}
	return true
}

// unitsString is lower.slice(i, j) as a Go string.
func unitsString(s []uint16, i, j int) string {
	if i > len(s) {
		i = len(s)
	}
	if j > len(s) {
		j = len(s)
	}
	if i >= j {
		return ""
	}
	return jsonv.FromUnits(s[i:j])
}

// jsLowerUnits is String.prototype.toLowerCase as UTF-16 units.
func jsLowerUnits(s string) []uint16 {
	u := jsonv.Units(s)
	out := make([]uint16, 0, len(u))
	for i := 0; i < len(u); i++ {
		r := rune(u[i])
		if utf16.IsSurrogate(r) && r < 0xDC00 && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF {
			r = utf16.DecodeRune(r, rune(u[i+1]))
			i++
		}
		switch {
		case r == 0x130: // İ → i + U+0307 (SpecialCasing)
			out = append(out, 'i', 0x307)
		case r < 0x80:
			if r >= 'A' && r <= 'Z' {
				r += 'a' - 'A'
			}
			out = append(out, uint16(r))
		case utf16.IsSurrogate(r):
			out = append(out, uint16(r))
		default:
			out = utf16.AppendRune(out, unicode.ToLower(r))
		}
	}
	return out
}
