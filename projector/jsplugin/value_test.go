package jsplugin

import (
	"math"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// describe is what describeJS prints for the value JSON.parse makes of v's
// text, in JavaScript's own terms (property order, -0, String(number),
// JSON.stringify of strings and keys). goja's JSON.parse is no reference:
// it throws on 1e400 and turns lone surrogates into U+FFFD.
func describe(v jsonv.Value) string {
	switch v.Kind() {
	case jsonv.Null:
		return "object:null"
	case jsonv.Bool:
		return "boolean:" + jsonv.Stringify(v)
	case jsonv.Number:
		if f := v.Num(); f == 0 && math.Signbit(f) {
			return "number:-0"
		}
		return "number:" + jsonv.FormatNumber(v.Num())
	case jsonv.String:
		return "string:" + jsonv.Stringify(v)
	case jsonv.Array:
		var parts []string
		for _, e := range v.Elems() {
			parts = append(parts, describe(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	var parts []string
	for _, m := range jsonv.JSOrder(v.Members()) {
		parts = append(parts, jsonv.Stringify(jsonv.Str(m.Key))+"="+describe(m.Value))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

const describeJS = `(function describe(v) {
  if (v === null || typeof v !== 'object') return typeof v + ':' + (Object.is(v, -0) ? '-0' : typeof v === 'number' ? String(v) : JSON.stringify(v))
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype || Reflect.ownKeys(v).length !== v.length + 1) return 'array!'
    return '[' + v.map(describe).join(',') + ']'
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return 'proto!'
  return '{' + Reflect.ownKeys(v).map(function (k) {
    var d = Object.getOwnPropertyDescriptor(v, k)
    if (!d.writable || !d.enumerable || !d.configurable) return 'flags!'
    return JSON.stringify(k) + '=' + describe(d.value)
  }).join(',') + '}'
})`

// FuzzToJS: toJS builds the value JSON.parse makes of the same text: plain
// data properties in JavaScript's order, -0, Infinity for 1e400, lone
// surrogates kept, "__proto__" as an own key.
func FuzzToJS(f *testing.F) {
	for _, s := range []string{
		`null`, `true`, `-0`, `1e400`, `123456789012345678901234567890`, `5e-324`, `"\ud800x"`, `"é😀"`,
		`{"b":1,"a":2,"1":3,"0":[{},[]]}`, `{"__proto__":{"x":1},"y":2}`, `{"\udc00":"k","a":"a","a":"b"}`,
		`[1,"two",null,false,{"k":[-0.5]}]`,
	} {
		f.Add(s)
	}
	rt := goja.New()
	fn, err := rt.RunString(describeJS)
	if err != nil {
		f.Fatal(err)
	}
	describeIn, _ := goja.AssertFunction(fn)
	f.Fuzz(func(t *testing.T, text string) {
		v, err := jsonv.ParseString(text)
		if err != nil {
			return
		}
		got, err := describeIn(goja.Undefined(), toJS(rt, v))
		if want := describe(v); err != nil || got.String() != want {
			t.Errorf("%s:\n got %s %v\nwant %s", text, got, err, want)
		}
	})
}
