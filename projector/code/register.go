package code

import (
	_ "embed"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// parametersJSON holds the compiled parameter schemas as upstream's
// generated tool catalog prints them; cordis_inspect, cordis_mount and
// cordis_unmount come from the catalog of the generation that shipped them.
//
//go:embed schemas/parameters.json
var parametersJSON []byte

var params = toolkit.LazyCatalog(parametersJSON)

// Register adds this family's tools to r (reading options from r.Config).
func Register(r *projector.Registry) error {
	var tools []*projector.Tool
	tools = append(tools, runCodeTool())
	tools = append(tools, cordisTools()...)
	tools = append(tools, legacyCordisTools()...)
	tools = append(tools, editorTool(), lspTool(r.Config))
	for _, t := range tools {
		if err := r.Add(t); err != nil {
			return err
		}
	}
	r.AddMatcher(mcpMatcher())
	if err := r.AddReleaseTool(NullPlaceholderRelease, editorNullableTool()); err != nil {
		return err
	}
	return r.AddReleaseTool(SandboxRelease, runCodeSandboxTool())
}

func text(s string) (jsonv.Value, error) { return toolkit.TextOf(s) }

func str(v jsonv.Value) string { return toolkit.JSString(v) }

func prop(v jsonv.Value, key string) (jsonv.Value, error) { return toolkit.Prop(v, key) }

// identityText renders a string-valued output verbatim ([{type:'text', text: value}]).
func identityText(_, value jsonv.Value) (jsonv.Value, error) {
	return jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", value))), nil
}

// prettyText renders JSON.stringify(value, null, 2) as the single text block.
func prettyText(_, value jsonv.Value) (jsonv.Value, error) {
	if value.IsUndefined() {
		// JSON.stringify(undefined) is undefined: a non-lossless block.
		return jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Value{}))), nil
	}
	return text(jsonv.StringifyIndent(value, "  "))
}
