package jsonv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// MaxDepth bounds nesting so hostile input gets an error, not a huge stack.
const MaxDepth = 10000

// SyntaxError is a JSON.parse failure at a byte offset of the input.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s at byte %d", e.Msg, e.Offset) }

// ErrTooDeep is wrapped by a SyntaxError when nesting exceeds MaxDepth.
var ErrTooDeep = errors.New("nesting deeper than 10000 levels")

// Parse decodes one JSON text with JSON.parse semantics (surrounding
// whitespace allowed; invalid UTF-8 is decoded to U+FFFD as Node's UTF-8
// decoder does).
func Parse(data []byte) (Value, error) {
	p := parser{data: data}
	if len(data) <= bigInput {
		p.src = string(data)
	}
	return p.whole()
}

// ParseOwned is Parse of a buffer the caller gives up and never writes
// again: decoded strings may share its memory instead of being copied.
func ParseOwned(data []byte) (Value, error) {
	if len(data) == 0 {
		return Parse(data)
	}
	p := parser{data: data, src: unsafe.String(unsafe.SliceData(data), len(data)), writable: true}
	if len(data) > bigInput {
		p.share = len(data) / 2
	}
	return p.whole()
}

// whole parses p's input as one JSON text, surrounding whitespace allowed.
func (p *parser) whole() (Value, error) {
	defer p.release()
	p.skipWS()
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.skipWS()
	if p.pos != len(p.data) {
		return Value{}, p.errf("unexpected %s after JSON value", p.describe())
	}
	return v, nil
}

// ParseString is Parse over a string.
func ParseString(s string) (Value, error) { return Parse([]byte(s)) }

// MustParse parses a literal known to be valid (schemas, test tables); it panics otherwise.
func MustParse(s string) Value {
	v, err := ParseString(s)
	if err != nil {
		panic("jsonv.MustParse: " + err.Error())
	}
	return v
}

type parser struct {
	data []byte
	// src holds the same bytes as data (one copy of the input); strings
	// without escapes and number lexemes are sliced from it instead of being
	// allocated one by one. Empty when the caller did not provide it.
	src string
	// share is the shortest string sliced from src (shorter ones are
	// copied): in a big input a few small strings must not keep the whole
	// text alive beside the value decoded from it.
	share int
	// big: a string of at least bigString was decoded. Containers built
	// after it (its ancestors among them) get their own memory, not a piece
	// of a pooled slab, which later parses keep alive whole.
	big bool
	// writable: the input is the parser's (ParseOwned), so a string that is
	// most of it may be decoded in place.
	writable bool
	pos      int
	buf      []byte
	strict   bool // invalid UTF-8 in a string is an error (the log reader's mode)
	// Scratch stacks: containers are built here and copied out at their exact
	// size, so parsing allocates once per container.
	vstack []Value
	mstack []Member
	sc     *scratch // where vstack, mstack and buf came from (nil: not yet)
}

// scratch is a parser's reusable stacks and string buffer, pooled so that a
// parse does not regrow them from nothing. The stacks are cleared as they
// unwind, so a pooled scratch holds no references.
type scratch struct {
	vstack []Value
	mstack []Member
	buf    []byte
	// Slabs that small containers are carved from, so that a value with many
	// small objects (a read window's lines) costs a few allocations, not one
	// per object. Carved pieces never overlap and are never written again.
	vslab []Value
	mslab []Member
	sslab strings.Builder // decoded short strings, carved out of one buffer
}

// carve copies a decoded string out of the parser's buffer: a short one
// into the string slab (many strings, one allocation), a long one into its
// own allocation. The slab is a strings.Builder because its memory is not
// zeroed first and it only ever appends, so strings already handed out
// stay as they are.
func (s *scratch) carve(buf []byte) string {
	n := len(buf)
	if n == 0 {
		return ""
	}
	if n > stringSlab/16 {
		return string(buf)
	}
	if s.sslab.Cap()-s.sslab.Len() < n {
		s.sslab = strings.Builder{}
		s.sslab.Grow(stringSlab)
	}
	at := s.sslab.Len()
	s.sslab.Write(buf)
	return s.sslab.String()[at:]
}

const (
	stringSlab = 16 << 10 // bytes per string slab
	slabLen    = 128      // elements per slab
	slabPiece  = 16       // containers up to this size are carved from a slab
)

