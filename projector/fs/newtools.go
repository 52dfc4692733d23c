package fs

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Tools of later releases that the pinned tree does not have. A call of one
// resolves to its definition whatever the log's format says
// (Registry.LookupAt): the call shows the release.

// PresentRelease is the first release whose source of tool-present's
// present is readable (packages/fs/tool-present/src/index.ts of the
// 0.1.6-alpha.1 tree; packages/deliverables/tool-present from
// 0.1.7-alpha.2 to 0.2.1-alpha.1, with the same projectors; a 0.1.5-alpha.2
// package describes the same tool).
const PresentRelease = "0.1.6-alpha.1"

// presentTool is present: the files the agent delivers, a line each; no
// presenters (the generic card).
func presentTool() *projector.Tool {
	return &projector.Tool{
		Name:   "present",
		Plugin: "tool-present",
		Parameters: projector.SchemaText(`{"type":"object","properties":{"files":{"type":"array","items":{"type":"object","additionalProperties":false,` +
			`"properties":{"path":{"type":"string"},"description":{"type":"string"}},"required":["path"]}}},"required":["files"]}`),
		Output: &projector.Output{
			Schema: projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"turn":{"type":"integer"},"files":{"type":"array","items":{"type":"object","additionalProperties":false,` +
				`"properties":{"path":{"type":"string"},"description":{"type":"string"}},"required":["path"]}}},"required":["turn","files"]}`),
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				files := value.Get("files")
				if !files.IsArray() {
					if nullish(files) {
						return jsonv.Value{}, projector.Throwf("Cannot read properties of %s (reading 'map')", jsonv.ToString(files))
					}
					return jsonv.Value{}, projector.Throwf("value.files.map is not a function")
				}
				lines := make([]string, 0, files.Len())
				for _, f := range files.Elems() {
					if nullish(f) {
						return jsonv.Value{}, projector.Throwf("Cannot read properties of %s (reading 'path')", jsonv.ToString(f))
					}
					lines = append(lines, "Presented "+jsonv.ToString(f.Get("path")))
				}
				return projector.TextContent(strings.Join(lines, "\n")), nil
			},
		},
	}
}

// WorkspaceDependenciesRelease is the first release with
// tool-workspace-dependencies' load_workspace_dependencies
// (packages/skill/tool-workspace-dependencies/src/index.ts of 0.1.7-alpha.2,
// 0.2.0-rc.2 and 0.2.1-alpha.1 trees, the same projectors).
const WorkspaceDependenciesRelease = "0.1.7-alpha.2"

// workspaceDependenciesTool is load_workspace_dependencies: the paths of the
// bundled runtimes, rendered as JSON.stringify(value, undefined, 2).
func workspaceDependenciesTool() *projector.Tool {
	return &projector.Tool{
		Name:       "load_workspace_dependencies",
		Plugin:     "tool-workspace-dependencies",
		Parameters: projector.SchemaText(`{"type":"object","properties":{}}`),
		Output: &projector.Output{
			Schema: projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"python":{"type":"string"},"node":{"type":"string"},"pnpm":{"type":"string"},` +
				`"pythonPackages":{"type":"string"},"nodePackages":{"type":"string"},"pythonDistributions":{"type":"object","additionalProperties":true}},"required":["python","pythonPackages","pythonDistributions"]}`),
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				return projector.TextContent(jsonv.StringifyIndent(value, "  ")), nil
			},
		},
		PresentCall: func(jsonv.Value) jsonv.Value {
			return jsonv.Obj(jsonv.M("card", jsonv.Str("generic")), jsonv.M("title", jsonv.Str("Load workspace dependencies")), jsonv.M("kind", jsonv.Str("read")))
		},
		CallCards: []string{"generic"},
	}
}
