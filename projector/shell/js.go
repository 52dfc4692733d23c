package shell

import (
	"math"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// orNull is `x ?? 'null'` interpolated: null and undefined print as "null".
func orNull(v jsonv.Value) string {
	if v.IsNull() || v.IsUndefined() {
		return "null"
	}
	return jsonv.ToString(v)
}

// singleText is the text of a content array holding exactly one text block
// (upstream rawContentText / rawSingleText); ok is false otherwise.
func singleText(content jsonv.Value) (string, bool) {
	if !content.IsArray() || content.Len() != 1 {
		return "", false
	}
	block := content.At(0)
	if !block.Get("type").IsString() || block.Get("type").Str() != "text" || !block.Get("text").IsString() {
		return "", false
	}
	return block.Get("text").Str(), true
}

// rawText is the `text` member of the only block of a content array whose
// type is "text" — any kind, undefined when absent — as presenters read it
// (`block?.type === 'text' ? block.text : undefined`). ok is false for
// other shapes.
func rawText(content jsonv.Value) (jsonv.Value, bool) {
	if !content.IsArray() || content.Len() != 1 {
		return jsonv.Value{}, false
	}
	block := content.At(0)
	if t := block.Get("type"); !t.IsString() || t.Str() != "text" {
		return jsonv.Value{}, false
	}
	return block.Get("text"), true
}

// text is a one-block render result.
func text(s string) (jsonv.Value, error) { return projector.TextContent(s), nil }

// generic builds a GenericCallView in upstream's key order; rawInput is
// omitted when undefined (the conditional spread).
func generic(title, kind string, rawInput jsonv.Value) jsonv.Value {
	ms := []jsonv.Member{
		jsonv.M("card", jsonv.Str("generic")),
		jsonv.M("title", jsonv.Str(title)),
		jsonv.M("kind", jsonv.Str(kind)),
	}
	if rawInput.IsDefined() {
		ms = append(ms, jsonv.M("rawInput", rawInput))
	}
	return jsonv.Obj(ms...)
}

// conforms reports whether v satisfies a compiled schema of the supported
// subset, as defineTool's soft validation (validateJsonSchemaValue in DSH's
// and LasmeX's packages/core/tools/src/json-schema.ts) decides before a
// presenter runs. The registry gates presenters the same way; this keeps the
// presenters total on their own when called directly.
func conforms(schema, v jsonv.Value) bool {
	if branches := schema.Get("oneOf"); branches.IsArray() {
		n := 0
		for _, b := range branches.Elems() {
			if conforms(b, v) {
				n++
			}
		}
		return n == 1
	}
	typ := schema.Get("type")
	if !typ.IsString() {
		return v.IsDefined() // annotation-only: any lossless JSON value
	}
	switch typ.Str() {
	case "object":
		if !v.IsObject() {
			return false
		}
		props := schema.Get("properties")
		for _, k := range schema.Get("required").Elems() {
			if !v.Has(k.Str()) {
				return false
			}
		}
		for _, m := range props.Members() {
			if v.Has(m.Key) && !conforms(m.Value, v.Get(m.Key)) {
				return false
			}
		}
		if ap := schema.Get("additionalProperties"); ap.IsBool() && !ap.Bool() {
			for _, m := range v.Members() {
				if !props.Has(m.Key) {
					return false
				}
			}
		}
		return true
	case "array":
		if !v.IsArray() {
			return false
		}
		if items := schema.Get("items"); items.IsDefined() {
			for _, e := range v.Elems() {
				if !conforms(items, e) {
					return false
				}
			}
		}
		return true
	case "string":
		if !v.IsString() {
			return false
		}
	case "boolean":
		if !v.IsBool() {
			return false
		}
	case "null":
		return v.IsNull()
	case "number":
		if !v.IsFiniteNumber() {
			return false
		}
	case "integer":
		if !v.IsFiniteNumber() || v.Num() != math.Trunc(v.Num()) {
			return false
		}
	default:
		return false
	}
	if enum := schema.Get("enum"); enum.IsArray() {
		found := false
		for _, e := range enum.Elems() {
			if jsonv.Equal(e, v) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if c := schema.Get("const"); c.IsDefined() && !jsonv.Equal(c, v) {
		return false
	}
	return true
}
