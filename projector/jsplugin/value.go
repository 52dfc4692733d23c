package jsplugin

import (
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
)

// toJS builds the value JSON.parse would give for v's text, without the
// text: goja's JSON.parse goes through encoding/json's tokenizer and was a
// third of a plugin call. Members are defined in order as own properties
// (a "__proto__" key included); strings with lone surrogates go in as
// UTF-16.
func toJS(rt *goja.Runtime, v jsonv.Value) goja.Value {
	return (&builder{rt: rt}).value(v)
}

type builder struct {
	rt     *goja.Runtime
	define goja.Callable // Object.defineProperty, for keys with lone surrogates
}

func (b *builder) value(v jsonv.Value) goja.Value {
	rt := b.rt
	switch v.Kind() {
	case jsonv.Null:
		return goja.Null()
	case jsonv.Bool:
		return rt.ToValue(v.Bool())
	case jsonv.Number:
		return rt.ToValue(v.Num())
	case jsonv.String:
		return jsString(rt, v.Str())
	case jsonv.Array:
		elems := v.Elems()
		items := make([]any, len(elems))
		for i, e := range elems {
			items[i] = b.value(e)
		}
		return rt.NewArray(items...)
	case jsonv.Object:
		o := rt.NewObject()
		for _, m := range v.Members() {
			val := b.value(m.Value)
			// Defined, not set: JSON.parse creates data properties, so
			// neither "__proto__" nor a setter on Object.prototype applies.
			if utf8.ValidString(m.Key) {
				o.DefineDataProperty(m.Key, val, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
			} else {
				b.defineUTF16(o, m.Key, val)
			}
		}
		return o
	}
	return goja.Undefined()
}

func jsString(rt *goja.Runtime, s string) goja.Value {
	if utf8.ValidString(s) {
		return rt.ToValue(s)
	}
	return goja.StringFromUTF16(jsonv.Units(s))
}

// defineUTF16 defines an own property whose key has lone surrogates, which
// goja's string-keyed setters would turn into U+FFFD.
func (b *builder) defineUTF16(o *goja.Object, key string, val goja.Value) {
	rt := b.rt
	if b.define == nil {
		b.define, _ = goja.AssertFunction(rt.Get("Object").ToObject(rt).Get("defineProperty"))
	}
	desc := rt.NewObject()
	desc.Set("value", val)
	desc.Set("writable", true)
	desc.Set("enumerable", true)
	desc.Set("configurable", true)
	b.define(goja.Undefined(), o, jsString(rt, key), desc)
}
