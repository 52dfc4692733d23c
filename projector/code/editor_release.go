package code

import (
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// NullPlaceholderRelease is the first release whose str_replace_editor
// accepts null for a parameter the command does not use
// (packages/fs/tool-str-replace-editor/src/index.ts of the 0.1.6-alpha.1
// tree; the 0.1.4 tree's is the pinned one).
const NullPlaceholderRelease = "0.1.6-alpha.1"

// editorNullableParams are the parameters as that release compiles them: the
// five optional ones are oneOf [T, null] (oneOf before the description, as
// the spec compiler writes a oneOf node).
const editorNullableParams = `{"type":"object","properties":{` +
	`"command":{"type":"string","description":"The commands to run. Allowed options are: ` + "`view`, `create`, `str_replace`, `insert`" + `.","enum":["view","create","str_replace","insert"]},` +
	`"path":{"type":"string","description":"Absolute path to file or directory, e.g. ` + "`/repo/file.py` or `/repo`" + `."},` +
	`"file_text":{"oneOf":[{"type":"string"},{"type":"null"}],"description":"Required string parameter of ` + "`create`" + ` command, with the content of the file to be created. A null placeholder is treated as omitted by commands that do not use this parameter."},` +
	`"insert_line":{"oneOf":[{"type":"integer"},{"type":"null"}],"description":"Required integer parameter of ` + "`insert` command. The `new_str` will be inserted AFTER the line `insert_line` of `path`" + `. A null placeholder is treated as omitted by commands that do not use this parameter."},` +
	`"new_str":{"oneOf":[{"type":"string"},{"type":"null"}],"description":"Optional string parameter of ` + "`str_replace`" + ` command containing the new string (if omitted, no string will be added). Required string parameter of ` + "`insert`" + ` command containing the string to insert. A null placeholder is accepted only by commands that do not use this parameter."},` +
	`"old_str":{"oneOf":[{"type":"string"},{"type":"null"}],"description":"Required string parameter of ` + "`str_replace` command containing the string in `path`" + ` to replace. A null placeholder is treated as omitted by commands that do not use this parameter."},` +
	`"view_range":{"oneOf":[{"type":"array","items":{"type":"integer"}},{"type":"null"}],"description":"Optional parameter of ` + "`view` command when `path`" + ` points to a file. If omitted or null, the full file is shown. If provided, the file will be shown in the indicated line number range, e.g. [11, 12] will show lines 11 and 12. Indexing at 1 to start. Setting ` + "`[start_line, -1]` shows all lines from `start_line`" + ` to the end of the file."}` +
	`},"required":["command","path"]}`

// editorNullableTool is str_replace_editor from NullPlaceholderRelease: null
// placeholders pass the parameter schema, and an insert card whose
// insert_line is null has no line.
func editorNullableTool() *projector.Tool {
	t := editorTool()
	t.Parameters = jsonv.Deferred(jsonv.Object, func() jsonv.Value { return jsonv.MustParse(editorNullableParams) })
	t.PresentCall = func(args jsonv.Value) jsonv.Value { return presentEditor(args, true) }
	return t
}
