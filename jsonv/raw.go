package jsonv

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// Raw scanning: validate JSON text and walk an object's members without
// building Values. The log reader uses it to look at an event envelope and to
// check large payloads it does not need (streamed chunks) at memory speed.
//
// Strict mode (the log reader's) also rejects invalid UTF-8 inside strings,
// where Parse would decode it to U+FFFD as Node does.

// ErrInvalidUTF8Msg is the SyntaxError message for invalid UTF-8 in strict mode.
const ErrInvalidUTF8Msg = "invalid UTF-8 in string"

const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// specialMask has the high bit set in each byte of x that ends a plain run
// inside a JSON string: '"', '\\', a control character, or a non-ASCII byte.
// Only the lowest set bit is exact (borrows may mark later bytes).
func specialMask(x uint64) uint64 {
	q := x ^ (swarOnes * '"')
	b := x ^ (swarOnes * '\\')
	return ((x - swarOnes*0x20) | (q - swarOnes) | (b - swarOnes) | x) & swarHigh
}

// plainRun returns the first index >= i in d holding a byte that is '"',
// '\\', < 0x20 or >= 0x80 (len(d) when there is none).
func plainRun(d []byte, i int) int {
	// 32 bytes per round while nothing special shows up.
	for i+32 <= len(d) {
		b := d[i : i+32]
		m := specialMask(binary.LittleEndian.Uint64(b)) | specialMask(binary.LittleEndian.Uint64(b[8:])) |
			specialMask(binary.LittleEndian.Uint64(b[16:])) | specialMask(binary.LittleEndian.Uint64(b[24:]))
		if m != 0 {
			break
		}
		i += 32
	}
	for i+8 <= len(d) {
		m := specialMask(binary.LittleEndian.Uint64(d[i:]))
		if m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(d) {
		c := d[i]
		if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			return i
		}
		i++
	}
	return i
}

// scanStringSlow is scanString one run at a time; it gives the exact error.
func scanStringSlow(d []byte, i int, strict bool) (end int, escaped bool, err error) {
	i++
	for {
		i = plainRun(d, i)
		if i >= len(d) {
			return i, escaped, &SyntaxError{Offset: i, Msg: "unterminated string"}
		}
		c := d[i]
		switch {
		case c == '"':
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(d) {
				return i + 1, escaped, &SyntaxError{Offset: i + 1, Msg: "unterminated string"}
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if _, ok := hex4(d, i+2); !ok {
					return i, escaped, &SyntaxError{Offset: i + 1, Msg: "invalid \\u escape"}
				}
				i += 6
			default:
				return i, escaped, &SyntaxError{Offset: i + 1, Msg: "invalid escape"}
			}
		case c < 0x20:
			return i, escaped, &SyntaxError{Offset: i, Msg: "control character in string"}
		default: // non-ASCII
			if !strict {
				i++
				continue
			}
			// Validate the whole non-ASCII run at once.
			j := i + 1
			for j < len(d) && d[j] >= 0x80 {
				j++
			}
			if !utf8.Valid(d[i:j]) {
				return i, escaped, &SyntaxError{Offset: i, Msg: ErrInvalidUTF8Msg}
			}
			i = j
		}
	}
}

