package fs_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/fs"
)

// exercise runs every projector and presenter of a tool. Any outcome is
// fine except a panic inside the port (a contained Failure with Panic set):
// a thrown error or no view is upstream behaviour.
func exercise(t *testing.T, tl *projector.Tool, args, value jsonv.Value, r projector.Result) (content, meta jsonv.Value, renderErr, metaErr error) {
	t.Helper()
	check := func(what string, err error) {
		var f *projector.Failure
		if errors.As(err, &f) && f.Panic {
			t.Fatalf("%s %s panicked: %s\n%s", tl.Name, what, f.Message, f.Stack)
		}
	}
	_ = tl.ValidateValue(value)
	_ = tl.ValidateArgs(args)
	content, renderErr = tl.RunRender(args, value)
	check("render", renderErr)
	meta, _, metaErr = tl.RunPresentationMeta(args, value)
	check("presentationMeta", metaErr)
	_, err := tl.CallView(args)
	check("presentCall", err)
	_, err = tl.ResultView(args, r)
	check("presentResult", err)
	// Presenters called directly (as a raw host would) must not panic either.
	func() {
		defer func() {
			if p := recover(); p != nil {
				var th *projector.Throw
				if e, ok := p.(error); !ok || !errors.As(e, &th) {
					t.Fatalf("%s presenter panicked on unvalidated args: %v", tl.Name, p)
				}
			}
		}()
		if tl.PresentCall != nil {
			tl.PresentCall(args)
		}
		if tl.PresentResult != nil {
			tl.PresentResult(args, r)
		}
	}()
	return
}

func parseOr(s string, def jsonv.Value) jsonv.Value {
	v, err := jsonv.ParseString(s)
	if err != nil {
		return def
	}
	return v
}

// FuzzRead: a schema-valid value built by BuildWindow from arbitrary text
// always renders (when the args are valid) and its meta narrows back;
// arbitrary args, values, metas and contents never panic.
func FuzzRead(f *testing.F) {
	f.Add("one\r\ntwo\n\n😀漢字\rx", 1, 3, 5, 40, `{"file_path":"a.ts"}`, `{"path":"p","offset":1,"lines":[],"totalLines":0}`, "<path>p</path>\n<type>file</type>\n<content>\nx\n</content>")
	f.Add("", 2, 0, 0, 0, `{"file_path":" ","offset":-0}`, `null`, "")
	f.Add("a\nb", 1, 1, 1, 1, `"x"`, `{"lines":[null]}`, "<path></path>")
	tl := tool(f, "read")
	f.Fuzz(func(t *testing.T, text string, offset, limit, maxLen, maxBytes int, argsDoc, metaDoc, contentText string) {
		w := fs.Window{Offset: 1 + abs(offset)%50, Limit: 1 + abs(limit)%50, MaxLineLength: 1 + abs(maxLen)%30, MaxBytes: 1 + abs(maxBytes)%300}
		res, err := fs.BuildWindow([]string{text}, w, "f")
		args := jsonv.Obj(jsonv.M("file_path", jsonv.Str("f.go")), jsonv.M("offset", jsonv.Int(w.Offset)), jsonv.M("limit", jsonv.Int(w.Limit)))
		if err == nil {
			value := jsonv.Obj(jsonv.M("path", jsonv.Str("/abs/f.go")), jsonv.M("offset", jsonv.Int(w.Offset)),
				jsonv.M("lines", res.LinesValue()), jsonv.M("totalLines", jsonv.Int(res.TotalLines)))
			if vs := tl.ValidateValue(value); len(vs) > 0 {
				t.Fatalf("BuildWindow produced an invalid value: %v", vs)
			}
			content, meta, rerr, merr := exercise(t, tl, args, value, projector.Result{})
			if rerr != nil || merr != nil {
				t.Fatalf("valid call failed: %v %v", rerr, merr)
			}
			r := projector.Result{Content: content, Meta: meta}
			view, err := tl.ResultView(args, r)
			if err != nil || view.Get("card").Str() != "read" {
				t.Fatalf("own output does not replay to a read card: %v %v", view, err)
			}
			if !jsonv.Equal(view.Get("lines"), value.Get("lines")) {
				t.Fatalf("read card lines differ from the value")
			}
		}
		args = parseOr(argsDoc, jsonv.Value{})
		value := parseOr(metaDoc, jsonv.Value{})
		exercise(t, tl, args, value, projector.Result{Content: projector.TextContent(contentText), Meta: value})
	})
}

func abs(i int) int {
	if i < 0 {
		if i == -i { // math.MinInt
			return 0
		}
		return -i
	}
	return i
}