func (p *parser) newMembers(n int) []Member {
	if p.big {
		return make([]Member, n)
	}
	return carveSlab(&p.sc.mslab, n)
}

func (p *parser) newValues(n int) []Value {
	if p.big {
		return make([]Value, n)
	}
	return carveSlab(&p.sc.vslab, n)
}

// carveSlab takes n elements from the front of *slab (a fresh slab when it
// has too few); large containers get their own allocation.
func carveSlab[T any](slab *[]T, n int) []T {
	if n > slabPiece {
		return make([]T, n)
	}
	if len(*slab) < n {
		*slab = make([]T, slabLen)
	}
	out := (*slab)[:n:n]
	*slab = (*slab)[n:]
	return out
}

// bigInput is the size from which an input is not shared whole by the
// strings decoded from it: Parse makes no copy of it, and decodeNow slices
// only a string of at least half of it (a spilled output), copying the rest.
const bigInput = 1 << 20

// bigString is the decoded length from which a string with escapes gets an
// allocation of its own, sized from its source length (an upper bound of the
// decoded one), instead of doubling the pooled buffer and copying it out.
const bigString = 64 << 10

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func (p *parser) borrow() {
	s := scratchPool.Get().(*scratch)
	p.sc = s
	p.vstack, p.mstack, p.buf = s.vstack[:0], s.mstack[:0], s.buf[:0]
}

// release returns the scratch (if any) to the pool; p must not parse again.
func (p *parser) release() {
	s := p.sc
	if s == nil {
		return
	}
	p.sc = nil
	s.vstack, s.mstack, s.buf = p.vstack[:0], p.mstack[:0], p.buf[:0]
	if cap(s.vstack) > 1<<16 {
		s.vstack = nil
	}
	if cap(s.mstack) > 1<<16 {
		s.mstack = nil
	}
	if cap(s.buf) > 1<<20 {
		s.buf = nil
	}
	p.vstack, p.mstack, p.buf = nil, nil, nil
	scratchPool.Put(s)
}

// sub returns data[i:j] as a string, sharing src when there is one (else a
// copy, short ones carved from the string slab).
func (p *parser) sub(i, j int) string {
	if j-i > bigString {
		p.big = true
	}
	if len(p.src) == len(p.data) && j-i >= p.share {
		return p.src[i:j]
	}
	if p.sc == nil {
		p.borrow()
	}
	return p.sc.carve(p.data[i:j])
}

func (p *parser) errf(format string, args ...any) error {
	return &SyntaxError{Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) describe() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	c := p.data[p.pos]
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("character %q", c)
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (p *parser) skipWS() {
	for p.pos < len(p.data) && isWS(p.data[p.pos]) {
		p.pos++
	}
}

func (p *parser) value(depth int) (Value, error) {
	if p.pos >= len(p.data) {
		return Value{}, p.errf("unexpected end of input")
	}
	switch c := p.data[p.pos]; c {
	case '{':
		if depth >= MaxDepth {
			return Value{}, &SyntaxError{Offset: p.pos, Msg: ErrTooDeep.Error()}
		}
		return p.object(depth + 1)
	case '[':
		if depth >= MaxDepth {
			return Value{}, &SyntaxError{Offset: p.pos, Msg: ErrTooDeep.Error()}
		}
		return p.array(depth + 1)
	case '"':
		s, err := p.string()
		if err != nil {
			return Value{}, err
		}
		return Value{kind: String, str: s}, nil
	case 't':
		return p.literal("true", Value{kind: Bool, b: true})
	case 'f':
		return p.literal("false", Value{kind: Bool})
	case 'n':
		return p.literal("null", Value{kind: Null})
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return p.number()
		}
		return Value{}, p.errf("unexpected %s", p.describe())
	}
}

func (p *parser) literal(word string, v Value) (Value, error) {
	if len(p.data)-p.pos >= len(word) && string(p.data[p.pos:p.pos+len(word)]) == word {
		p.pos += len(word)
		return v, nil
	}
	return Value{}, p.errf("unexpected %s", p.describe())
}

