package jsonv

import "strings"

// ToString is JavaScript's String(v), which template literals apply to every
// interpolated value: arrays join their elements with "," (null and
// undefined elements as ""), objects print "[object Object]".
func ToString(v Value) string {
	switch v.Kind() {
	case Undefined:
		return "undefined"
	case Null:
		return "null"
	case Bool:
		if v.Bool() {
			return "true"
		}
		return "false"
	case Number:
		return FormatNumber(v.Num())
	case String:
		return v.Str()
	case Array:
		parts := make([]string, v.Len())
		for i, e := range v.Elems() {
			if !e.IsNull() && !e.IsUndefined() {
				parts[i] = ToString(e)
			}
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}
