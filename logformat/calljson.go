package logformat

import (
	"strconv"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// CallJSONOptions choose the optional parts of AppendCallJSON.
type CallJSONOptions struct {
	Meta    bool // include the recorded meta itself (not just hasMeta)
	Content bool // include the recorded content blocks
	Value   bool // include the recorded value
}

// AppendCallJSON appends one call as a compact JSON object (the NDJSON line
// of `dsh-replay calls`): provenance, tool name, raw and parsed arguments,
// the result's flags, and the sub-calls of a Code Mode root. JSON values from
// the log are written losslessly (number lexemes, key order).
func AppendCallJSON(b []byte, c *Call, o CallJSONOptions) []byte {
	str := func(k, v string) {
		b = append(b, ',')
		b = jsonv.AppendQuote(b, k)
		b = append(b, ':')
		b = jsonv.AppendQuote(b, v)
	}
	num := func(k string, v int64) {
		b = append(b, ',')
		b = jsonv.AppendQuote(b, k)
		b = append(b, ':')
		b = strconv.AppendInt(b, v, 10)
	}
	boolean := func(k string, v bool) {
		b = append(b, ',')
		b = jsonv.AppendQuote(b, k)
		b = append(b, ':')
		b = strconv.AppendBool(b, v)
	}
	val := func(k string, v jsonv.Value) {
		b = append(b, ',')
		b = jsonv.AppendQuote(b, k)
		b = append(b, ':')
		b = jsonv.AppendEncode(b, v)
	}
	b = append(b, `{"log":`...)
	b = jsonv.AppendQuote(b, c.File)
	num("line", int64(c.Line))
	num("callLine", int64(c.CallLine))
	num("seq", c.Seq)
	num("turn", int64(c.Turn))
	num("step", int64(c.Step))
	str("callId", c.CallID)
	if c.IsSubCall {
		str("rootCallId", c.RootCallID)
		str("parentCallId", c.ParentCallID)
	}
	str("name", c.Name)
	str("rawArguments", c.RawArguments)
	if c.ArgumentsError != "" {
		str("argumentsError", c.ArgumentsError)
	} else if c.Arguments.IsDefined() {
		val("arguments", c.Arguments)
	}
	boolean("requested", c.Requested)
	boolean("started", c.Started)
	boolean("hasResult", c.HasResult)
	boolean("isError", c.IsError)
	if c.Error.IsDefined() {
		val("error", c.Error)
	}
	if c.Synthetic != "" {
		str("synthetic", c.Synthetic)
	}
	if c.Interrupted {
		boolean("interrupted", true)
	}
	boolean("hasMeta", c.Meta.IsDefined())
	if o.Meta && c.Meta.IsDefined() {
		val("meta", c.Meta)
	}
	boolean("hasValue", c.Value.IsDefined())
	if o.Value && c.Value.IsDefined() {
		val("value", c.Value)
	}
	if o.Content && c.Content.IsDefined() {
		val("content", c.Content)
	}
	boolean("contentReplaced", c.ContentReplaced)
	if c.Host != "" {
		str("host", c.Host)
	}
	num("format", int64(c.Format))
	if c.Release != "" {
		str("release", c.Release)
	}
	if vs := c.Variants(); len(vs) > 0 {
		vals := make([]jsonv.Value, len(vs))
		for i, v := range vs {
			vals[i] = jsonv.Str(v)
		}
		val("variants", jsonv.Arr(vals...))
	}
	if c.ValueUnrecordable != "" {
		str("valueUnrecordable", c.ValueUnrecordable)
	}
	num("views", int64(len(c.Views)))
	if len(c.SubCalls) > 0 {
		b = append(b, `,"subCalls":[`...)
		for i, s := range c.SubCalls {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendCallJSON(b, s, o)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}