func (p *parser) object(depth int) (Value, error) {
	p.pos++ // {
	if p.sc == nil {
		p.borrow()
	}
	base := len(p.mstack)
	defer func() { clear(p.mstack[base:]); p.mstack = p.mstack[:base] }()
	p.skipWS()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return Value{kind: Object}, nil
	}
	for {
		p.skipWS()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return Value{}, p.errf("expected a string key, found %s", p.describe())
		}
		key, err := p.string()
		if err != nil {
			return Value{}, err
		}
		p.skipWS()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return Value{}, p.errf("expected ':' after key, found %s", p.describe())
		}
		p.pos++
		p.skipWS()
		v, err := p.value(depth)
		if err != nil {
			return Value{}, err
		}
		dup := false
		members := p.mstack[base:]
		for i := range members {
			if members[i].Key == key {
				members[i].Value = v // JSON.parse: last value wins, first position kept
				dup = true
				break
			}
		}
		if !dup {
			p.mstack = append(p.mstack, Member{Key: key, Value: v})
		}
		p.skipWS()
		if p.pos >= len(p.data) {
			return Value{}, p.errf("unexpected end of input in object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			out := p.newMembers(len(p.mstack) - base)
			copy(out, p.mstack[base:])
			return mkObj(out), nil
		default:
			return Value{}, p.errf("expected ',' or '}' in object, found %s", p.describe())
		}
	}
}

func (p *parser) array(depth int) (Value, error) {
	p.pos++ // [
	if p.sc == nil {
		p.borrow()
	}
	base := len(p.vstack)
	defer func() { clear(p.vstack[base:]); p.vstack = p.vstack[:base] }()
	p.skipWS()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return Value{kind: Array}, nil
	}
	for {
		p.skipWS()
		v, err := p.value(depth)
		if err != nil {
			return Value{}, err
		}
		p.vstack = append(p.vstack, v)
		p.skipWS()
		if p.pos >= len(p.data) {
			return Value{}, p.errf("unexpected end of input in array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			out := p.newValues(len(p.vstack) - base)
			copy(out, p.vstack[base:])
			return mkArr(out), nil
		default:
			return Value{}, p.errf("expected ',' or ']' in array, found %s", p.describe())
		}
	}
}

func (p *parser) number() (Value, error) {
	start := p.pos
	d := p.data
	i := p.pos
	if d[i] == '-' {
		i++
	}
	if i >= len(d) {
		p.pos = i
		return Value{}, p.errf("unexpected end of input in number")
	}
	intDigits := 0
	if d[i] == '0' {
		i++
		intDigits = 1
	} else if d[i] >= '1' && d[i] <= '9' {
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			intDigits++
		}
	} else {
		p.pos = i
		return Value{}, p.errf("invalid number")
	}
	simple := true
	if i < len(d) && d[i] == '.' {
		simple = false
		i++
		n := 0
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			n++
		}
		if n == 0 {
			p.pos = i
			return Value{}, p.errf("invalid number: no digits after '.'")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		simple = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		n := 0
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			n++
		}
		if n == 0 {
			p.pos = i
			return Value{}, p.errf("invalid number: no digits in exponent")
		}
	}
	p.pos = i
	lex := p.sub(start, i)
	if simple && intDigits <= 15 {
		var n int64
		j := start
		neg := d[j] == '-'
		if neg {
			j++
		}
		for ; j < i; j++ {
			n = n*10 + int64(d[j]-'0')
		}
		f := float64(n)
		if neg {
			f = -f
		}
		return Value{kind: Number, num: f, str: lex}, nil
	}
	f, err := strconv.ParseFloat(lex, 64)
	if err != nil {
		var ne *strconv.NumError
		if !errors.As(err, &ne) || ne.Err != strconv.ErrRange {
			return Value{}, &SyntaxError{Offset: start, Msg: "invalid number"}
		}
		// Out of range: ParseFloat already gives ±Inf or 0, as JavaScript does.
	}
	return Value{kind: Number, num: f, str: lex}, nil
}

