package fs

import (
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

var writeOutputSchema = sync.OnceValue(func() jsonv.Value {
	return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"operation":{"type":"string","enum":["create","update"]},"before":{"oneOf":[{"type":"string"},{"type":"null"}]},"after":{"type":"string"}},"required":["path","operation","before","after"]}`)
})

// writeTool is write.ts:55-150.
func writeTool(escalation []projector.Param) *projector.Tool {
	params := append([]projector.Param{
		{Name: "file_path", Type: "string", Required: true, Description: "Path to write, resolved by the filesystem backend."},
		{Name: "content", Type: "string", Required: true, Description: "Full UTF-8 text content to write."},
	}, escalation...)
	return &projector.Tool{
		Name:       "write",
		Plugin:     Plugin,
		Parameters: projector.ParamSchema(params...),
		Output: &projector.Output{
			Schema: writeOutputSchema(),
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				verb := "Updated"
				if op := value.Get("operation"); op.IsString() && op.Str() == "create" {
					verb = "Created"
				}
				return projector.TextContent("<path>" + jsonv.ToString(value.Get("path")) + "</path>\n<type>file</type>\n<content>\n" + verb + " file\n</content>"), nil
			},
			PresentationMeta: func(args, value jsonv.Value) (jsonv.Value, error) {
				before := value.Get("before")
				if before.IsNull() {
					return jsonv.Obj(jsonv.M("diffs", jsonv.Arr())), nil
				}
				return jsonv.Obj(jsonv.M("diffs", hunkDiffs(args.Get("file_path"), before.Str(), value.Get("after").Str()))), nil
			},
		},
		PresentCall: func(args jsonv.Value) jsonv.Value {
			fp := args.Get("file_path")
			return jsonv.Obj(
				jsonv.M("card", jsonv.Str("diff")),
				jsonv.M("title", jsonv.Str("Write "+jsonv.ToString(fp))),
				jsonv.M("diffs", wholeFileDiff(fp, args.Get("content"))),
				jsonv.M("locations", jsonv.Arr(jsonv.Obj(jsonv.M("path", fp)))),
			)
		},
		// Creates and identical overwrites have empty meta diffs and fall
		// back to the whole-file diff from the args; it never declines a success.
		PresentResult: func(args jsonv.Value, r projector.Result) jsonv.Value {
			if r.IsError {
				return jsonv.Value{}
			}
			fp := args.Get("file_path")
			diffs, ok := DiffsFromMeta(r.Meta)
			if !ok {
				diffs = wholeFileDiff(fp, args.Get("content"))
			}
			return jsonv.Obj(
				jsonv.M("card", jsonv.Str("diff")),
				jsonv.M("title", jsonv.Str("Write "+jsonv.ToString(fp))),
				jsonv.M("diffs", diffs),
			)
		},
		CallCards:   []string{"diff"},
		ResultCards: []string{"diff"},
	}
}

func wholeFileDiff(path, content jsonv.Value) jsonv.Value {
	return jsonv.Arr(jsonv.Obj(jsonv.M("path", path), jsonv.M("oldText", jsonv.NullValue()), jsonv.M("newText", content)))
}
