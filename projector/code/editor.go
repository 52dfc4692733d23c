package code

import (
	"math"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// str_replace_editor (packages/fs/tool-str-replace-editor/src/index.ts):
// string output rendered verbatim; a generic or diff call card per command.
func editorTool() *projector.Tool {
	return &projector.Tool{
		Name:        "str_replace_editor",
		Plugin:      "tool-str-replace-editor",
		Parameters:  params("str_replace_editor"),
		Output:      &projector.Output{Schema: jsonv.MustParse(`{"type":"string"}`), Render: identityText},
		PresentCall: presentEditorCall,
		CallCards:   []string{"generic", "diff"},
	}
}

func presentEditorCall(args jsonv.Value) jsonv.Value { return presentEditor(args, false) }

// presentEditor is presentEditorCall; nullLine is the later release's
// insert card, where a null insert_line (a placeholder) gives no line.
func presentEditor(args jsonv.Value, nullLine bool) jsonv.Value {
	command := args.Get("command")
	path := args.Get("path")
	title := func(verb string) jsonv.Value { return jsonv.Str(verb + " " + str(path)) }
	loc := jsonv.Arr(jsonv.Obj(jsonv.M("path", path)))
	orDefault := func(v, def jsonv.Value) jsonv.Value { // v ?? def
		if v.IsUndefined() || v.IsNull() {
			return def
		}
		return v
	}
	if !command.IsString() {
		return jsonv.Value{}
	}
	switch command.Str() {
	case "view":
		return jsonv.Obj(jsonv.M("card", jsonv.Str("generic")), jsonv.M("title", title("view")),
			jsonv.M("kind", jsonv.Str("read")), jsonv.M("locations", loc))
	case "create":
		diff := jsonv.Obj(jsonv.M("path", path), jsonv.M("oldText", jsonv.NullValue()),
			jsonv.M("newText", orDefault(args.Get("file_text"), jsonv.Str(""))))
		return jsonv.Obj(jsonv.M("card", jsonv.Str("diff")), jsonv.M("title", title("create")),
			jsonv.M("diffs", jsonv.Arr(diff)), jsonv.M("locations", loc))
	case "str_replace":
		diff := jsonv.Obj(jsonv.M("path", path), jsonv.M("oldText", orDefault(args.Get("old_str"), jsonv.NullValue())),
			jsonv.M("newText", orDefault(args.Get("new_str"), jsonv.Str(""))))
		return jsonv.Obj(jsonv.M("card", jsonv.Str("diff")), jsonv.M("title", title("str_replace")),
			jsonv.M("diffs", jsonv.Arr(diff)), jsonv.M("locations", loc))
	case "insert":
		l := jsonv.Obj(jsonv.M("path", path))
		if n := args.Get("insert_line"); n.IsDefined() && !(nullLine && n.IsNull()) {
			// Math.max(1, insert_line + 1); a non-number argument cannot pass the schema.
			line := math.NaN()
			if n.IsNumber() {
				line = math.Max(1, n.Num()+1)
			}
			l = l.With("line", jsonv.Num(line))
		}
		return jsonv.Obj(jsonv.M("card", jsonv.Str("generic")), jsonv.M("title", title("insert")),
			jsonv.M("kind", jsonv.Str("edit")), jsonv.M("locations", jsonv.Arr(l)))
	}
	return jsonv.Value{} // the switch falls through: no view
}
