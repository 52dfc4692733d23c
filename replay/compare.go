package replay

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Same reports structural JSON equality with JavaScript semantics: numbers
// as doubles, key order ignored, strings exact, undefined ≠ null. Identical
// text is the fast path. (go-cmp used to wrap jsonv.Equal here; a comparer at
// the root decides alone, so it added nothing but its start-up cost.)
func Same(recorded, replayed jsonv.Value) bool {
	return SameText(recorded, replayed) || jsonv.Equal(recorded, replayed)
}

// FirstDiff is the JSON pointer of the first place where two values differ
// ("" when the roots differ in kind or scalar value; ok false when equal).
// Recorded keys are walked in their order, then keys only the replay has.
func FirstDiff(recorded, replayed jsonv.Value) (pointer string, ok bool) {
	var b strings.Builder
	if !firstDiff(&b, recorded, replayed) {
		return "", false
	}
	return b.String(), true
}

func firstDiff(b *strings.Builder, a, c jsonv.Value) bool {
	if a.Kind() != c.Kind() {
		return true
	}
	switch a.Kind() {
	case jsonv.Array:
		n := min(a.Len(), c.Len())
		for i := 0; i < n; i++ {
			if !jsonv.Equal(a.At(i), c.At(i)) {
				b.WriteByte('/')
				b.WriteString(strconv.Itoa(i))
				firstDiff(b, a.At(i), c.At(i))
				return true
			}
		}
		if a.Len() != c.Len() {
			b.WriteByte('/')
			b.WriteString(strconv.Itoa(n))
			return true
		}
		return false
	case jsonv.Object:
		for _, m := range a.Members() {
			if m.Value.IsUndefined() {
				continue
			}
			if o := c.Get(m.Key); !jsonv.Equal(m.Value, o) {
				writeToken(b, m.Key)
				firstDiff(b, m.Value, o)
				return true
			}
		}
		for _, m := range c.Members() {
			if m.Value.IsDefined() && a.Get(m.Key).IsUndefined() {
				writeToken(b, m.Key)
				return true
			}
		}
		return false
	}
	return !jsonv.Equal(a, c)
}

func writeToken(b *strings.Builder, k string) {
	b.WriteByte('/')
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"))
}

// lookup follows a JSON pointer produced by FirstDiff.
func lookup(v jsonv.Value, pointer string) jsonv.Value {
	if pointer == "" {
		return v
	}
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if v.IsArray() {
			i, err := strconv.Atoi(tok)
			if err != nil {
				return jsonv.Value{}
			}
			v = v.At(i)
		} else {
			v = v.Get(tok)
		}
	}
	return v
}

// textOf is the concatenated text of an all-text content array, ok false
// when any block is not a text block (the spill policy's flattenPlainText).
func textOf(content jsonv.Value) (string, bool) {
	if !content.IsArray() {
		return "", false
	}
	if content.Len() == 1 { // the usual shape: its text, not a copy of it
		blk := content.At(0)
		if blk.Get("type").Str() != "text" || !blk.Get("text").IsString() {
			return "", false
		}
		return blk.Get("text").Str(), true
	}
	var b strings.Builder
	for _, blk := range content.Elems() {
		if blk.Get("type").Str() != "text" || !blk.Get("text").IsString() {
			return "", false
		}
		b.WriteString(blk.Get("text").Str())
	}
	return b.String(), true
}

// sameShapeTexts returns the text of each block when both contents are text
// arrays of equal length differing only in text.
func sameShapeTexts(recorded, replayed jsonv.Value) (rt, pt []string, ok bool) {
	if !recorded.IsArray() || !replayed.IsArray() || recorded.Len() != replayed.Len() {
		return nil, nil, false
	}
	for i := 0; i < recorded.Len(); i++ {
		a, c := recorded.At(i), replayed.At(i)
		if a.Get("type").Str() != "text" || c.Get("type").Str() != "text" ||
			!a.Get("text").IsString() || !c.Get("text").IsString() ||
			!jsonv.Equal(a.With("text", jsonv.Value{}), c.With("text", jsonv.Value{})) {
			return nil, nil, false
		}
		rt = append(rt, a.Get("text").Str())
		pt = append(pt, c.Get("text").Str())
	}
	return rt, pt, true
}

// contentSubKind classifies a text-only content difference: crlf-only,
// trailing-newline or whitespace-only ("" when it is a real change).
func contentSubKind(recorded, replayed jsonv.Value) string {
	rt, pt, ok := sameShapeTexts(recorded, replayed)
	if !ok {
		return ""
	}
	try := func(f func(string) string) bool {
		for i := range rt {
			if f(rt[i]) != f(pt[i]) {
				return false
			}
		}
		return true
	}
	crlf := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
	switch {
	case try(crlf):
		return SubCRLFOnly
	case try(func(s string) string { return strings.TrimRight(s, "\r\n") }):
		return SubTrailingNewline
	}
	for i := range rt {
		if !sameIgnoringSpace(rt[i], pt[i]) {
			return ""
		}
	}
	return SubWhitespaceOnly
}