// FuzzEdit: the hunk diff of two arbitrary texts is a valid meta whose hunks
// are contiguous runs of each side; identical texts give no hunks.
func FuzzEdit(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", `{"file_path":"f","old_string":"b","new_string":"B"}`, `{"diffs":[]}`)
	f.Add("m1\r\nm2", "m2\r\n\n", `{"file_path":5}`, `{"diffs":[{"path":"a","oldText":null,"newText":"x"}]}`)
	f.Add("", "x", `null`, `[]`)
	tl, write := tool(f, "edit"), tool(f, "write")
	f.Fuzz(func(t *testing.T, before, after, argsDoc, metaDoc string) {
		diffs := fs.ComputeHunkDiffs("p", before, after)
		if before == after && diffs.Len() != 0 {
			t.Fatalf("identical texts gave hunks: %s", jsonv.Stringify(diffs))
		}
		if before != after && diffs.Len() == 0 {
			t.Fatalf("different texts gave no hunks")
		}
		for _, d := range diffs.Elems() {
			if old := d.Get("oldText"); old.IsString() && !strings.Contains(before, old.Str()) {
				t.Fatalf("oldText %q is not a run of before %q", old.Str(), before)
			}
			if !strings.Contains(after, d.Get("newText").Str()) {
				t.Fatalf("newText %q is not a run of after %q", d.Get("newText").Str(), after)
			}
		}
		args := jsonv.Obj(jsonv.M("file_path", jsonv.Str("f")), jsonv.M("old_string", jsonv.Str("x")), jsonv.M("new_string", jsonv.Str("y")))
		value := jsonv.Obj(jsonv.M("path", jsonv.Str("/abs/f")), jsonv.M("before", jsonv.Str(before)), jsonv.M("after", jsonv.Str(after)))
		_, meta, rerr, merr := exercise(t, tl, args, value, projector.Result{})
		if rerr != nil || merr != nil {
			t.Fatalf("valid call failed: %v %v", rerr, merr)
		}
		if _, ok := fs.DiffsFromMeta(meta); ok != (diffs.Len() > 0) {
			t.Fatalf("own meta does not narrow back")
		}
		args = parseOr(argsDoc, jsonv.Value{})
		m := parseOr(metaDoc, jsonv.Value{})
		exercise(t, tl, args, value, projector.Result{Content: jsonv.Arr(), Meta: m})
		exercise(t, write, args, m, projector.Result{Content: jsonv.Arr(), Meta: m})
	})
}

// FuzzWrite: a schema-valid write value always renders and its meta narrows
// back (or is the empty create/identical form the presenter falls back from).
func FuzzWrite(f *testing.F) {
	f.Add("a\n", "b\n", true, `{"file_path":"a","content":"b\n"}`)
	f.Add("", "", false, `{}`)
	tl := tool(f, "write")
	f.Fuzz(func(t *testing.T, before, after string, create bool, argsDoc string) {
		b, op := jsonv.Str(before), "update"
		if create {
			b, op = jsonv.NullValue(), "create"
		}
		value := jsonv.Obj(jsonv.M("path", jsonv.Str("/abs/a")), jsonv.M("operation", jsonv.Str(op)), jsonv.M("before", b), jsonv.M("after", jsonv.Str(after)))
		args := jsonv.Obj(jsonv.M("file_path", jsonv.Str("a")), jsonv.M("content", jsonv.Str(after)))
		if vs := tl.ValidateValue(value); len(vs) > 0 {
			t.Fatal(vs)
		}
		content, meta, rerr, merr := exercise(t, tl, args, value, projector.Result{})
		if rerr != nil || merr != nil {
			t.Fatalf("valid call failed: %v %v", rerr, merr)
		}
		view, _ := tl.ResultView(args, projector.Result{Content: content, Meta: meta})
		if view.Get("diffs").Len() == 0 {
			t.Fatalf("write result view without diffs: %s", jsonv.Stringify(view))
		}
		exercise(t, tl, parseOr(argsDoc, jsonv.Value{}), value, projector.Result{Content: content, Meta: meta, IsError: create})
	})
}

// FuzzReadImage: arbitrary values and args never panic; valid values render
// two blocks.
func FuzzReadImage(f *testing.F) {
	f.Add(`{"path":"/a.png","image":{"attachmentId":"x","mediaType":"image/png","bytes":1,"width":1,"height":1,"name":"a.png"}}`, `{"file_path":"a.png"}`)
	f.Add(`{"path":1,"image":null}`, `[]`)
	tl := tool(f, "read_image")
	f.Fuzz(func(t *testing.T, valueDoc, argsDoc string) {
		value := parseOr(valueDoc, jsonv.Value{})
		args := parseOr(argsDoc, jsonv.Value{})
		content, _, rerr, _ := exercise(t, tl, args, value, projector.Result{Content: jsonv.Arr()})
		if len(tl.ValidateValue(value)) == 0 && (rerr != nil || content.Len() != 2) {
			t.Fatalf("valid value did not render two blocks: %v %v", content, rerr)
		}
	})
}
