// Package jsonv is the project's lossless JSON model with JavaScript semantics.
//
// A session log is written by JavaScript, so a Value keeps what JSON.parse
// would see and what JSON.stringify would write: object keys in written order
// (duplicates resolved as JSON.parse does: last value, first position),
// number lexemes next to their IEEE double, and strings as WTF-8 so that lone
// UTF-16 surrogates survive a round trip. The zero Value is JavaScript's
// undefined: an absent key, an absent optional field, "no view".
package jsonv

import (
	"math"
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
	str  string // string content (WTF-8), or the number lexeme when parsed
	arr  []Value
	obj  []Member
}

// Constructors.

func NullValue() Value             { return Value{kind: Null} }
func BoolValue(b bool) Value       { return Value{kind: Bool, b: b} }
func Num(f float64) Value          { return Value{kind: Number, num: f} }
func Int(i int) Value              { return Value{kind: Number, num: float64(i)} }
func Str(s string) Value           { return Value{kind: String, str: s} }
func Arr(elems ...Value) Value     { return Value{kind: Array, arr: nonNilArr(elems)} }
func Obj(ms ...Member) Value       { return Value{kind: Object, obj: nonNilObj(ms)} }
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

func nonNilArr(v []Value) []Value {
	if v == nil {
		return []Value{}
	}
	return v
}

func nonNilObj(m []Member) []Member {
	if m == nil {
		return []Member{}
	}
	return m
}

// Accessors. Each returns the zero of its type when the kind does not match,
// so projector ports read like their JavaScript originals without panicking.

func (v Value) Kind() Kind        { return v.kind }
func (v Value) IsUndefined() bool { return v.kind == Undefined }
func (v Value) IsDefined() bool   { return v.kind != Undefined }
func (v Value) IsNull() bool      { return v.kind == Null }
func (v Value) IsBool() bool      { return v.kind == Bool }
func (v Value) IsNumber() bool    { return v.kind == Number }
func (v Value) IsString() bool    { return v.kind == String }
func (v Value) IsArray() bool     { return v.kind == Array }
func (v Value) IsObject() bool    { return v.kind == Object }

// Bool is the boolean, false for other kinds.
func (v Value) Bool() bool { return v.kind == Bool && v.b }

// True reports v === true.
func (v Value) True() bool { return v.kind == Bool && v.b }

// Num is the double, NaN for other kinds.
func (v Value) Num() float64 {
	if v.kind != Number {
		return math.NaN()
	}
	return v.num
}

// Lexeme is the number as written in the source, or "" for constructed numbers.
func (v Value) Lexeme() string {
	if v.kind != Number {
		return ""
	}
	return v.str
}

// Str is the string content (WTF-8), "" for other kinds.
func (v Value) Str() string {
	if v.kind != String {
		return ""
	}
	return v.str
}

// Len is the number of elements or members, 0 for scalars.
func (v Value) Len() int {
	switch v.kind {
	case Array:
		return len(v.arr)
	case Object:
		return len(v.obj)
	}
	return 0
}

// At is element i of an array, undefined when out of range or not an array.
func (v Value) At(i int) Value {
	if v.kind != Array || i < 0 || i >= len(v.arr) {
		return Value{}
	}
	return v.arr[i]
}

// Elems is the array's elements (nil for other kinds). Do not modify.
func (v Value) Elems() []Value {
	if v.kind != Array {
		return nil
	}
	return v.arr
}

// Members is the object's members in written order (nil for other kinds). Do not modify.
func (v Value) Members() []Member {
	if v.kind != Object {
		return nil
	}
	return v.obj
}

// Get is the value of an own key, undefined when absent or not an object.
func (v Value) Get(key string) Value {
	if v.kind != Object {
		return Value{}
	}
	for i := range v.obj {
		if v.obj[i].Key == key {
			return v.obj[i].Value
		}
	}
	return Value{}
}

// Has reports an own key (whatever its value).
func (v Value) Has(key string) bool {
	if v.kind != Object {
		return false
	}
	for i := range v.obj {
		if v.obj[i].Key == key {
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
	if v.kind != Object {
		return v
	}
	out := make([]Member, 0, len(v.obj)+1)
	found := false
	for _, m := range v.obj {
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
	return Value{kind: Object, obj: out}
}

// IsInteger reports Number.isInteger(v).
func (v Value) IsInteger() bool {
	return v.kind == Number && !math.IsInf(v.num, 0) && !math.IsNaN(v.num) && v.num == math.Trunc(v.num)
}

// IsFiniteNumber reports a finite number that is not -0 (the lossless rule).
func (v Value) IsFiniteNumber() bool {
	return v.kind == Number && !math.IsInf(v.num, 0) && !math.IsNaN(v.num) && !(v.num == 0 && math.Signbit(v.num))
}

// Truthy is JavaScript's ToBoolean.
func (v Value) Truthy() bool {
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
func (v Value) IsPlainRecord() bool { return v.kind == Object }