// sameIgnoringSpace reports that a and b are equal once every JavaScript
// white space rune is removed from both (what joining their
// strings.FieldsFunc fields compares), without building either: the texts
// may be tens of MB and hold millions of words.
func sameIgnoringSpace(a, b string) bool {
	var ca, cb string // the rest of the current non-space rune of each
	for {
		ca, a = nextSolid(ca, a)
		cb, b = nextSolid(cb, b)
		if ca == "" || cb == "" {
			return ca == "" && cb == ""
		}
		n := min(len(ca), len(cb))
		if ca[:n] != cb[:n] {
			return false
		}
		ca, cb = ca[n:], cb[n:]
	}
}

// nextSolid returns cur when it is not empty, else the next rune of s that
// is not white space (as bytes) and what follows it.
func nextSolid(cur, s string) (string, string) {
	for cur == "" && s != "" {
		r, w := utf8.DecodeRuneInString(s)
		if !jsonv.IsJSSpace(r) {
			cur = s[:w]
		}
		s = s[w:]
	}
	return cur, s
}

// DiffLimit caps the lines of one reported diff.
const DiffLimit = 40

// jsonDiff is the report diff for two values: a text line diff when the
// first difference is inside a string, else a diff of the indented JSON.
func jsonDiff(recorded, replayed jsonv.Value, pointer string) []string {
	a, c := lookup(recorded, pointer), lookup(replayed, pointer)
	if a.IsString() && c.IsString() {
		return TextDiff(a.Str(), c.Str(), DiffLimit)
	}
	// Both sides into one reused buffer, then one string: growing a fresh
	// buffer for each side was most of what a diff allocated.
	buf := stringifyPool.Get().(*[]byte)
	b := appendIndent((*buf)[:0], recorded)
	n := len(b)
	b = appendIndent(b, replayed)
	both := string(b)
	if cap(b) <= maxPooled {
		*buf = b
	}
	stringifyPool.Put(buf)
	return TextDiff(both[:n], both[n:], DiffLimit)
}

// maxPooled bounds a buffer kept for reuse, so one huge value does not stay.
const maxPooled = 1 << 20

// appendIndent appends indent(v).
func appendIndent(b []byte, v jsonv.Value) []byte {
	if v.IsUndefined() {
		return append(b, "(absent)"...)
	}
	return jsonv.AppendStringifyIndent(b, v, "  ")
}

func indent(v jsonv.Value) string {
	if v.IsUndefined() {
		return "(absent)"
	}
	return jsonv.StringifyIndent(v, "  ")
}

// SameText reports that the recorded value, still undecoded, is byte for
// byte JSON.stringify of the replayed one: the same value, so a presenter may
// be given the replayed one instead.
func SameText(recorded, replayed jsonv.Value) bool {
	raw, ok := jsonv.RawText(recorded)
	return ok && len(raw) > 0 && fastSame(raw, replayed)
}

// fastSame compares raw JSON text with JSON.stringify(v) without building the
// whole string when the lengths already differ.
func fastSame(raw string, v jsonv.Value) bool {
	if longer(v, len(raw)) {
		return false
	}
	buf := stringifyPool.Get().(*[]byte)
	b := jsonv.AppendStringify((*buf)[:0], v)
	same := string(b) == raw
	if cap(b) <= 1<<20 { // a buffer grown for a huge value is not kept
		*buf = b
		stringifyPool.Put(buf)
	}
	return same
}

// longer reports that JSON.stringify(v) is longer than n bytes, looking at
// the lengths of its strings only (each is at least its length plus two
// quotes): a preview recorded in place of a huge output is told apart
// without stringifying the output.
func longer(v jsonv.Value, n int) bool {
	_, over := textBound(v, n)
	return over
}

// textBound counts down n by a lower bound of v's stringified length;
// over when it goes below zero.
func textBound(v jsonv.Value, n int) (int, bool) {
	switch v.Kind() {
	case jsonv.String:
		n -= len(v.Str()) + 2
	case jsonv.Array:
		for _, e := range v.Elems() {
			var over bool
			if n, over = textBound(e, n); over {
				return n, true
			}
		}
	case jsonv.Object:
		for _, m := range v.Members() {
			if m.Value.IsUndefined() { // not written
				continue
			}
			n -= len(m.Key) + 3
			var over bool
			if n, over = textBound(m.Value, n); over {
				return n, true
			}
		}
	}
	return n, n < 0
}

var stringifyPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}
