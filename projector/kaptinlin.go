package projector

import (
	"math"

	"github.com/kaptinlin/jsonschema"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// kschema is a schema compiled by kaptinlin/jsonschema.
type kschema = *jsonschema.Schema

func compileKaptinlin(schema jsonv.Value) (kschema, error) { return CompileKaptinlin(schema) }

func kaptinlinValid(ks kschema, v jsonv.Value) bool { return KaptinlinValid(ks, v) }

// CompileKaptinlin compiles a schema with kaptinlin alone (for tests and
// benchmarks; tools compile through Registry.Add).
func CompileKaptinlin(schema jsonv.Value) (*jsonschema.Schema, error) {
	return jsonschema.NewCompiler().Compile([]byte(jsonv.Stringify(schema)))
}

// KaptinlinValid is kaptinlin's verdict alone (exported for the benchmark
// and the differential tests).
func KaptinlinValid(ks *jsonschema.Schema, v jsonv.Value) bool {
	if ks == nil {
		return true
	}
	if v.IsUndefined() {
		return false
	}
	return ks.Validate(ToAny(v)).IsValid()
}

// ToAny converts a Value to the plain Go form kaptinlin validates:
// nil, bool, float64, string, []any, map[string]any. Undefined members and
// elements are dropped (they are caught by IsLossless).
func ToAny(v jsonv.Value) any {
	switch v.Kind() {
	case jsonv.Null:
		return nil
	case jsonv.Bool:
		return v.Bool()
	case jsonv.Number:
		// kaptinlin turns every number into a big.Rat through its decimal
		// text; an int formats much faster than a float64.
		if f := v.Num(); f == math.Trunc(f) && f >= -(1<<53) && f <= 1<<53 && !(f == 0 && math.Signbit(f)) {
			return int64(f)
		}
		return v.Num()
	case jsonv.String:
		return kstring(v.Str())
	case jsonv.Array:
		out := make([]any, 0, v.Len())
		for _, e := range v.Elems() {
			if e.IsDefined() {
				out = append(out, ToAny(e))
			}
		}
		return out
	case jsonv.Object:
		out := make(map[string]any, v.Len())
		for _, m := range v.Members() {
			if m.Value.IsDefined() {
				out[m.Key] = ToAny(m.Value)
			}
		}
		return out
	}
	return nil
}

// kstring is a string as kaptinlin sees it. kaptinlin keys every scalar it
// evaluates by fmt's %#v of the instance (cycle detection for $ref, which
// the supported subset never has); for a file's worth of text that is a
// full Go-syntax quoting per evaluation. GoString makes the key constant;
// type, enum and const checks read the string through reflection as usual.
type kstring string

func (kstring) GoString() string { return "string" }
