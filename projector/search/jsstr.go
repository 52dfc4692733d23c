package search

import (
	"strconv"
	"strings"

	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
)

func itoa(n int) string { return strconv.Itoa(n) }

// jsString is JavaScript's String(v) for JSON values, as a template literal
// converts an interpolated value.
func jsString(v jsonv.Value) string {
	switch v.Kind() {
	case jsonv.Undefined:
		return "undefined"
	case jsonv.Null:
		return "null"
	case jsonv.Bool:
		if v.Bool() {
			return "true"
		}
		return "false"
	case jsonv.Number:
		return jsonv.FormatNumber(v.Num())
	case jsonv.String:
		return v.Str()
	case jsonv.Array:
		parts := make([]string, v.Len())
		for i, e := range v.Elems() {
			if e.IsNull() || e.IsUndefined() {
				continue
			}
			parts[i] = jsString(e)
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}