// string parses a JSON string at p.pos (which is '"') into WTF-8. Plain
// runs are found a block at a time and copied whole; anything unusual (an
// error to word, invalid UTF-8) is left to stringSlow from the start.
func (p *parser) string() (string, error) {
	d := p.data
	open := p.pos
	start := open + 1
	// Short strings (keys, small values) end within the first word.
	if start+8 <= len(d) {
		if m := specialMask(binary.LittleEndian.Uint64(d[start:])); m != 0 {
			if k := start + bits.TrailingZeros64(m)>>3; d[k] == '"' {
				p.pos = k + 1
				return p.sub(start, k), nil
			}
		}
	}
	lit := start // start of the run not yet copied to buf
	escaped, hi, owned, inPlace := false, false, false, false
	var buf []byte
	for j := start; j < len(d); {
		base := j
		// Checked a block at a time, not at every escape: a block never
		// starts inside an escape or a non-ASCII run.
		if escaped && !owned && len(buf)+base-lit > bigString {
			buf, owned, inPlace = p.ownBuffer(buf, open, base, lit)
		}
		next := base + blockSize
		m := readBitsAt(d, base)
		for m != 0 {
			q := base + bits.TrailingZeros64(m)
			e := q + 1
			switch c := d[q]; {
			case c == '\\':
				if !escaped {
					escaped = true
					if p.sc == nil {
						p.borrow()
					}
					buf = p.buf[:0]
				}
				buf = append(buf, d[lit:q]...)
				if q+1 >= len(d) {
					return p.slowFrom(open)
				}
				switch x := d[q+1]; x {
				case '"', '\\', '/':
					buf = append(buf, x)
				case 'b':
					buf = append(buf, '\b')
				case 'f':
					buf = append(buf, '\f')
				case 'n':
					buf = append(buf, '\n')
				case 'r':
					buf = append(buf, '\r')
				case 't':
					buf = append(buf, '\t')
				case 'u':
					u, ok := hex4(d, q+2)
					if !ok {
						return p.slowFrom(open)
					}
					e = q + 6
					if u >= 0xD800 && u <= 0xDBFF && e+1 < len(d) && d[e] == '\\' && d[e+1] == 'u' {
						if lo, ok := hex4(d, e+2); ok && lo >= 0xDC00 && lo <= 0xDFFF {
							buf = utf8.AppendRune(buf, rune(0x10000+((u-0xD800)<<10)+(lo-0xDC00)))
							e += 6
							break
						}
					}
					hi = hi || u >= 0x80
					buf = appendUnit(buf, u)
				default:
					return p.slowFrom(open)
				}
				if e == q+1 {
					e = q + 2
				}
				lit = e
			case c == '"':
				if hi && !inPlace && !utf8.Valid(d[start:q]) { // invalid source bytes: error or U+FFFD
					return p.slowFrom(open)
				}
				p.pos = q + 1
				if !escaped {
					return p.sub(start, q), nil
				}
				buf = append(buf, d[lit:q]...)
				if hi && !utf8.Valid(buf) {
					return string(fixWTF8(buf)), nil
				}
				if owned {
					return unsafe.String(unsafe.SliceData(buf), len(buf)), nil
				}
				p.buf = buf
				return p.sc.carve(buf), nil
			case c < 0x20:
				return p.slowFrom(open)
			default: // a run of non-ASCII bytes, checked at the end
				hi = true
				for e < len(d) && d[e] >= 0x80 {
					e++
				}
			}
			if e-base >= blockSize {
				next = e
				break
			}
			m &^= 1<<(e-base) - 1
		}
		j = next
	}
	return p.slowFrom(open)
}

// ownBuffer moves the decoding of a long string opened at open, now at
// q (the source run from lit not yet copied), to a buffer of its own
// that holds the rest without growing: what remains decodes to at most its
// source length. A string that is most of a writable input (a spilled
// output in a sidecar entry) is decoded in place, over its own source
// (the write position never passes the read position): the input's memory
// becomes the value's, once, where a copy would hold both at the same time.
// Strings that will fail or need repair keep the pooled buffer (they
// restart from their source).
func (p *parser) ownBuffer(buf []byte, open, q, lit int) (nb []byte, owned, inPlace bool) {
	d := p.data
	end, _, err := scanString(d, q-1, false)
	if err != nil {
		return buf, false, false
	}
	p.big = true
	start, close := open+1, end-1
	if p.writable && close-open > len(d)/2 && utf8.Valid(d[start:close]) {
		nb = append(d[start:start:close], buf...)
		return nb, true, true
	}
	nb = make([]byte, len(buf), len(buf)+end-lit)
	copy(nb, buf)
	return nb, true, false
}

// slowFrom restarts the string at open with stringSlow.
func (p *parser) slowFrom(open int) (string, error) {
	p.pos = open
	return p.stringSlow()
}