// isWS is JSON's whitespace. The first test alone settles every byte of
// compact JSON, which has none (one compare instead of four).
func isWS(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

func skipWS(d []byte, i int) int {
	for i < len(d) && isWS(d[i]) {
		i++
	}
	return i
}

// scanNumber checks a number literal at d[i] and returns its end.
func scanNumber(d []byte, i int) (int, bool, error) {
	start := i
	simple := true
	if d[i] == '-' {
		i++
	}
	if i >= len(d) {
		return i, false, &SyntaxError{Offset: i, Msg: "unexpected end of input in number"}
	}
	if d[i] == '0' {
		i++
	} else if d[i]-'1' < 9 {
		for i < len(d) && d[i]-'0' < 10 {
			i++
		}
	} else {
		return i, false, &SyntaxError{Offset: i, Msg: "invalid number"}
	}
	if i < len(d) && d[i] == '.' {
		simple = false
		i++
		n := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == n {
			return i, false, &SyntaxError{Offset: i, Msg: "invalid number: no digits after '.'"}
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		simple = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		n := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == n {
			return i, false, &SyntaxError{Offset: i, Msg: "invalid number: no digits in exponent"}
		}
	}
	_ = start
	return i, simple, nil
}

// digitRun is the end of the number at d[i] when it is a plain integer
// (a digit 1-9 and more digits, no fraction or exponent: seqs, times,
// counts), which needs no more checking; -1 for anything else.
func digitRun(d []byte, i int) int {
	if d[i]-'1' >= 9 {
		return -1
	}
	j := i + 1
	for j < len(d) && d[j]-'0' < 10 {
		j++
	}
	if j < len(d) && (d[j] == '.' || d[j] == 'e' || d[j] == 'E') {
		return -1
	}
	return j
}

func scanLiteral(d []byte, i int, word string) (int, error) {
	if len(d)-i >= len(word) && string(d[i:i+len(word)]) == word {
		return i + len(word), nil
	}
	return i, &SyntaxError{Offset: i, Msg: "unexpected character"}
}

// SkipValue checks the JSON value starting at d[i] (after optional
// whitespace) and returns the index just past it. Nesting is bounded by
// MaxDepth; the walk is iterative, so hostile depth costs no stack.
func SkipValue(d []byte, i int, strict bool) (int, error) {
	// Scalars (most members and elements) without the container machinery.
	i = skipWS(d, i)
	if i < len(d) {
		if c := d[i]; c == '"' {
			end, _, err := scanString(d, i, strict)
			return end, err
		} else if c == '-' || (c >= '0' && c <= '9') {
			if j := digitRun(d, i); j >= 0 {
				return j, nil
			}
			end, _, err := scanNumber(d, i)
			return end, err
		}
	}
	return skipValue(d, i, strict)
}

func skipValue(d []byte, i int, strict bool) (int, error) {
	var small [64]byte
	stack := small[:0]
	i = skipWS(d, i)
	for {
		// A value starts at d[i].
		if i >= len(d) {
			return i, &SyntaxError{Offset: i, Msg: "unexpected end of input"}
		}
		var err error
		switch c := d[i]; c {
		case '{', '[':
			if len(stack) >= MaxDepth {
				return i, &SyntaxError{Offset: i, Msg: ErrTooDeep.Error()}
			}
			i = skipWS(d, i+1)
			if c == '{' {
				stack = append(stack, '}')
				if i < len(d) && d[i] == '}' {
					i++
					stack = stack[:len(stack)-1]
					break
				}
				if i, err = skipKey(d, i, strict); err != nil {
					return i, err
				}
				continue
			}
			stack = append(stack, ']')
			if i < len(d) && d[i] == ']' {
				i++
				stack = stack[:len(stack)-1]
				break
			}
			continue
		case '"':
			i, _, err = scanString(d, i, strict)
		case 't':
			i, err = scanLiteral(d, i, "true")
		case 'f':
			i, err = scanLiteral(d, i, "false")
		case 'n':
			i, err = scanLiteral(d, i, "null")
		default:
			if j := digitRun(d, i); j >= 0 {
				i = j
				break
			}
			if c == '-' || (c >= '0' && c <= '9') {
				i, _, err = scanNumber(d, i)
			} else {
				err = &SyntaxError{Offset: i, Msg: "unexpected character"}
			}
		}
		if err != nil {
			return i, err
		}
		// After a value: close containers or move to the next element.
		for {
			if len(stack) == 0 {
				return i, nil
			}
			if i+1 < len(d) && d[i] == ',' && d[i+1] > ' ' {
				// Compact JSON: the next member or element starts here.
				i++
				if stack[len(stack)-1] == '}' {
					if i, err = skipKey(d, i, strict); err != nil {
						return i, err
					}
				}
				break
			}
			i = skipWS(d, i)
			if i >= len(d) {
				return i, &SyntaxError{Offset: i, Msg: "unexpected end of input"}
			}
			top := stack[len(stack)-1]
			if d[i] == top {
				i++
				stack = stack[:len(stack)-1]
				continue
			}
			if d[i] != ',' {
				return i, &SyntaxError{Offset: i, Msg: "expected ',' or '" + string(top) + "'"}
			}
			i = skipWS(d, i+1)
			if top == '}' {
				if i, err = skipKey(d, i, strict); err != nil {
					return i, err
				}
			}
			break
		}
	}
}

// skipKey checks `"key" :` at d[i] and returns the index of the value.
func skipKey(d []byte, i int, strict bool) (int, error) {
	if i >= len(d) || d[i] != '"' {
		return i, &SyntaxError{Offset: i, Msg: "expected a string key"}
	}
	i, _, err := scanString(d, i, strict)
	if err != nil {
		return i, err
	}
	if i+1 < len(d) && d[i] == ':' && d[i+1] > ' ' {
		return i + 1, nil // compact JSON: no whitespace to look for
	}
	i = skipWS(d, i)
	if i >= len(d) || d[i] != ':' {
		return i, &SyntaxError{Offset: i, Msg: "expected ':' after key"}
	}
	return skipWS(d, i+1), nil
}

// Valid reports whether b is one JSON text that JSON.parse accepts.
func Valid(b []byte) bool {
	i, err := SkipValue(b, 0, false)
	return err == nil && skipWS(b, i) == len(b)
}

// ValidStrict is Valid that also requires valid UTF-8 inside strings; the
// error says where the text first goes wrong.
func ValidStrict(b []byte) error {
	i, err := SkipValue(b, 0, true)
	if err != nil {
		return err
	}
	if i = skipWS(b, i); i != len(b) {
		return &SyntaxError{Offset: i, Msg: "unexpected data after JSON value"}
	}
	return nil
}

// ParsePrefix parses the JSON value at the start of b (after optional
// whitespace) with Parse semantics and returns it with the index just past it.
func ParsePrefix(b []byte) (Value, int, error) {
	p := parser{data: b, src: string(b)}
	defer p.release()
	p.skipWS()
	v, err := p.value(0)
	return v, p.pos, err
}

// ParsePrefixStrict is ParsePrefix that rejects invalid UTF-8 in strings.
func ParsePrefixStrict(b []byte) (Value, int, error) {
	p := parser{data: b, src: string(b), strict: true}
	defer p.release()
	p.skipWS()
	v, err := p.value(0)
	return v, p.pos, err
}

// ObjectReader walks the members of one JSON object without building it.
// Typical use:
//
//	r := NewObjectReader(line, true)
//	for r.Next() {
//		switch string(r.Key()) { case "type": v := r.RawValue() ... default: r.Skip() }
//	}
//	if err := r.Err(); err != nil { ... }
//
// Each member's value must be consumed with Skip, RawValue or Parse before
// the next call to Next (an unconsumed value is skipped).
type ObjectReader struct {
	d        []byte
	src      string // string(d), made on the first Parse
	i        int
	strict   bool
	key      []byte
	escaped  bool
	consumed bool
	started  bool
	done     bool
	nested   bool // a reader from Enter: the object need not end the input
	err      error
}

// NewObjectReader starts reading the object in b; strict rejects invalid UTF-8.
func NewObjectReader(b []byte, strict bool) ObjectReader {
	return ObjectReader{d: b, strict: strict, consumed: true}
}

// Reset reuses r for another object.
func (r *ObjectReader) Reset(b []byte, strict bool) {
	*r = ObjectReader{d: b, strict: strict, consumed: true}
}

func (r *ObjectReader) fail(err error) bool {
	if r.err == nil {
		r.err = err
	}
	r.done = true
	return false
}

// IsObject reports whether the text starts (after whitespace) with '{'.
func (r *ObjectReader) IsObject() bool {
	i := skipWS(r.d, r.i)
	return i < len(r.d) && r.d[i] == '{'
}

// Next advances to the next member; false at the end of the object or on error.
func (r *ObjectReader) Next() bool {
	if r.done {
		return false
	}
	d := r.d
	if !r.started {
		r.started = true
		r.i = skipWS(d, r.i)
		if r.i >= len(d) || d[r.i] != '{' {
			return r.fail(&SyntaxError{Offset: r.i, Msg: "expected an object"})
		}
		r.i = skipWS(d, r.i+1)
		if r.i < len(d) && d[r.i] == '}' {
			r.i++
			return r.finish()
		}
	} else {
		if !r.consumed {
			r.Skip()
			if r.err != nil {
				return false
			}
		}
		r.i = skipWS(d, r.i)
		if r.i >= len(d) {
			return r.fail(&SyntaxError{Offset: r.i, Msg: "unexpected end of input in object"})
		}
		switch d[r.i] {
		case '}':
			r.i++
			return r.finish()
		case ',':
			r.i = skipWS(d, r.i+1)
		default:
			return r.fail(&SyntaxError{Offset: r.i, Msg: "expected ',' or '}' in object"})
		}
	}
	if r.i >= len(d) || d[r.i] != '"' {
		return r.fail(&SyntaxError{Offset: r.i, Msg: "expected a string key"})
	}
	start := r.i
	end, esc, err := scanString(d, r.i, r.strict)
	if err != nil {
		return r.fail(err)
	}
	r.key = d[start+1 : end-1]
	r.escaped = esc
	r.i = skipWS(d, end)
	if r.i >= len(d) || d[r.i] != ':' {
		return r.fail(&SyntaxError{Offset: r.i, Msg: "expected ':' after key"})
	}
	r.i = skipWS(d, r.i+1)
	r.consumed = false
	return true
}

func (r *ObjectReader) finish() bool {
	r.done = true
	if r.nested {
		return false
	}
	if i := skipWS(r.d, r.i); i != len(r.d) {
		r.err = &SyntaxError{Offset: i, Msg: "unexpected data after JSON value"}
	}
	return false
}

// Key is the current member's key. Escaped keys are decoded (JSON.parse
// compares decoded keys), and so are keys with invalid UTF-8 in a lenient
// reader (each bad byte is U+FFFD, as in Parse); the result aliases the
// input when neither applies.
func (r *ObjectReader) Key() []byte {
	if !r.escaped && (r.strict || utf8.Valid(r.key)) {
		return r.key
	}
	q := make([]byte, 0, len(r.key)+2)
	q = append(append(append(q, '"'), r.key...), '"')
	p := parser{data: q}
	s, err := p.string()
	p.release()
	if err != nil {
		return r.key
	}
	return []byte(s)
}

// First reports whether the current value starts with byte c ('"', '{', '[', ...).
func (r *ObjectReader) First() byte {
	if r.i < len(r.d) {
		return r.d[r.i]
	}
	return 0
}

// Skip checks and skips the current value.
func (r *ObjectReader) Skip() {
	r.RawValue()
}

// RawValue checks the current value and returns its bytes.
func (r *ObjectReader) RawValue() []byte {
	if r.consumed || r.done {
		return nil
	}
	r.consumed = true
	start := r.i
	end, err := SkipValue(r.d, r.i, r.strict)
	if err != nil {
		r.fail(err)
		return nil
	}
	r.i = end
	return r.d[start:end]
}

// Parse builds the current value.
func (r *ObjectReader) Parse() Value {
	if r.consumed || r.done {
		return Value{}
	}
	r.consumed = true
	// Without a shared copy of the input (ShareSource), strings are copied
	// one by one, not the whole input for a small member.
	p := parser{data: r.d, src: r.src, pos: r.i, strict: r.strict}
	v, err := p.value(0)
	p.release()
	if err != nil {
		r.fail(err)
		return Value{}
	}
	r.i = p.pos
	return v
}

// Err is the first syntax error met, nil when the object was well formed so far.
func (r *ObjectReader) Err() error { return r.err }

// Offset is the reader's position in the input.
func (r *ObjectReader) Offset() int { return r.i }

// Rest is the input from the reader's position on (the current value first).
func (r *ObjectReader) Rest() []byte { return r.d[r.i:] }

// Input is the whole input the reader walks (Offset indexes it).
func (r *ObjectReader) Input() []byte { return r.d }

// EnterObject returns a reader over the current value, which must be an
// object; LeaveObject must be called with it once it is exhausted.
func (r *ObjectReader) EnterObject() (ObjectReader, bool) {
	if r.consumed || r.done || r.First() != '{' {
		return ObjectReader{}, false
	}
	r.consumed = true
	return ObjectReader{d: r.d, src: r.src, i: r.i, strict: r.strict, consumed: true, nested: true}, true
}

// LeaveObject continues after a nested object read to its end.
func (r *ObjectReader) LeaveObject(sub *ObjectReader) {
	for sub.Next() {
	}
	if sub.err != nil {
		r.fail(sub.err)
		return
	}
	r.i = sub.i
}

// EnterArray returns a reader over the current value, which must be an array.
func (r *ObjectReader) EnterArray() (ArrayReader, bool) {
	if r.consumed || r.done || r.First() != '[' {
		return ArrayReader{}, false
	}
	r.consumed = true
	return ArrayReader{d: r.d, src: r.src, i: r.i, strict: r.strict, consumed: true}, true
}

// LeaveArray continues after a nested array read to its end.
func (r *ObjectReader) LeaveArray(sub *ArrayReader) {
	for sub.Next() {
	}
	if sub.err != nil {
		r.fail(sub.err)
		return
	}
	r.i = sub.i
}

// ArrayReader walks the elements of a JSON array (from EnterArray or
// NewArrayReader). Each element must be consumed before the next Next, or it
// is skipped.
type ArrayReader struct {
	d        []byte
	src      string // string(d), made on the first Parse
	i        int
	strict   bool
	consumed bool
	started  bool
	done     bool
	err      error
}

// NewArrayReader reads the array at the start of b (trailing data is not checked).
func NewArrayReader(b []byte, strict bool) ArrayReader {
	return ArrayReader{d: b, strict: strict, consumed: true}
}

func (a *ArrayReader) fail(err error) bool {
	if a.err == nil {
		a.err = err
	}
	a.done = true
	return false
}

// Next advances to the next element.
func (a *ArrayReader) Next() bool {
	if a.done {
		return false
	}
	d := a.d
	if !a.started {
		a.started = true
		a.i = skipWS(d, a.i)
		if a.i >= len(d) || d[a.i] != '[' {
			return a.fail(&SyntaxError{Offset: a.i, Msg: "expected an array"})
		}
		a.i = skipWS(d, a.i+1)
		if a.i < len(d) && d[a.i] == ']' {
			a.i++
			a.done = true
			return false
		}
	} else {
		if !a.consumed {
			a.Skip()
			if a.err != nil {
				return false
			}
		}
		a.i = skipWS(d, a.i)
		if a.i >= len(d) {
			return a.fail(&SyntaxError{Offset: a.i, Msg: "unexpected end of input in array"})
		}
		switch d[a.i] {
		case ']':
			a.i++
			a.done = true
			return false
		case ',':
			a.i = skipWS(d, a.i+1)
		default:
			return a.fail(&SyntaxError{Offset: a.i, Msg: "expected ',' or ']' in array"})
		}
	}
	a.consumed = false
	return true
}

// First is the first byte of the current element.
func (a *ArrayReader) First() byte {
	if a.i < len(a.d) {
		return a.d[a.i]
	}
	return 0
}

// Skip checks and skips the current element.
func (a *ArrayReader) Skip() { a.RawValue() }

// RawValue checks the current element and returns its bytes.
func (a *ArrayReader) RawValue() []byte {
	if a.consumed || a.done {
		return nil
	}
	a.consumed = true
	start := a.i
	end, err := SkipValue(a.d, a.i, a.strict)
	if err != nil {
		a.fail(err)
		return nil
	}
	a.i = end
	return a.d[start:end]
}

// Parse builds the current element.
func (a *ArrayReader) Parse() Value {
	if a.consumed || a.done {
		return Value{}
	}
	a.consumed = true
	p := parser{data: a.d, src: a.src, pos: a.i, strict: a.strict}
	v, err := p.value(0)
	p.release()
	if err != nil {
		a.fail(err)
		return Value{}
	}
	a.i = p.pos
	return v
}

// Err is the first syntax error met.
func (a *ArrayReader) Err() error { return a.err }

// RawValueString is RawValue as a string: a slice of the shared copy of the
// input after ShareSource, else a copy of the value alone.
func (r *ObjectReader) RawValueString() string {
	start := r.i
	raw := r.RawValue()
	if raw == nil {
		return ""
	}
	if len(r.src) != len(r.d) {
		return string(raw)
	}
	return r.src[start : start+len(raw)]
}

// RawValueString is RawValue as a string: a slice of the shared copy of the
// input after ShareSource, else a copy of the value alone.
func (a *ArrayReader) RawValueString() string {
	start := a.i
	raw := a.RawValue()
	if raw == nil {
		return ""
	}
	if len(a.src) != len(a.d) {
		return string(raw)
	}
	return a.src[start : start+len(raw)]
}

// EnterObject returns a reader over the current element, which must be an object.
func (a *ArrayReader) EnterObject() (ObjectReader, bool) {
	if a.consumed || a.done || a.First() != '{' {
		return ObjectReader{}, false
	}
	a.consumed = true
	return ObjectReader{d: a.d, src: a.src, i: a.i, strict: a.strict, consumed: true, nested: true}, true
}

// LeaveObject continues after a nested object read to its end.
func (a *ArrayReader) LeaveObject(sub *ObjectReader) {
	for sub.Next() {
	}
	if sub.err != nil {
		a.fail(sub.err)
		return
	}
	a.i = sub.i
}

// ShareSource makes the one string copy of the input now, so that readers
// entered from r afterwards share it (RawValueString, Parse) instead of
// making their own.
func (r *ObjectReader) ShareSource() {
	if len(r.src) != len(r.d) {
		r.src = string(r.d)
	}
}
