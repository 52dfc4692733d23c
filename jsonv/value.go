package jsonv

import (
	"math"
	"unsafe"
)

// Kind is the JSON type of a Value; Undefined is the zero Kind.
type Kind uint8

const (
	Undefined Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"undefined", "null", "boolean", "number", "string", "array", "object"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Member is one key/value pair of an object, in written order.
type Member struct {
	Key   string
	Value Value
}

// Value is one immutable JSON value. Copying a Value is cheap; its slices are
// shared and must not be modified after construction.
type Value struct {
	kind Kind
	b    bool
	num  float64
	// str is the string content (WTF-8), or the number lexeme when parsed.
	// For an array or object it holds the elements or members instead: its
	// data pointer is the slice's first element and its length the element
	// count (see mkArr, mkObj). This keeps a Value at 32 bytes, which matters
	// for the reader's throughput.
	str string
}

var (
	emptyVals    = []Value{}
	emptyMembers = []Member{}
)

func mkArr(s []Value) Value {
	if len(s) == 0 {
		return Value{kind: Array}
	}
	return Value{kind: Array, str: unsafe.String((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s))}
}

func mkObj(s []Member) Value {
	if len(s) == 0 {
		return Value{kind: Object}
	}
	return Value{kind: Object, str: unsafe.String((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s))}
}

// arrs is the elements of an array Value (capacity = length).
func (v Value) arrs() []Value {
	v = v.force()
	if v.kind != Array || len(v.str) == 0 {
		return emptyVals
	}
	return unsafe.Slice((*Value)(unsafe.Pointer(unsafe.StringData(v.str))), len(v.str))
}

// objs is the members of an object Value (capacity = length).
func (v Value) objs() []Member {
	v = v.force()
	if v.kind != Object || len(v.str) == 0 {
		return emptyMembers
	}
	return unsafe.Slice((*Member)(unsafe.Pointer(unsafe.StringData(v.str))), len(v.str))
}

// Constructors.

func NullValue() Value             { return Value{kind: Null} }
func BoolValue(b bool) Value       { return Value{kind: Bool, b: b} }
func Num(f float64) Value          { return Value{kind: Number, num: f} }
func Int(i int) Value              { return Value{kind: Number, num: float64(i)} }
func Str(s string) Value           { return Value{kind: String, str: s} }
func Arr(elems ...Value) Value     { return mkArr(elems) }
func Obj(ms ...Member) Value       { return mkObj(ms) }
func M(key string, v Value) Member { return Member{Key: key, Value: v} }

// NumLexeme is a number that keeps its source lexeme (as parsed from a log).
func NumLexeme(f float64, lexeme string) Value { return Value{kind: Number, num: f, str: lexeme} }

// Strs builds an array of strings.
func Strs(ss ...string) Value {
	out := make([]Value, len(ss))
	for i, s := range ss {
		out[i] = Str(s)
	}
	return Arr(out...)
}

// Accessors. Each returns the zero of its type when the kind does not match,
// so projector ports read like their JavaScript originals without panicking.

func (v Value) Kind() Kind {
	if v.kind == lazyKind {
		return v.cell().kind
	}
	return v.kind
}
func (v Value) IsUndefined() bool { return v.kind == Undefined }
func (v Value) IsDefined() bool   { return v.kind != Undefined }
func (v Value) IsNull() bool      { return v.Kind() == Null }
func (v Value) IsBool() bool      { return v.Kind() == Bool }
func (v Value) IsNumber() bool    { return v.Kind() == Number }
func (v Value) IsString() bool    { return v.Kind() == String }
func (v Value) IsArray() bool     { return v.Kind() == Array }
func (v Value) IsObject() bool    { return v.Kind() == Object }

// Bool is the boolean, false for other kinds.
func (v Value) Bool() bool { return v.kind == Bool && v.b }

// True reports v === true.
func (v Value) True() bool { return v.kind == Bool && v.b }

// Num is the double, NaN for other kinds.
func (v Value) Num() float64 {
	v = v.force()
	if v.kind != Number {
		return math.NaN()
	}
	return v.num
}

// Lexeme is the number as written in the source, or "" for constructed numbers.
func (v Value) Lexeme() string {
	v = v.force()
	if v.kind != Number {
		return ""
	}
	return v.str
}

// Str is the string content (WTF-8), "" for other kinds.
func (v Value) Str() string {
	v = v.force()
	if v.kind != String {
		return ""
	}
	return v.str
}

// Len is the number of elements or members, 0 for scalars.
func (v Value) Len() int {
	v = v.force()
	if v.kind == Array || v.kind == Object {
		return len(v.str)
	}
	return 0
}

// At is element i of an array, undefined when out of range or not an array.
func (v Value) At(i int) Value {
	v = v.force()
	if v.kind != Array || i < 0 || i >= len(v.str) {
		return Value{}
	}
	return v.arrs()[i]
}

// Elems is the array's elements (nil for other kinds). Do not modify.
func (v Value) Elems() []Value {
	v = v.force()
	if v.kind != Array {
		return nil
	}
	return v.arrs()
}

// Members is the object's members in written order (nil for other kinds). Do not modify.
func (v Value) Members() []Member {
	v = v.force()
	if v.kind != Object {
		return nil
	}
	return v.objs()
}

// Get is the value of an own key, undefined when absent or not an object.
func (v Value) Get(key string) Value {
	v = v.force()
	if v.kind != Object {
		return Value{}
	}
	ms := v.objs()
	for i := range ms {
		if ms[i].Key == key {
			return ms[i].Value
		}
	}
	return Value{}
}

// Has reports an own key (whatever its value).
func (v Value) Has(key string) bool {
	v = v.force()
	if v.kind != Object {
		return false
	}
	ms := v.objs()
	for i := range ms {
		if ms[i].Key == key {
			return true
		}
	}
	return false
}

// Path follows keys through nested objects.
func (v Value) Path(keys ...string) Value {
	for _, k := range keys {
		v = v.Get(k)
	}
	return v
}

// With returns a copy of the object with key set (replaced in place, or appended).
func (v Value) With(key string, val Value) Value {
	v = v.force()
	if v.kind != Object {
		return v
	}
	out := make([]Member, 0, len(v.objs())+1)
	found := false
	for _, m := range v.objs() {
		if m.Key == key {
			found = true
			if val.kind != Undefined {
				out = append(out, Member{key, val})
			}
			continue
		}
		out = append(out, m)
	}
	if !found && val.kind != Undefined {
		out = append(out, Member{key, val})
	}
	return mkObj(out)
}

// IsInteger reports Number.isInteger(v).
func (v Value) IsInteger() bool {
	v = v.force()
	return v.kind == Number && !math.IsInf(v.num, 0) && !math.IsNaN(v.num) && v.num == math.Trunc(v.num)
}

// IsFiniteNumber reports a finite number that is not -0 (the lossless rule).
func (v Value) IsFiniteNumber() bool {
	v = v.force()
	return v.kind == Number && !math.IsInf(v.num, 0) && !math.IsNaN(v.num) && !(v.num == 0 && math.Signbit(v.num))
}

// Truthy is JavaScript's ToBoolean.
func (v Value) Truthy() bool {
	v = v.force()
	switch v.kind {
	case Bool:
		return v.b
	case Number:
		return v.num != 0 && !math.IsNaN(v.num)
	case String:
		return v.str != ""
	case Array, Object:
		return true
	}
	return false
}

// IsPlainRecord reports a JSON object (not an array, not null).
func (v Value) IsPlainRecord() bool { return v.Kind() == Object }