// stringSlow is string one run at a time; it words every error.
func (p *parser) stringSlow() (string, error) {
	d := p.data
	start := p.pos + 1
	i := start
	// Fast path: no escapes, valid UTF-8.
	ascii := true
	for i < len(d) {
		i = plainRun(d, i)
		if i >= len(d) {
			break
		}
		c := d[i]
		if c == '"' {
			s := d[start:i]
			p.pos = i + 1
			if !ascii && !utf8.Valid(s) {
				if p.strict {
					p.pos = start
					return "", p.errf(ErrInvalidUTF8Msg)
				}
				return string(replaceInvalid(nil, s)), nil
			}
			return p.sub(start, i), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		ascii = false
		i++
	}
	// Escapes: decode into one exact-capacity allocation (the decoded text is
	// never longer than the source) that becomes the string without a copy.
	var buf []byte
	owned := false
	if end, _, err := scanString(d, start-1, false); err == nil {
		buf = make([]byte, 0, end-start)
		owned = true
		p.big = p.big || end-start > bigString
	} else {
		buf = p.buf[:0]
	}
	buf = append(buf, d[start:i]...)
	hi := !ascii
	for {
		if j := plainRun(d, i); j > i {
			buf = append(buf, d[i:j]...)
			i = j
		}
		for i < len(d) && d[i] >= 0x80 {
			buf = append(buf, d[i])
			i++
			hi = true
		}
		if i >= len(d) {
			p.pos = i
			return "", p.errf("unterminated string")
		}
		c := d[i]
		switch {
		case c == '"':
			if p.strict && !utf8.Valid(d[start:i]) {
				p.pos = start
				return "", p.errf(ErrInvalidUTF8Msg)
			}
			p.pos = i + 1
			if hi && !utf8.Valid(buf) {
				buf = fixWTF8(buf)
				return string(buf), nil
			}
			if !owned {
				p.buf = buf
				return string(buf), nil
			}
			if len(buf) == 0 {
				return "", nil
			}
			return unsafe.String(unsafe.SliceData(buf), len(buf)), nil
		case c < 0x20:
			p.pos = i
			return "", p.errf("control character 0x%02x in string", c)
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		}
		i++
		if i >= len(d) {
			p.pos = i
			return "", p.errf("unterminated string")
		}
		switch d[i] {
		case '"', '\\', '/':
			buf = append(buf, d[i])
			i++
		case 'b':
			buf = append(buf, '\b')
			i++
		case 'f':
			buf = append(buf, '\f')
			i++
		case 'n':
			buf = append(buf, '\n')
			i++
		case 'r':
			buf = append(buf, '\r')
			i++
		case 't':
			buf = append(buf, '\t')
			i++
		case 'u':
			u, ok := hex4(d, i+1)
			if !ok {
				p.pos = i
				return "", p.errf("invalid \\u escape")
			}
			i += 5
			hi = hi || u >= 0x80
			if u >= 0xD800 && u <= 0xDBFF && i+5 < len(d)+0 && i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
				if lo, ok := hex4(d, i+2); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					buf = utf8.AppendRune(buf, rune(0x10000+((u-0xD800)<<10)+(lo-0xDC00)))
					i += 6
					continue
				}
			}
			buf = appendUnit(buf, u)
		default:
			p.pos = i
			return "", p.errf("invalid escape '\\%c'", d[i])
		}
	}
}

func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		default:
			return 0, false
		}
	}
	return r, true
}

// replaceInvalid appends s with invalid UTF-8 bytes replaced by U+FFFD.
func replaceInvalid(dst, s []byte) []byte {
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, "\uFFFD"...)
		} else {
			dst = append(dst, s[:n]...)
		}
		s = s[n:]
	}
	return dst
}

// fixWTF8 replaces invalid source bytes with U+FFFD but keeps the surrogate
// sequences that \u escapes produced. Raw surrogate bytes in the source are
// indistinguishable here and are kept too (they are not valid UTF-8 input,
// and Node would have replaced them; the difference is immaterial).
func fixWTF8(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			if len(b) >= 3 && b[0] == 0xED && b[1] >= 0xA0 && b[1] <= 0xBF && b[2] >= 0x80 && b[2] <= 0xBF {
				out = append(out, b[:3]...)
				b = b[3:]
				continue
			}
			out = append(out, "\uFFFD"...)
			b = b[1:]
			continue
		}
		out = append(out, b[:n]...)
		b = b[n:]
	}
	return out
}
