package toolkit

import (
	"fmt"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// annotationKeys are copied onto compiled nodes in this order (schema.ts copyAnnotations).
var annotationKeys = []string{"description", "title", "default", "examples"}

// Compile compiles one author-facing value schema (the defineTool DSL:
// `required: true` on properties, `type: 'json'`, mandatory
// additionalProperties on objects) to the raw JSON Schema upstream's
// valueSchemaSpecToJsonSchema produces, with upstream's key order.
func Compile(spec jsonv.Value) jsonv.Value {
	var ms []jsonv.Member
	ann := func() {
		for _, k := range annotationKeys {
			if spec.Has(k) {
				ms = append(ms, jsonv.M(k, spec.Get(k)))
			}
		}
	}
	if spec.Has("oneOf") {
		var branches []jsonv.Value
		for _, b := range spec.Get("oneOf").Elems() {
			branches = append(branches, Compile(b))
		}
		ms = append(ms, jsonv.M("oneOf", jsonv.Arr(branches...)))
		ann()
		return jsonv.Obj(ms...)
	}
	typ := spec.Get("type").Str()
	switch typ {
	case "json":
		ann()
	case "object":
		ms = append(ms, jsonv.M("type", jsonv.Str("object")))
		ann()
		ms = append(ms, jsonv.M("additionalProperties", spec.Get("additionalProperties")))
		if spec.Has("properties") {
			props, req := compileMap(spec.Get("properties"))
			ms = append(ms, jsonv.M("properties", props))
			if req.Len() > 0 {
				ms = append(ms, jsonv.M("required", req))
			}
		}
	case "array":
		ms = append(ms, jsonv.M("type", jsonv.Str("array")))
		ann()
		if spec.Has("items") {
			ms = append(ms, jsonv.M("items", Compile(spec.Get("items"))))
		}
	default:
		ms = append(ms, jsonv.M("type", jsonv.Str(typ)))
		ann()
		for _, k := range []string{"enum", "const"} {
			if spec.Has(k) {
				ms = append(ms, jsonv.M(k, spec.Get(k)))
			}
		}
	}
	return jsonv.Obj(ms...)
}

// compileMap compiles a property map, collecting `required: true` keys in order.
func compileMap(m jsonv.Value) (props, required jsonv.Value) {
	var ps []jsonv.Member
	var req []string
	for _, p := range m.Members() {
		if p.Value.Get("required").True() {
			req = append(req, p.Key)
		}
		ps = append(ps, jsonv.M(p.Key, Compile(p.Value)))
	}
	return jsonv.Obj(ps...), jsonv.Strs(req...)
}

// CompileParams compiles a parameter map to the implicit open object root
// `{type:'object', properties, required?}` (parameterSchemaSpecToJsonSchema).
func CompileParams(spec jsonv.Value) jsonv.Value {
	props, req := compileMap(spec)
	ms := []jsonv.Member{jsonv.M("type", jsonv.Str("object")), jsonv.M("properties", props)}
	if req.Len() > 0 {
		ms = append(ms, jsonv.M("required", req))
	}
	return jsonv.Obj(ms...)
}

// MustCompile parses and compiles a DSL value schema literal, the first
// time the schema is looked at (a registry holds ~60 tools and a run uses
// a few). Compile always makes an object.
func MustCompile(spec string) jsonv.Value {
	return jsonv.Deferred(jsonv.Object, func() jsonv.Value { return Compile(jsonv.MustParse(spec)) })
}

// MustCompileFunc is MustCompile of a spec that spec makes when the schema
// is first looked at.
func MustCompileFunc(spec func() string) jsonv.Value {
	return jsonv.Deferred(jsonv.Object, func() jsonv.Value { return Compile(jsonv.MustParse(spec())) })
}

// Catalog is a set of compiled parameter schemas keyed by tool name, as
// upstream's generated tool catalog prints them.
type Catalog map[string]jsonv.Value

// ParseCatalog reads a {"tool": schema, ...} document.
func ParseCatalog(data []byte) Catalog {
	v := jsonv.MustParse(string(data))
	c := Catalog{}
	for _, m := range v.Members() {
		c[m.Key] = m.Value
	}
	return c
}

// LazyCatalog is a family's parameter schema lookup over the catalog data:
// the catalog is parsed the first time any schema it gives is looked at
// (registering the tools parses nothing). A name the catalog lacks panics
// then; TestSchemasCompile looks at every one.
func LazyCatalog(data []byte) func(name string) jsonv.Value {
	c := sync.OnceValue(func() Catalog { return ParseCatalog(data) })
	return func(name string) jsonv.Value {
		return jsonv.Deferred(jsonv.Object, func() jsonv.Value { return c().Get(name) })
	}
}

// Get returns one tool's parameter schema; a missing entry is a programming
// error in the port, reported loudly at registration.
func (c Catalog) Get(name string) jsonv.Value {
	v, ok := c[name]
	if !ok {
		panic(fmt.Sprintf("toolkit: no parameter schema for %q", name))
	}
	return v
}

// JSString is JavaScript String(v) (also template-literal interpolation).
func JSString(v jsonv.Value) string { return jsonv.ToString(v) }

// ReadErr is V8's TypeError text for reading a property of a non-object
// (only undefined and null throw; the message names the receiver).
func ReadErr(receiver jsonv.Value, prop string) error {
	return &TypeError{Msg: fmt.Sprintf("Cannot read properties of %s (reading '%s')", JSString(receiver), prop)}
}

// MethodErr is the throw of calling expr.method() on a value that has no
// such method, as a presenter panics with it (projector.Throw).
func MethodErr(v jsonv.Value, expr, method string) error {
	if Nullish(v) {
		return &projector.Throw{Message: ReadErr(v, method).Error()}
	}
	return &projector.Throw{Message: expr + "." + method + " is not a function"}
}

// TypeError is a thrown JavaScript TypeError.
type TypeError struct{ Msg string }

func (e *TypeError) Error() string { return e.Msg }

// Nullish reports undefined or null (the receivers a property read throws on).
func Nullish(v jsonv.Value) bool { return v.IsUndefined() || v.IsNull() }

// Prop reads v[prop] with JavaScript semantics: an error when v is nullish,
// undefined for other non-objects (strings' own properties are not needed by
// the ports; arrays have no named keys that matter here).
func Prop(v jsonv.Value, prop string) (jsonv.Value, error) {
	if Nullish(v) {
		return jsonv.Value{}, ReadErr(v, prop)
	}
	if prop == "length" {
		switch v.Kind() {
		case jsonv.String:
			return jsonv.Int(jsonv.Len16(v.Str())), nil
		case jsonv.Array:
			return jsonv.Int(v.Len()), nil
		}
	}
	return v.Get(prop), nil
}

// Generic builds {card:'generic', title, kind?, rawInput?} in that key order;
// an empty kind or undefined rawInput is omitted.
func Generic(title, kind string, rawInput jsonv.Value) jsonv.Value {
	ms := []jsonv.Member{jsonv.M("card", jsonv.Str("generic")), jsonv.M("title", jsonv.Str(title))}
	if kind != "" {
		ms = append(ms, jsonv.M("kind", jsonv.Str(kind)))
	}
	if rawInput.IsDefined() {
		ms = append(ms, jsonv.M("rawInput", rawInput))
	}
	return jsonv.Obj(ms...)
}

// KindTitle builds {card:'generic', kind, title} — the key order of
// presenters whose object literal names kind before title.
func KindTitle(kind, title string) jsonv.Value {
	return jsonv.Obj(jsonv.M("card", jsonv.Str("generic")), jsonv.M("kind", jsonv.Str(kind)), jsonv.M("title", jsonv.Str(title)))
}

// TextOf is a one-block text content array (render's usual return).
func TextOf(s string) (jsonv.Value, error) {
	return jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Str(s)))), nil
}

// BoundChars caps text at max UTF-16 units, keeping a notice inside the
// cap (notice.slice(0,max) when the notice alone does not fit).
func BoundChars(text string, max int, notice string) string {
	if jsonv.Len16(text) <= max {
		return text
	}
	n := jsonv.Len16(notice)
	if n >= max {
		return jsonv.Slice16(notice, 0, max)
	}
	return jsonv.Slice16(text, 0, max-n) + notice
}
