package jsplugin

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/dsh-replay/dsh-replay/jsonv"
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

// fromJS is JSON.parse(JSON.stringify(v)) for a value host.js's lossless()
// accepted (plain objects and arrays of strings, finite numbers, booleans
// and null), read from Go: numbers keep their exact double, where goja's
// JSON.stringify would write some with a wrong last digit. ok is false for
// what it leaves to JSON.stringify (a Proxy, a key with a lone surrogate).
// A getter that throws panics through goja; the caller recovers.
func fromJS(v goja.Value) (out jsonv.Value, ok bool) {
	if goja.IsNull(v) {
		return jsonv.NullValue(), true
	}
	switch x := v.Export().(type) {
	case bool:
		return jsonv.BoolValue(x), true
	case int64:
		return jsonv.Num(float64(x)), true
	case float64:
		return jsonv.Num(x), true
	case string:
		if strings.ContainsRune(x, utf8.RuneError) {
			x = wtf8(v) // U+FFFD may stand for a lone surrogate
		}
		return jsonv.Str(x), true
	case goja.Proxy:
		return jsonv.Value{}, false
	}
	o, isObj := v.(*goja.Object)
	if !isObj {
		return jsonv.Value{}, false
	}
	if o.ClassName() == "Array" {
		elems := make([]jsonv.Value, o.Get("length").ToInteger())
		for i := range elems {
			e, ok := fromJS(o.Get(strconv.Itoa(i)))
			if !ok {
				return jsonv.Value{}, false
			}
			elems[i] = e
		}
		return jsonv.Arr(elems...), true
	}
	keys := o.Keys()
	ms := make([]jsonv.Member, 0, len(keys))
	for _, k := range keys {
		if strings.ContainsRune(k, utf8.RuneError) {
			return jsonv.Value{}, false
		}
		e, ok := fromJS(o.Get(k))
		if !ok {
			return jsonv.Value{}, false
		}
		ms = append(ms, jsonv.M(k, e))
	}
	return jsonv.Obj(ms...), true
}

// misprint is a number goja writes wrongly: as Wrong, where V8 writes Right.
type misprint struct{ Wrong, Right string }

// misprints lists the numbers in v that goja's String(x) writes wrongly
// (goja's shortest-digits fallback gets about 1 in 8,000 doubles with 17
// significant digits wrong). Only numbers with a fraction or past 2^53 can
// be affected.
func misprints(rt *goja.Runtime, v jsonv.Value, out []misprint) []misprint {
	switch v.Kind() {
	case jsonv.Number:
		f := v.Num()
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return out
		}
		if wrong, right := rt.ToValue(f).String(), jsonv.FormatNumber(f); wrong != right {
			out = append(out, misprint{wrong, right})
		}
	case jsonv.Array:
		for _, e := range v.Elems() {
			out = misprints(rt, e, out)
		}
	case jsonv.Object:
		for _, m := range v.Members() {
			out = misprints(rt, m.Value, out)
		}
	}
	return out
}

// printed reports the first misprint whose wrong digits appear in a string
// of v: a projector wrote that number into text, and Node would have
// written other digits.
func printed(v jsonv.Value, ms []misprint) (misprint, bool) {
	switch v.Kind() {
	case jsonv.String:
		for _, m := range ms {
			if strings.Contains(v.Str(), m.Wrong) {
				return m, true
			}
		}
	case jsonv.Array:
		for _, e := range v.Elems() {
			if m, ok := printed(e, ms); ok {
				return m, true
			}
		}
	case jsonv.Object:
		for _, x := range v.Members() {
			if m, ok := printed(x.Value, ms); ok {
				return m, true
			}
		}
	}
	return misprint{}, false
}

// wtf8 is a JavaScript string as the project's strings hold it: WTF-8,
// lone surrogates kept (goja's own conversion makes them U+FFFD).
func wtf8(v goja.Value) string {
	s, ok := v.(goja.String)
	if !ok {
		return v.String()
	}
	units := make([]uint16, s.Length())
	for i := range units {
		units[i] = s.CharAt(i)
	}
	return jsonv.FromUnits(units)
}

// escapeLoneSurrogates writes the lone surrogates of a JSON text as \uXXXX
// escapes: JSON.parse keeps a raw one inside a string (and rejects it
// elsewhere, as it rejects a backslash there), while jsonv reads only
// well-formed UTF-8.
func escapeLoneSurrogates(s string) string {
	if !jsonv.HasLoneSurrogate(s) {
		return s
	}
	const hex = "0123456789abcdef"
	units := jsonv.Units(s)
	var b strings.Builder
	for i := 0; i < len(units); i++ {
		u := units[i]
		switch {
		case u >= 0xD800 && u <= 0xDBFF && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF:
			b.WriteRune(rune(u-0xD800)<<10 | rune(units[i+1]-0xDC00) + 0x10000)
			i++
		case u >= 0xD800 && u <= 0xDFFF:
			b.WriteString(`\u`)
			b.WriteByte(hex[u>>12])
			b.WriteByte(hex[u>>8&15])
			b.WriteByte(hex[u>>4&15])
			b.WriteByte(hex[u&15])
		default:
			b.WriteRune(rune(u))
		}
	}
	return b.String()
}
