package code

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// run_code (packages/core/tools/src/code-mode.ts): presentCall only; the
// generic result fallback reads the durable content.
func runCodeTool() *projector.Tool {
	return &projector.Tool{
		Name:       "run_code",
		Plugin:     "tools",
		Parameters: params("run_code"),
		Output: &projector.Output{
			Schema: toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"logs":{"type":"array","required":true,"items":{"type":"string"}},"result":{"type":"json"}}}`),
			Render: renderRunCode,
		},
		PresentCall: func(args jsonv.Value) jsonv.Value {
			ms := []jsonv.Member{jsonv.M("card", jsonv.Str("generic")), jsonv.M("title", args.Get("description")),
				jsonv.M("kind", jsonv.Str("execute")), jsonv.M("rawInput", args.Get("code"))}
			return jsonv.Obj(ms...)
		},
		CallCards: []string{"generic"},
	}
}

func renderRunCode(_, value jsonv.Value) (jsonv.Value, error) {
	parts, err := runCodeParts(value)
	if err != nil {
		return jsonv.Value{}, err
	}
	if len(parts) == 0 {
		return text("(run_code completed with no output)")
	}
	return text(strings.Join(parts, "\n"))
}

// runCodeParts is render's [logs.join('\n'), rendered result] without the
// empty ones.
func runCodeParts(value jsonv.Value) ([]string, error) {
	result, err := prop(value, "result")
	if err != nil {
		return nil, err
	}
	rendered := ""
	if result.IsDefined() {
		if result.IsString() {
			rendered = result.Str()
		} else {
			rendered = string(appendCapped(nil, result, 0, false))
		}
	}
	logs := value.Get("logs")
	if !logs.IsArray() {
		if toolkit.Nullish(logs) {
			return nil, toolkit.ReadErr(logs, "join")
		}
		return nil, &toolkit.TypeError{Msg: "value.logs.join is not a function"}
	}
	parts := make([]string, 0, 4)
	if joined := joinJS(logs, "\n"); joined != "" {
		parts = append(parts, joined)
	}
	if rendered != "" {
		parts = append(parts, rendered)
	}
	return parts, nil
}

// joinJS is Array.prototype.join: null and undefined elements print as "".
func joinJS(arr jsonv.Value, sep string) string {
	parts := make([]string, arr.Len())
	for i, e := range arr.Elems() {
		if !toolkit.Nullish(e) {
			parts[i] = str(e)
		}
	}
	return strings.Join(parts, sep)
}

// maxIndentChars is ECMAScript's cap on JSON.stringify's space string, which
// run_code also applies to the TOTAL indentation: a container whose children
// would sit deeper than ten characters renders compact, with everything in it.
const maxIndentChars = 10

// appendCapped renders a non-string root the way renderJsonValue does:
// JSON.stringify(v, null, 2) layout down to depth 4, compact from depth 5,
// numbers via String(n), keys in JavaScript property order.
func appendCapped(b []byte, v jsonv.Value, depth int, compact bool) []byte {
	switch v.Kind() {
	case jsonv.Null, jsonv.Bool, jsonv.Number:
		return append(b, str(v)...)
	case jsonv.String:
		return jsonv.AppendQuote(b, v.Str())
	case jsonv.Array, jsonv.Object:
	default:
		return append(b, "undefined"...)
	}
	compact = compact || (depth+1)*2 > maxIndentChars
	child := depth + 1
	if v.IsArray() {
		b = append(b, '[')
		if v.Len() == 0 {
			return append(b, ']')
		}
		for i, e := range v.Elems() {
			if compact {
				if i > 0 {
					b = append(b, ',')
				}
			} else {
				if i == 0 {
					b = append(b, '\n')
				} else {
					b = append(b, ",\n"...)
				}
				b = append(b, strings.Repeat("  ", child)...)
			}
			b = appendCapped(b, e, child, compact)
		}
		if compact {
			return append(b, ']')
		}
		b = append(b, '\n')
		b = append(b, strings.Repeat("  ", depth)...)
		return append(b, ']')
	}
	ms := jsonv.JSOrder(v.Members())
	b = append(b, '{')
	if len(ms) == 0 {
		return append(b, '}')
	}
	for i, m := range ms {
		if compact {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonv.AppendQuote(b, m.Key)
			b = append(b, ':')
		} else {
			if i == 0 {
				b = append(b, '\n')
			} else {
				b = append(b, ",\n"...)
			}
			b = append(b, strings.Repeat("  ", child)...)
			b = jsonv.AppendQuote(b, m.Key)
			b = append(b, ": "...)
		}
		b = appendCapped(b, m.Value, child, compact)
	}
	if compact {
		return append(b, '}')
	}
	b = append(b, '\n')
	b = append(b, strings.Repeat("  ", depth)...)
	return append(b, '}')
}
