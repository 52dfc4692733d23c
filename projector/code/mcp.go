package code

import (
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// MCP tools (packages/mcp/mcp-client/src/tools.ts): raw ToolDefinitions
// named mcp__<server>__<raw>, no presenters. The input schema is the
// server's and is not in the log; the output schema's structuredContent
// branch is the server's too, so it is left open.
var mcpOutput = sync.OnceValue(func() jsonv.Value {
	return projector.SchemaText(`{"type":"object","properties":{"content":{"type":"array","items":{}},"structuredContent":{}},"required":["content"],"additionalProperties":false}`)
})

func mcpMatcher() projector.Matcher {
	var cache sync.Map
	return func(name string) *projector.Tool {
		raw, ok := mcpRawName(name)
		if !ok {
			return nil
		}
		if t, ok := cache.Load(name); ok {
			return t.(*projector.Tool)
		}
		t, _ := cache.LoadOrStore(name, &projector.Tool{
			Name:       name,
			Plugin:     "mcp-client",
			Parameters: projector.SchemaText(`{"type":"object"}`),
			// The server's input schema is not in the log.
			ParametersUnknown: true,
			Output: &projector.Output{Schema: mcpOutput(), Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				content, err := prop(value, "content")
				if err != nil {
					return jsonv.Value{}, err
				}
				return extractText(content, raw)
			}},
		})
		return t.(*projector.Tool)
	}
}

// mcpRawName recovers the server's own tool name from mcp__<server>__<raw>:
// the server namespace ends at the first "__" after the prefix. A name that
// upstream shortened with a hash suffix keeps that suffix (the raw name is
// not recoverable from it).
func mcpRawName(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", false
	}
	i := strings.Index(rest, "__")
	if i < 0 {
		return "", false
	}
	return rest[i+2:], true
}

// extractText joins text blocks with "\n", with placeholders for media.
func extractText(content jsonv.Value, toolName string) (jsonv.Value, error) {
	if !content.IsArray() {
		return jsonv.Value{}, &toolkit.TypeError{Msg: "mcpContent is not iterable"}
	}
	var parts []string
	for _, v := range content.Elems() {
		if !v.IsObject() {
			parts = append(parts, "[unsupported content type: unknown]")
			continue
		}
		typ := v.Get("type")
		mime := func() string {
			if m := v.Get("mimeType"); !toolkit.Nullish(m) {
				return str(m)
			}
			return "unknown"
		}
		switch {
		case typ.IsString() && typ.Str() == "text":
			if t := v.Get("text"); t.IsDefined() {
				if t.IsNull() {
					parts = append(parts, "") // join() prints a null element as ""
				} else {
					parts = append(parts, str(t))
				}
			}
		case typ.IsString() && typ.Str() == "image":
			parts = append(parts, "[image: "+mime()+", content discarded]")
		case typ.IsString() && typ.Str() == "audio":
			parts = append(parts, "[audio: "+mime()+", content discarded]")
		case typ.IsString() && (typ.Str() == "resource" || typ.Str() == "resource_link"):
			parts = append(parts, "[resource: content discarded]")
		default:
			parts = append(parts, "[unsupported content type: "+str(typ)+"]")
		}
	}
	joined := strings.Join(parts, "\n")
	if joined == "" {
		joined = "(" + toolName + " returned no text content)"
	}
	return text(joined)
}
