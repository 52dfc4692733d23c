package fs_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/goldenfile"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/fs"
)

// registry builds the tool-fs tools for a configuration document.
func registry(t testing.TB, config string) *projector.Registry {
	t.Helper()
	cfg := projector.Config{}
	if config != "" {
		var err error
		if cfg, err = projector.ParseConfig([]byte(config)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := projector.NewRegistry(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.Register(r); err != nil {
		t.Fatal(err)
	}
	return r
}

func tool(t testing.TB, name string) *projector.Tool {
	t.Helper()
	tl := registry(t, "").Lookup(name)
	if tl == nil {
		t.Fatalf("%s not registered", name)
	}
	return tl
}

func js(s string) jsonv.Value { return jsonv.MustParse(s) }

// callCase is one call run through every projector and presenter.
type callCase struct {
	name, tool, config string
	args, value        string // JSON; value "" = presenters only
	result             string // presentResult input {content,isError,meta?}; "" = {content: render, meta: presentationMeta}
}

// run renders a case as golden text: one line per output, JSON.stringify bytes.
func (c callCase) run(t testing.TB) string {
	tl := registry(t, c.config).Lookup(c.tool)
	args := js(c.args)
	var b strings.Builder
	b.WriteString("== " + c.name + "\n")
	out := func(label string, v jsonv.Value, err error) {
		switch {
		case err != nil:
			b.WriteString(label + " FAILED: " + err.Error() + "\n")
		case v.IsUndefined():
			b.WriteString(label + ": (none)\n")
		default:
			b.WriteString(label + ": " + jsonv.Stringify(v) + "\n")
		}
	}
	in := projector.Result{Content: jsonv.Arr()}
	if c.value != "" {
		value := js(c.value)
		if vs := tl.ValidateValue(value); len(vs) > 0 {
			b.WriteString("value INVALID: " + projector.JoinViolations(vs) + "\n")
		}
		content, err := tl.RunRender(args, value)
		out("content", content, err)
		in.Content = content
		if meta, ok, err := tl.RunPresentationMeta(args, value); ok {
			out("meta", meta, err)
			in.Meta = meta
		}
	}
	if c.result != "" {
		r := js(c.result)
		in = projector.Result{Content: r.Get("content"), IsError: r.Get("isError").True(), Meta: r.Get("meta")}
	}
	v, err := tl.CallView(args)
	out("callView", v, err)
	v, err = tl.ResultView(args, in)
	out("resultView", v, err)
	return b.String()
}

func TestProjectionsGolden(t *testing.T) {
	cases := []callCase{
		// read: windows and footers
		{name: "read empty file", tool: "read", args: `{"file_path":"empty.txt"}`, value: `{"path":"/abs/empty.txt","offset":1,"lines":[],"totalLines":0}`},
		{name: "read page footer", tool: "read", args: `{"file_path":"a.txt","offset":2,"limit":2}`, value: `{"path":"/abs/a.txt","offset":2,"lines":[{"number":2,"text":"two"},{"number":3,"text":"three"}],"totalLines":4}`},
		{name: "read capped footer", tool: "read", args: `{"file_path":"a.go"}`, value: `{"path":"/abs/a.go","offset":1,"lines":[{"number":1,"text":"x"}],"totalLines":99}`},
		{name: "read empty window at offset (byte cap)", tool: "read", config: `{"plugins":{"tool-fs":{"readMaxBytes":1}}}`, args: `{"file_path":"big","offset":3}`, value: `{"path":"/abs/big","offset":3,"lines":[],"totalLines":5}`},
		{name: "read CRLF, BOM, lone CR", tool: "read", args: `{"file_path":"w.ts"}`, value: `{"path":"/abs/w.ts","offset":1,"lines":[{"number":1,"text":"\ufeffbom kept"},{"number":2,"text":"a\rb"}],"totalLines":2}`},
		{name: "read emoji and CJK", tool: "read", args: `{"file_path":"u.md"}`, value: `{"path":"/abs/u.md","offset":1,"lines":[{"number":1,"text":"😀漢字"},{"number":2,"text":"\ud83d... (line truncated to 1 chars)"}],"totalLines":2}`},
		{name: "read integer-valued doubles", tool: "read", args: `{"file_path":"a.py","offset":1.0,"limit":2e0}`, value: `{"path":"/abs/a.py","offset":1.0,"lines":[{"number":1.0,"text":"x"}],"totalLines":1e0}`},
		{name: "read blank file_path throws in render", tool: "read", args: `{"file_path":" \u3000"}`, value: `{"path":"/abs","offset":1,"lines":[],"totalLines":0}`},
		{name: "read offset 0 throws in render", tool: "read", args: `{"file_path":"a","offset":0}`, value: `{"path":"/abs/a","offset":1,"lines":[],"totalLines":0}`},
		{name: "read limit over readLimit throws", tool: "read", config: `{"plugins":{"tool-fs":{"readLimit":5}}}`, args: `{"file_path":"a","limit":6}`, value: `{"path":"/abs/a","offset":1,"lines":[],"totalLines":0}`},
		{name: "read fractional limit throws", tool: "read", args: `{"file_path":"a","limit":1.5}`, value: `{"path":"/abs/a","offset":1,"lines":[],"totalLines":0}`},
		{name: "read invalid value", tool: "read", args: `{"file_path":"a"}`, value: `{"path":"/abs/a","offset":-0,"lines":[{"number":1,"text":"x","extra":1}],"totalLines":1}`},
		{name: "read call args fail the schema", tool: "read", args: `{"file_path":"a","offset":"5"}`},
		{name: "read call offset 0", tool: "read", args: `{"file_path":"a","offset":0}`},
		{name: "read call negative limit", tool: "read", args: `{"file_path":"a","offset":2,"limit":-3}`},
		{name: "read call limit 0", tool: "read", args: `{"file_path":"a","limit":0}`},
		{name: "read call fractions", tool: "read", args: `{"file_path":"a","offset":1.5,"limit":2}`},
		{name: "read call huge", tool: "read", args: `{"file_path":"a","offset":1e21,"limit":1}`},
		{name: "read result empty body", tool: "read", args: `{"file_path":"a"}`, result: `{"content":[{"type":"text","text":"<path>/a</path>\n<type>file</type>\n<content>\n\n</content>"}],"meta":{"path":"/a","offset":1,"lines":[],"totalLines":0}}`},
		{name: "read result no body line", tool: "read", args: `{"file_path":"a"}`, result: `{"content":[{"type":"text","text":"<path>/a</path>\n<type>file</type>\n<content>\n</content>"}],"meta":{"path":"/a","offset":1,"lines":[],"totalLines":0}}`},
		{name: "read result lang null declines", tool: "read", args: `{"file_path":"a"}`, result: `{"content":[{"type":"text","text":"<path>/a</path>\n<type>file</type>\n<content>\nx\n</content>"}],"meta":{"path":"/a","offset":1,"lines":[],"totalLines":0,"lang":null}}`},
		{name: "read result extra keys survive", tool: "read", args: `{"file_path":"a"}`, result: `{"content":[{"type":"text","text":"<path>/a</path>\n<type>file</type>\n<content>\n1: x\n</content>"}],"meta":{"path":"/a","offset":1.0,"lines":[{"number":1,"text":"x","extra":1}],"totalLines":1,"top":true}}`},
		{name: "read result path line with newline", tool: "read", args: `{"file_path":"a"}`, result: `{"content":[{"type":"text","text":"<path>/a\nb</path>\n<type>file</type>\n<content>\nx\n</content>"}],"meta":{"path":"/a","offset":1,"lines":[],"totalLines":0}}`},
		{name: "read result content not an array", tool: "read", args: `{"file_path":"a"}`, result: `{"content":"x","meta":{"path":"/a","offset":1,"lines":[],"totalLines":0}}`},
		{name: "read result text coerced by String()", tool: "read", args: `{"file_path":"a"}`, result: `{"content":[{"type":"text","text":["<path>/a</path>\n<type>file</type>\n<content>\nx\n</content>"]}],"meta":{"path":"/a","offset":1,"lines":[],"totalLines":0}}`},
		// write
		{name: "write create", tool: "write", args: `{"file_path":"n.txt","content":"fresh\n"}`, value: `{"path":"/abs/n.txt","operation":"create","before":null,"after":"fresh\n"}`},
		{name: "write overwrite", tool: "write", args: `{"file_path":"a.txt","content":"a\nB\nc\n"}`, value: `{"path":"/abs/a.txt","operation":"update","before":"a\nb\nc\n","after":"a\nB\nc\n"}`},
		{name: "write identical overwrite", tool: "write", args: `{"file_path":"a.txt","content":"same\n"}`, value: `{"path":"/abs/a.txt","operation":"update","before":"same\n","after":"same\n"}`},
		{name: "write declined basis (before null on update)", tool: "write", args: `{"file_path":"b.bin","content":"x"}`, value: `{"path":"/abs/b.bin","operation":"update","before":null,"after":"x"}`},
		{name: "write CRLF overwrite", tool: "write", args: `{"file_path":"c.txt","content":"a\r\nB\r\nc\r\n"}`, value: `{"path":"/abs/c.txt","operation":"update","before":"a\r\nb\r\nc\r\n","after":"a\r\nB\r\nc\r\n"}`},
		{name: "write error result", tool: "write", args: `{"file_path":"a.txt","content":"y"}`, result: `{"content":[{"type":"text","text":"Error: boom"}],"isError":true}`},
		{name: "write meta diffs keep their paths", tool: "write", args: `{"file_path":"a.txt","content":"y"}`, result: `{"content":[],"meta":{"diffs":[{"path":"other","oldText":"x","newText":"y","extra":1}]}}`},
		{name: "write args missing content", tool: "write", args: `{"file_path":"a.txt"}`, result: `{"content":[],"meta":{"diffs":[]}}`},
		{name: "write invalid operation", tool: "write", args: `{"file_path":"a","content":""}`, value: `{"path":"/abs/a","operation":"delete","before":null,"after":""}`},
		// edit
		{name: "edit single", tool: "edit", args: `{"file_path":"f.txt","old_string":"line4","new_string":"CHANGED"}`, value: `{"path":"/abs/f.txt","before":"line1\nline2\nline3\nline4\nline5\nline6\nline7\nline8\n","after":"line1\nline2\nline3\nCHANGED\nline5\nline6\nline7\nline8\n"}`},
		{name: "edit replace_all", tool: "edit", args: `{"file_path":"f.txt","old_string":"a","new_string":"b","replace_all":true}`, value: `{"path":"/abs/f.txt","before":"a a","after":"b b"}`},
		{name: "edit replace_all null", tool: "edit", args: `{"file_path":"f.txt","old_string":"a","new_string":"b","replace_all":null}`, value: `{"path":"/abs/f.txt","before":"a","after":"b"}`},
		{name: "edit identical texts (empty diffs)", tool: "edit", args: `{"file_path":"f.txt","old_string":"a","new_string":"b"}`, value: `{"path":"/abs/f.txt","before":"same","after":"same"}`},
		{name: "edit empty old_string call", tool: "edit", args: `{"file_path":"a.txt","old_string":"","new_string":"seed"}`},
		{name: "edit malformed meta", tool: "edit", args: `{"file_path":"a.txt","old_string":"x","new_string":"y"}`, result: `{"content":[],"meta":{"diffs":[{"path":"a","newText":"b"}]}}`},
		{name: "edit meta null", tool: "edit", args: `{"file_path":"a.txt","old_string":"x","new_string":"y"}`, result: `{"content":[],"meta":null}`},
		{name: "edit args replace_all wrong type", tool: "edit", args: `{"file_path":"a.txt","old_string":"x","new_string":"y","replace_all":"yes"}`, result: `{"content":[],"meta":{"diffs":[{"path":"a","oldText":null,"newText":"b"}]}}`},
		{name: "edit escalation args undeclared pass", tool: "edit", args: `{"file_path":"a","old_string":"x","new_string":"y","sandbox_permissions":"bogus"}`},
		{name: "edit escalation args declared fail", tool: "edit", config: `{"services":{"fs":{"sandboxMode":"read-only"}}}`, args: `{"file_path":"a","old_string":"x","new_string":"y","sandbox_permissions":"bogus"}`},
		{name: "edit escalation args declared ok", tool: "edit", config: `{"services":{"fs":{"sandboxMode":"read-only"}}}`, args: `{"file_path":"a","old_string":"x","new_string":"y","sandbox_permissions":"workspace-write","justification":"needed"}`},
		// read_image
		{name: "read_image with name", tool: "read_image", args: `{"file_path":"red.png"}`, value: `{"path":"/abs/red.png","image":{"attachmentId":"sha256:feed","mediaType":"image/png","bytes":69,"width":1,"height":1,"name":"red.png"}}`},
		{name: "read_image huge integers", tool: "read_image", args: `{"file_path":"x.gif"}`, value: `{"path":"/abs/x.gif","image":{"attachmentId":"a","mediaType":"image/gif","bytes":1e21,"width":2.0,"height":3}}`},
		{name: "read_image bad media type", tool: "read_image", args: `{"file_path":"x.bmp"}`, value: `{"path":"/abs/x.bmp","image":{"attachmentId":"a","mediaType":"image/bmp","bytes":1,"width":1,"height":1}}`},
	}
	var b strings.Builder
	for _, c := range cases {
		b.WriteString(c.run(t))
	}
	goldenfile.Check(t, filepath.Join("testdata", "projections.golden"), b.String())
}

func TestLangFromPath(t *testing.T) {
	cases := map[string]string{
		"src/a.TSX": "tsx", "/abs/module.mjs": "js", "conf.yml": "yaml", "README.md": "md", `C:\src\main.rs`: "rs",
		"a.py.bak": "", "archive.tar.gz": "", "/dir.py/plain": "", ".gitignore": "", "/etc/hosts": "", "data.unknownext": "",
		"trailingdot.": "", "foo.constructor": "", "foo.__proto__": "", "x.\u212At": "kotlin", "x.\u0130ni": "", "x.KT": "kotlin",
		`a/b\c.go`: "go", `a\b/c.h`: "c", "x.jsonc": "json", "": "", ".": "", "a.": "",
	}
	for path, want := range cases {
		got, ok := fs.LangFromPath(path)
		if got != want || ok != (want != "") {
			t.Errorf("LangFromPath(%q) = %q %v, want %q", path, got, ok, want)
		}
	}
}

func TestReadMetaFromMeta(t *testing.T) {
	cases := []struct {
		meta string
		want string // Stringify of the narrowed meta, "" = declined
	}{
		{`{"path":"p","offset":1,"lines":[],"totalLines":0}`, `{"path":"p","offset":1,"lines":[],"totalLines":0}`},
		{`{"lang":"ts","totalLines":2,"extra":1,"lines":[{"text":"a","number":2,"x":1}],"offset":2,"path":"p"}`, `{"path":"p","offset":2,"lines":[{"text":"a","number":2,"x":1}],"totalLines":2,"lang":"ts"}`},
		{`null`, ""}, {`[]`, ""}, {`"x"`, ""},
		{`{"path":1,"offset":1,"lines":[],"totalLines":0}`, ""},
		{`{"path":"p","offset":0,"lines":[],"totalLines":0}`, ""},
		{`{"path":"p","offset":1.5,"lines":[],"totalLines":0}`, ""},
		{`{"path":"p","offset":1,"lines":[],"totalLines":-1}`, ""},
		{`{"path":"p","offset":1,"lines":{},"totalLines":0}`, ""},
		{`{"path":"p","offset":1,"lines":[null],"totalLines":1}`, ""},
		{`{"path":"p","offset":1,"lines":[{"number":0,"text":"a"}],"totalLines":1}`, ""},
		{`{"path":"p","offset":1,"lines":[{"number":1,"text":1}],"totalLines":1}`, ""},
		{`{"path":"p","offset":1,"lines":[],"totalLines":0,"lang":null}`, ""},
		{`{"path":"p","offset":2,"lines":[{"number":1,"text":"a"}],"totalLines":2}`, ""},
		{`{"path":"p","offset":1,"lines":[{"number":1,"text":"a"},{"number":1,"text":"b"}],"totalLines":2}`, ""},
		{`{"path":"p","offset":1,"lines":[{"number":3,"text":"a"}],"totalLines":2}`, ""},
		{`{"path":"p","offset":1,"lines":[{"number":2,"text":"a"},{"number":1,"text":"b"}],"totalLines":2}`, ""},
	}
	for _, c := range cases {
		got, ok := fs.ReadMetaFromMeta(js(c.meta))
		if s := jsonv.Stringify(got); s != c.want || ok != (c.want != "") {
			t.Errorf("%s: got %s %v, want %q", c.meta, s, ok, c.want)
		}
	}
}

func TestDiffsFromMeta(t *testing.T) {
	cases := []struct{ meta, want string }{
		{`{"diffs":[{"path":"a","oldText":null,"newText":"x","k":1}],"other":1}`, `[{"path":"a","oldText":null,"newText":"x","k":1}]`},
		{`{"diffs":[{"path":"a","oldText":"o","newText":""}]}`, `[{"path":"a","oldText":"o","newText":""}]`},
		{`{"diffs":[]}`, ""}, {`{"diffs":"nope"}`, ""}, {`null`, ""}, {`[{"diffs":[]}]`, ""}, {`{}`, ""},
		{`{"diffs":[{"path":"f","oldText":"a"}]}`, ""},
		{`{"diffs":[{"path":"f","newText":"b"}]}`, ""},
		{`{"diffs":[{"path":"f","oldText":5,"newText":"b"}]}`, ""},
		{`{"diffs":[{"path":1,"oldText":null,"newText":"b"}]}`, ""},
		{`{"diffs":[null]}`, ""},
		{`{"diffs":[{"path":"a","oldText":null,"newText":"x"},[]]}`, ""},
	}
	for _, c := range cases {
		got, ok := fs.DiffsFromMeta(js(c.meta))
		if s := jsonv.Stringify(got); s != c.want || ok != (c.want != "") {
			t.Errorf("%s: got %s %v, want %q", c.meta, s, ok, c.want)
		}
	}
}

func TestComputeHunkDiffsPinned(t *testing.T) {
	m := "m1\nm2\nm3\nm4\nm5\nm6\nm7\n"
	lines := func(n int, change map[int]string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if c, ok := change[i]; ok {
				b.WriteString(c + "\n")
				continue
			}
			b.WriteString("l" + string(rune('a'+i%26)) + "\n")
		}
		return b.String()
	}
	cases := []struct {
		name, before, after, want string
	}{
		{"identical", "a\nb\n", "a\nb\n", `[]`},
		{"both empty", "", "", `[]`},
		{"create", "", "brand new\n", `[{"path":"p","oldText":null,"newText":"brand new"}]`},
		{"delete all", "gone\n", "", `[{"path":"p","oldText":"gone","newText":""}]`},
		{"no final newline", "x", "y", `[{"path":"p","oldText":"x","newText":"y"}]`},
		{"CRLF kept", "a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n", `[{"path":"p","oldText":"a\r\nb\r\nc\r","newText":"a\r\nB\r\nc\r"}]`},
		{"only a final newline added", "a\nb", "a\nb\n", `[{"path":"p","oldText":"a\nb","newText":"a\nb"}]`},
		{"tie goes to removal", m + "a\n" + m, m, `[{"path":"p","oldText":"m5\nm6\nm7\na\nm1\nm2\nm3\nm4\nm5\nm6\nm7","newText":"m5\nm6\nm7"}]`},
		{"swap", "a\nb\n", "b\na\n", `[{"path":"p","oldText":"a\nb","newText":"b\na"}]`},
		{"6 common lines merge", lines(14, map[int]string{4: "X"}), lines(14, map[int]string{4: "Y", 11: "Z"}), ""},
		{"7 common lines split", lines(15, map[int]string{4: "X"}), lines(15, map[int]string{4: "Y", 12: "Z"}), ""},
		{"lone CR stays in its line", "a\rb\nc\n", "a\rB\nc\n", `[{"path":"p","oldText":"a\rb\nc","newText":"a\rB\nc"}]`},
		{"emoji", "😀\n", "😁\n", `[{"path":"p","oldText":"😀","newText":"😁"}]`},
	}
	for _, c := range cases {
		got := fs.ComputeHunkDiffs("p", c.before, c.after)
		switch c.name {
		case "6 common lines merge":
			if got.Len() != 1 {
				t.Errorf("%s: %d hunks, want 1: %s", c.name, got.Len(), jsonv.Stringify(got))
			}
		case "7 common lines split":
			if got.Len() != 2 {
				t.Errorf("%s: %d hunks, want 2: %s", c.name, got.Len(), jsonv.Stringify(got))
			}
		default:
			if s := jsonv.Stringify(got); s != c.want {
				t.Errorf("%s:\n got %s\nwant %s", c.name, s, c.want)
			}
		}
	}
}

func TestStructuredPatchHeaders(t *testing.T) {
	// diff.createPatch-style headers as jsdiff 9.0.0 computes them.
	h := fs.StructuredPatch("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nD\ne\nf\ng\nh\n", 3)
	if len(h) != 1 || h[0].OldStart != 1 || h[0].OldLines != 7 || h[0].NewStart != 1 || h[0].NewLines != 7 {
		t.Fatalf("%+v", h)
	}
	want := []string{" a", " b", " c", "-d", "+D", " e", " f", " g"}
	if strings.Join(h[0].Lines, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q", h[0].Lines)
	}
	h = fs.StructuredPatch("x", "y", 3)
	if strings.Join(h[0].Lines, "|") != `-x|\ No newline at end of file|+y|\ No newline at end of file` {
		t.Errorf("markers %q", h[0].Lines)
	}
}

func TestBuildWindowEdges(t *testing.T) {
	w := func(offset, limit, maxLen, maxBytes int) fs.Window {
		return fs.Window{Offset: offset, Limit: limit, MaxLineLength: maxLen, MaxBytes: maxBytes}
	}
	cases := []struct {
		name, text string
		w          fs.Window
		lines      string
		total      int
		truncated  bool
		err        string
	}{
		{"empty file", "", w(1, 10, 10, 100), `[]`, 0, false, ""},
		{"empty file offset 2", "", w(2, 10, 10, 100), `[]`, 0, false, `offset 2 is out of range for "f" (0 lines)`},
		{"offset past end", "a\nb\n", w(3, 10, 10, 100), `[]`, 2, false, `offset 3 is out of range for "f" (2 lines)`},
		{"trailing newline is not a line", "one\ntwo\n", w(1, 10, 10, 100), `[{"number":1,"text":"one"},{"number":2,"text":"two"}]`, 2, false, ""},
		{"blank last line", "one\n\n", w(1, 10, 10, 100), `[{"number":1,"text":"one"},{"number":2,"text":""}]`, 2, false, ""},
		{"CRLF", "a\r\nb\r\n", w(1, 10, 10, 100), `[{"number":1,"text":"a"},{"number":2,"text":"b"}]`, 2, false, ""},
		{"one CR stripped", "a\r\r\n", w(1, 10, 10, 100), `[{"number":1,"text":"a\r"}]`, 1, false, ""},
		{"lone CR quirk", "abcde\rXYZ", w(1, 10, 5, 100), `[{"number":1,"text":"abcde"}]`, 1, false, ""},
		{"BOM kept", "\ufeffa", w(1, 10, 10, 100), "[{\"number\":1,\"text\":\"\ufeffa\"}]", 1, false, ""},
		{"emoji cut leaves a lone surrogate", "😀😀", w(1, 10, 3, 100), `[{"number":1,"text":"😀\ud83d... (line truncated to 3 chars)"}]`, 1, false, ""},
		{"CJK byte cap", "漢字\n漢\n", w(1, 10, 10, 9), `[{"number":1,"text":"漢字"}]`, 2, true, ""},
		{"byte cap counts joining newline", "ab\ncd\n", w(1, 10, 10, 5), `[{"number":1,"text":"ab"},{"number":2,"text":"cd"}]`, 2, false, ""},
		{"byte cap one short", "ab\ncd\n", w(1, 10, 10, 4), `[{"number":1,"text":"ab"}]`, 2, true, ""},
		{"empty window at offset", "aaaa\nbbbb\n", w(2, 10, 10, 3), `[]`, 2, true, ""},
		{"limit", "a\nb\nc\n", w(2, 1, 10, 100), `[{"number":2,"text":"b"}]`, 3, false, ""},
	}
	for _, c := range cases {
		res, err := fs.BuildWindow([]string{c.text}, c.w, "f")
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
			var fe *fs.FsError
			if !errors.As(err, &fe) || fe.Code != "FS_NOT_FOUND" {
				t.Errorf("%s: error %v is not FS_NOT_FOUND", c.name, err)
			}
		}
		if s := jsonv.Stringify(res.LinesValue()); s != c.lines || res.TotalLines != c.total || res.TruncatedByBytes != c.truncated || gotErr != c.err {
			t.Errorf("%s: got %s total=%d truncated=%v err=%q", c.name, s, res.TotalLines, res.TruncatedByBytes, gotErr)
		}
	}
}

func TestRegisterConfigErrors(t *testing.T) {
	for _, cfg := range []string{
		`{"plugins":{"tool-fs":{"readLimit":0}}}`,
		`{"plugins":{"tool-fs":{"readMaxLineLength":1.5}}}`,
		`{"plugins":{"tool-fs":{"readMaxBytes":"5"}}}`,
		`{"plugins":{"tool-fs":{"readStreamMinSize":-1}}}`,
	} {
		c, _ := projector.ParseConfig([]byte(cfg))
		r, _ := projector.NewRegistry(c)
		if err := fs.Register(r); err == nil || !strings.HasPrefix(err.Error(), "tool-fs: ") || !strings.HasSuffix(err.Error(), " must be a positive integer") {
			t.Errorf("%s: %v", cfg, err)
		}
	}
	for _, name := range []string{"read", "read_image", "write", "edit"} {
		tl := tool(t, name)
		if err := projector.CompileSchema(tl.Parameters); err != nil {
			t.Errorf("%s parameters: %v", name, err)
		}
		if err := projector.CompileSchema(tl.Output.Schema); err != nil {
			t.Errorf("%s output: %v", name, err)
		}
	}
}
