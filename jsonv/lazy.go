package jsonv

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Lazy values: the log reader checks every record but builds only what it
// needs right away. A result's content, meta and value are kept as their
// (already validated) JSON text and decoded the first time anything looks
// inside them; to every API they behave exactly like the parsed Value.
// Decoding happens once per Lazy value and is safe for concurrent use.

// lazyKind marks a Value whose str field points at a *lazyCell (the same
// pointer-in-a-string layout as containers). It never escapes the package:
// every accessor resolves it first.
const lazyKind Kind = 0xFF

type lazyCell struct {
	once   sync.Once
	raw    string
	build  func() Value // a Deferred value's maker (raw is then unused)
	strict bool
	kind   Kind // known from the first byte without decoding
	v      Value
	done   atomic.Bool
}

// Lazy returns a Value for the JSON text raw that is decoded on first use,
// with Parse semantics (strict: invalid UTF-8 is an error). raw must be one
// JSON value that SkipValue accepted (with the same strictness); if decoding
// fails after all, the Value reads as undefined. Scalars are decoded at once.
func Lazy(raw string, strict bool) Value {
	i := 0
	for i < len(raw) && isWS(raw[i]) {
		i++
	}
	if i == len(raw) {
		return Value{}
	}
	var k Kind
	switch raw[i] {
	case '{':
		k = Object
	case '[':
		k = Array
	case '"':
		if len(raw) < 64 {
			return decodeNow(raw, strict)
		}
		k = String
	default:
		return decodeNow(raw, strict)
	}
	c := &lazyCell{raw: raw, strict: strict, kind: k}
	return Value{kind: lazyKind, str: unsafe.String((*byte)(unsafe.Pointer(c)), 1)}
}

// Deferred returns a Value of kind k (Object or Array) that build makes the
// first time anything looks inside it, once: a tool registry declares ~60
// schemas and a run uses a few. Asking its kind does not build it. build
// must return a value of kind k; another kind is a programming error.
func Deferred(k Kind, build func() Value) Value {
	if k != Object && k != Array {
		panic("jsonv: Deferred of a kind other than object or array")
	}
	c := &lazyCell{build: build, kind: k}
	return Value{kind: lazyKind, str: unsafe.String((*byte)(unsafe.Pointer(c)), 1)}
}

func decodeNow(raw string, strict bool) Value {
	p := parser{data: unsafe.Slice(unsafe.StringData(raw), len(raw)), src: raw, strict: strict}
	if len(raw) > bigInput {
		p.share = len(raw) / 2
	}
	p.skipWS()
	v, err := p.value(0)
	p.release()
	if err != nil {
		return Value{}
	}
	return v
}

func (v Value) cell() *lazyCell {
	return (*lazyCell)(unsafe.Pointer(unsafe.StringData(v.str)))
}

// force returns the decoded Value of a lazy one (v itself otherwise).
func (v Value) force() Value {
	if v.kind != lazyKind {
		return v
	}
	return v.decodeLazy()
}

// decodeLazy is force's slow path, kept out of line so force inlines.
func (v Value) decodeLazy() Value {
	c := v.cell()
	c.once.Do(func() {
		if c.build != nil {
			v := c.build().force()
			if v.kind != c.kind {
				panic(fmt.Sprintf("jsonv: a Deferred %s built a value of kind %s", c.kind, v.kind))
			}
			c.v = v // build stays: RawText reads it unsynchronised
		} else {
			c.v = decodeNow(c.raw, c.strict)
			c.raw = ""
		}
		c.done.Store(true)
	})
	return c.v
}

// IsLazy reports whether v is a lazy value not decoded yet.
func IsLazy(v Value) bool {
	return v.kind == lazyKind && !v.cell().done.Load()
}
