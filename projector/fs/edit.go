package fs

import (
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

var editOutputSchema = sync.OnceValue(func() jsonv.Value {
	return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"before":{"type":"string"},"after":{"type":"string"}},"required":["path","before","after"]}`)
})

// editTool is edit.ts:78-168.
func editTool(escalation []projector.Param) *projector.Tool {
	params := append([]projector.Param{
		{Name: "file_path", Type: "string", Required: true, Description: "Path to edit, resolved by the filesystem backend."},
		{Name: "old_string", Type: "string", Required: true, Description: "Literal text to replace. Must match exactly."},
		{Name: "new_string", Type: "string", Required: true, Description: "Literal replacement text. Use an empty string to delete the match."},
		{Name: "replace_all", Type: "boolean", Description: "Replace all matches. Defaults to false; when false, old_string must appear exactly once."},
	}, escalation...)
	return &projector.Tool{
		Name:       "edit",
		Plugin:     Plugin,
		Parameters: projector.ParamSchema(params...),
		Output: &projector.Output{
			Schema: editOutputSchema(),
			Render: func(args, value jsonv.Value) (jsonv.Value, error) {
				path := jsonv.ToString(value.Get("path"))
				if orElse(args.Get("replace_all"), jsonv.BoolValue(false)).Truthy() {
					return projector.TextContent("The file " + path + " has been updated. All occurrences were successfully replaced."), nil
				}
				return projector.TextContent("The file " + path + " has been updated successfully."), nil
			},
			PresentationMeta: func(args, value jsonv.Value) (jsonv.Value, error) {
				return jsonv.Obj(jsonv.M("diffs", hunkDiffs(args.Get("file_path"), value.Get("before").Str(), value.Get("after").Str()))), nil
			},
		},
		PresentCall: func(args jsonv.Value) jsonv.Value {
			fp := args.Get("file_path")
			oldText := args.Get("old_string") // old_string || null
			if !oldText.Truthy() {
				oldText = jsonv.NullValue()
			}
			return jsonv.Obj(
				jsonv.M("card", jsonv.Str("diff")),
				jsonv.M("title", jsonv.Str("Edit "+jsonv.ToString(fp))),
				jsonv.M("diffs", jsonv.Arr(jsonv.Obj(jsonv.M("path", fp), jsonv.M("oldText", oldText), jsonv.M("newText", args.Get("new_string"))))),
				jsonv.M("locations", jsonv.Arr(jsonv.Obj(jsonv.M("path", fp)))),
			)
		},
		// Missing, malformed or empty meta declines (generic result rendering).
		PresentResult: func(args jsonv.Value, r projector.Result) jsonv.Value {
			if r.IsError {
				return jsonv.Value{}
			}
			diffs, ok := DiffsFromMeta(r.Meta)
			if !ok {
				return jsonv.Value{}
			}
			return jsonv.Obj(
				jsonv.M("card", jsonv.Str("diff")),
				jsonv.M("title", jsonv.Str("Edit "+jsonv.ToString(args.Get("file_path")))),
				jsonv.M("diffs", diffs),
			)
		},
		CallCards:   []string{"diff"},
		ResultCards: []string{"diff"},
	}
}
