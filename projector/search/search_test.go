package search_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/goldenfile"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/search"
)

func TestPreviewLine(t *testing.T) {
	const cut = " (line truncated)"
	tests := []struct {
		name string
		line string
		max  int
		want string
	}{
		{"spec multibyte", "aéaéaéaé", 7, "aéaéa" + cut},
		{"fits", "short", 100, "short"},
		{"spec bom and controls", "\uFEFF\t\u00a0é€\u0000\"", 5, "\t" + cut},
		{"exact cap", "abc", 3, "abc"},
		{"one over", "abcd", 3, "abc" + cut},
		{"empty", "", 5, ""},
		{"zero budget", "a", 0, cut},
		{"crlf kept inside", "a\r\nb", 100, "a\r\nb"},
		{"lone cr at cut", "ab\rcd", 3, "ab\r" + cut},
		{"emoji fits", "😀", 4, "😀"},
		{"emoji split", "😀😀", 5, cut[0:0] + "😀" + cut},
		{"emoji whole cut", "😀", 3, cut},
		{"cjk across cap", "中文字", 7, "中文" + cut},
		{"cjk exact", "中文字", 9, "中文字"},
		{"bom stripped when fits", "\uFEFFabc", 100, "abc"},
		{"only one bom stripped", "\uFEFF\uFEFFa", 100, "\uFEFFa"},
		{"bom counts toward cap", "\uFEFFabc", 4, "a" + cut},
		{"bom alone at cap", "\uFEFF", 3, ""},
		{"bom then cut", "\uFEFFa", 3, cut},
		{"inner bom kept", "a\uFEFF", 100, "a\uFEFF"},
		{"lone surrogate becomes U+FFFD", "a\xed\xa0\xbdb", 100, "a\uFFFDb"},
		{"lone surrogate counts 3 bytes", "a\xed\xa0\xbdb", 4, "a\uFFFD" + cut},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := search.PreviewLine(tc.line, tc.max); got != tc.want {
				t.Errorf("PreviewLine(%q, %d) = %q, want %q", tc.line, tc.max, got, tc.want)
			}
		})
	}
}

func TestToWorkdirRelative(t *testing.T) {
	tests := []struct{ path, workdir, want string }{
		{"/w/a/b.ts", "/w", "a/b.ts"},
		{"/w", "/w", "."},
		{"/w/", "/w", "."},
		{"/other/b.ts", "/w", "/other/b.ts"},
		{"/w-sibling/b.ts", "/w", "/w-sibling/b.ts"},
		{"/w/../up.ts", "/w", "/w/../up.ts"},
		{"/w/./x/../y.ts", "/w", "y.ts"},
		{"rel/c.ts", "/w", "rel/c.ts"},
		{"../c.ts", "/w", "../c.ts"},
		{"/sessions/s1/src/a.ts", "/sessions/s1", "src/a.ts"},
		{"/a/b", "/a/b/c", "/a/b"},
		{"//w//a", "/w", "a"},
		{"/", "/", "."},
		{"/x", "/", "x"},
	}
	for _, tc := range tests {
		if got := search.ToWorkdirRelative(tc.path, tc.workdir); got != tc.want {
			t.Errorf("ToWorkdirRelative(%q, %q) = %q, want %q", tc.path, tc.workdir, got, tc.want)
		}
	}
}

func TestSampleAcrossTopLevel(t *testing.T) {
	spec := []string{"v/a", "v/b", "v/c", "v/d", "src/e", "guide/f"}
	tests := []struct {
		name         string
		paths        []string
		max          int
		root         string
		want         []string
		shown, total int
	}{
		{"spec 3", spec, 3, ".", []string{"v/a", "src/e", "guide/f"}, 3, 3},
		{"spec 5 grouped not interleaved", spec, 5, ".", []string{"v/a", "v/b", "v/c", "src/e", "guide/f"}, 3, 3},
		{"fewer slots than groups", spec, 2, ".", []string{"v/a", "src/e"}, 2, 3},
		{"dot slash prefix", []string{"./a/x", "./a/y", "./b/z"}, 2, ".", []string{"./a/x", "./b/z"}, 2, 2},
		{"explicit root", []string{"w/v/a", "w/v/b", "w/s/c"}, 2, "w", []string{"w/v/a", "w/s/c"}, 2, 2},
		{"root with trailing sep", []string{"w/v/a", "w/v/b", "w/s/c"}, 2, "w//", []string{"w/v/a", "w/s/c"}, 2, 2},
		{"root all seps", []string{"/v/a", "/v/b", "/s/c"}, 2, "//", []string{"/v/a", "/s/c"}, 2, 2},
		{"path equals root", []string{"w", "w/a/b", "w/a/c"}, 2, "w", []string{"w", "w/a/b"}, 2, 2},
		{"absolute outside groups by first name", []string{"/x/a", "/x/b", "/y/c"}, 2, ".", []string{"/x/a", "/y/c"}, 2, 2},
		{"backslash is ordinary", []string{`a\b`, `a\c`, "d"}, 2, ".", []string{`a\b`, `a\c`}, 2, 3},
		{"flat is head", []string{"a", "b", "c"}, 2, ".", []string{"a", "b"}, 2, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := search.SampleAcrossTopLevel(tc.paths, tc.max, tc.root)
			if strings.Join(got.Items, "|") != strings.Join(tc.want, "|") || got.Shown != tc.shown || got.Total != tc.total {
				t.Errorf("got %q shown %d total %d, want %q shown %d total %d", got.Items, got.Shown, got.Total, tc.want, tc.shown, tc.total)
			}
		})
	}
}

func caps(mod func(*search.Caps)) search.Caps {
	c := search.DefaultCaps()
	if mod != nil {
		mod(&c)
	}
	return c
}

func grepValue(ms ...[3]any) jsonv.Value {
	arr := make([]jsonv.Value, len(ms))
	for i, m := range ms {
		arr[i] = jsonv.Obj(jsonv.M("path", jsonv.Str(m[0].(string))), jsonv.M("lineNumber", jsonv.Int(m[1].(int))), jsonv.M("line", jsonv.Str(m[2].(string))))
	}
	return jsonv.Obj(jsonv.M("matches", jsonv.Arr(arr...)))
}

func globValue(root string, paths ...string) jsonv.Value {
	return jsonv.Obj(jsonv.M("root", jsonv.Str(root)), jsonv.M("paths", jsonv.Strs(paths...)))
}

// TestRenderMeta pins render text and meta for upstream's edge cases; the
// text and meta of every case are kept in testdata/render-meta.golden.
func TestRenderMeta(t *testing.T) {
	tests := []struct {
		name  string
		tool  string
		caps  search.Caps
		value jsonv.Value
	}{
		{"grep empty", "grep", caps(nil), grepValue()},
		{"glob empty", "glob", caps(nil), globValue(".")},
		{"grep one match singular", "grep", caps(nil), grepValue([3]any{"a.ts", 1, "hit"})},
		{"grep cap hit exactly", "grep", caps(func(c *search.Caps) { c.GrepMaxMatches = 2 }),
			grepValue([3]any{"a.ts", 1, "one"}, [3]any{"b.ts", 2, "two"})},
		{"grep one over cap, plural kept 1", "grep", caps(func(c *search.Caps) { c.GrepMaxMatches = 1 }),
			grepValue([3]any{"a.ts", 1, "one"}, [3]any{"a.ts", 2, "two"})},
		{"grep groups first-seen", "grep", caps(nil),
			grepValue([3]any{"b.ts", 2, "x"}, [3]any{"a.ts", 1, "y"}, [3]any{"b.ts", 5, "z"})},
		{"grep crlf and bom lines", "grep", caps(func(c *search.Caps) { c.GrepMaxLineBytes = 8 }),
			grepValue([3]any{"w.txt", 1, "\uFEFFfirst"}, [3]any{"w.txt", 2, "a\rb"}, [3]any{"w.txt", 3, "\uFEFFlonger line"})},
		{"grep emoji and cjk across byte cap", "grep", caps(func(c *search.Caps) { c.GrepMaxLineBytes = 7 }),
			grepValue([3]any{"u.txt", 1, "😀😀"}, [3]any{"u.txt", 2, "中文字"}, [3]any{"é/ü.txt", 3, "ab中"})},
		{"grep meta cap flips truncated", "grep", caps(func(c *search.Caps) { c.SearchMetaMaxBytes = 40 }),
			grepValue([3]any{"a.ts", 1, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"})},
		{"grep meta cap drops trailing files", "grep", caps(func(c *search.Caps) { c.SearchMetaMaxBytes = 170 }),
			grepValue([3]any{"a.ts", 1, strings.Repeat("x", 60)}, [3]any{"b.ts", 2, strings.Repeat("y", 60)}, [3]any{"c.ts", 3, strings.Repeat("z", 60)})},
		{"grep json escapes in meta size", "grep", caps(func(c *search.Caps) { c.SearchMetaMaxBytes = 120 }),
			grepValue([3]any{"q\"uote.ts", 1, "<tab>\t\u0001\u2028"}, [3]any{"b.ts", 2, "ok"})},
		{"glob fits", "glob", caps(nil), globValue(".", "src/a.ts", "/elsewhere/b.ts", "rel/c.ts")},
		{"glob cap hit exactly", "glob", caps(func(c *search.Caps) { c.GlobMaxResults = 3 }), globValue(".", "a", "b", "c")},
		{"glob head when sampling off", "glob", caps(func(c *search.Caps) { c.GlobMaxResults = 3 }),
			globValue(".", "vendor/a.ts", "vendor/b.ts", "vendor/c.ts", "src/d.ts", "guide/e.md")},
		{"glob sampled", "glob", caps(func(c *search.Caps) { c.GlobMaxResults = 3; c.SampleOverCapGlobResults = true }),
			globValue(".", "vendor/a.ts", "vendor/b.ts", "vendor/c.ts", "src/d.ts", "guide/e.md", "top.txt")},
		{"glob sampled every group shown", "glob", caps(func(c *search.Caps) { c.GlobMaxResults = 3; c.SampleOverCapGlobResults = true }),
			globValue(".", "vendor/a.ts", "vendor/b.ts", "vendor/c.ts", "src/d.ts")},
		{"glob sampled flat keeps plain footer", "glob", caps(func(c *search.Caps) { c.GlobMaxResults = 2; c.SampleOverCapGlobResults = true }),
			globValue(".", "a.ts", "b.ts", "c.ts")},
		{"glob meta cap single path kept", "glob", caps(func(c *search.Caps) { c.SearchMetaMaxBytes = 60 }), globValue(".", "abc")},
		{"glob meta cap exact fit", "glob", caps(func(c *search.Caps) { c.SearchMetaMaxBytes = 61 }), globValue(".", "abc")},
	}
	var golden strings.Builder
	for _, tc := range tests {
		tool := search.GlobTool(tc.caps)
		if tc.tool == "grep" {
			tool = search.GrepTool(tc.caps)
		}
		if vs := tool.ValidateValue(tc.value); len(vs) > 0 {
			t.Fatalf("%s: test value fails the output schema: %v", tc.name, vs)
		}
		content, err := tool.RunRender(jsonv.Obj(), tc.value)
		if err != nil {
			t.Fatalf("%s: render: %v", tc.name, err)
		}
		meta, ok, err := tool.RunPresentationMeta(jsonv.Obj(), tc.value)
		if err != nil || !ok {
			t.Fatalf("%s: meta: %v %v", tc.name, ok, err)
		}
		if n := len(jsonv.Stringify(meta)); n > tc.caps.SearchMetaMaxBytes && metaItems(meta) > 1 {
			t.Errorf("%s: meta is %d bytes over the %d cap with more than one item", tc.name, n, tc.caps.SearchMetaMaxBytes)
		}
		// The card narrows the projected meta back to the same data.
		view, _ := tool.ResultView(jsonv.Obj(jsonv.M("pattern", jsonv.Str("p"))), projector.Result{Content: content, Meta: meta})
		if !view.IsObject() || !jsonv.Equal(view.Get("total"), meta.Get("total")) {
			t.Errorf("%s: result view %s does not narrow meta %s", tc.name, view, jsonv.Stringify(meta))
		}
		golden.WriteString("=== " + tc.tool + ": " + tc.name + "\n--- text\n" + content.At(0).Get("text").Str() +
			"\n--- meta (" + itoa(len(jsonv.Stringify(meta))) + " bytes)\n" + jsonv.Stringify(meta) + "\n\n")
	}
	checkGolden(t, "render-meta.golden", golden.String())
}

func metaItems(meta jsonv.Value) int {
	if meta.Has("files") {
		return meta.Get("files").Len()
	}
	return meta.Get("paths").Len()
}

func itoa(n int) string { return jsonv.FormatNumber(float64(n)) }

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

func TestCapMetaBytesSpecQuirk(t *testing.T) {
	// Upstream capMetaBytes' quirk: a single item is never dropped, but
	// truncated flips, so the 61-byte meta at cap 60 keeps its path.
	m := search.CapMetaBytes("paths", []jsonv.Value{jsonv.Str("abc")}, false, 1, 60)
	if got := jsonv.Stringify(m); got != `{"shape":"paths","paths":["abc"],"truncated":true,"total":1}` {
		t.Errorf("cap 60: %s", got)
	}
	m = search.CapMetaBytes("paths", []jsonv.Value{jsonv.Str("abc")}, false, 1, 61)
	if got := jsonv.Stringify(m); got != `{"shape":"paths","paths":["abc"],"truncated":false,"total":1}` {
		t.Errorf("cap 61: %s", got)
	}
	// Dropping stops at the first size that fits, measured with truncated:true.
	items := []jsonv.Value{jsonv.Str("a"), jsonv.Str("b"), jsonv.Str("c")}
	full := len(`{"shape":"paths","paths":["a","b","c"],"truncated":true,"total":3}`)
	for cap, want := range map[int]int{full: 3, full - 1: 2, full - 4: 2, full - 5: 1, 1: 1} {
		if got := search.CapMetaBytes("paths", items, false, 3, cap).Get("paths").Len(); got != want {
			t.Errorf("cap %d: kept %d paths, want %d", cap, got, want)
		}
	}
}

func TestPresenters(t *testing.T) {
	r := registry(t, jsonv.Obj())
	glob, grep := r.Lookup("glob"), r.Lookup("grep")
	if glob == nil || grep == nil || glob.Plugin != search.Plugin || grep.Plugin != search.Plugin {
		t.Fatal("glob/grep not registered under tool-fs-search")
	}
	validMatches := jsonv.MustParse(`{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x","extra":true}],"more":1}],"truncated":false,"total":1}`)
	validPaths := jsonv.MustParse(`{"shape":"paths","paths":["a"],"truncated":true,"total":1.5}`)
	calls := []struct {
		name string
		tool *projector.Tool
		args string
		want string // "" = no view
	}{
		{"glob pattern", glob, `{"pattern":"**/*.ts"}`, `{"card":"generic","title":"Glob **/*.ts","kind":"search","rawInput":"**/*.ts"}`},
		{"glob in path", glob, `{"pattern":"*.md","path":"docs"}`, `{"card":"generic","title":"Glob *.md in docs","kind":"search","rawInput":"*.md"}`},
		{"glob extra keys allowed", glob, `{"pattern":"*","x":1}`, `{"card":"generic","title":"Glob *","kind":"search","rawInput":"*"}`},
		{"glob blank pattern is schema-valid", glob, `{"pattern":" "}`, `{"card":"generic","title":"Glob  ","kind":"search","rawInput":" "}`},
		{"glob missing pattern", glob, `{}`, ``},
		{"glob pattern not a string", glob, `{"pattern":5}`, ``},
		{"glob path null", glob, `{"pattern":"*","path":null}`, ``},
		{"glob args not an object", glob, `["*"]`, ``},
		{"glob args null", glob, `null`, ``},
		{"grep pattern", grep, `{"pattern":"todo"}`, `{"card":"generic","title":"Grep todo","kind":"search","rawInput":"todo"}`},
		{"grep all", grep, `{"pattern":"todo","path":"src","include":"*.ts"}`, `{"card":"generic","title":"Grep todo in src (*.ts)","kind":"search","rawInput":"todo"}`},
		{"grep include only", grep, `{"pattern":"a","include":"*.go"}`, `{"card":"generic","title":"Grep a (*.go)","kind":"search","rawInput":"a"}`},
		{"grep include not a string", grep, `{"pattern":"a","include":["*.go"]}`, ``},
	}
	for _, tc := range calls {
		got, err := tc.tool.CallView(jsonv.MustParse(tc.args))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		checkView(t, tc.name, got, tc.want)
	}
	results := []struct {
		name    string
		tool    *projector.Tool
		isError bool
		meta    jsonv.Value
		want    string
	}{
		{"grep valid, inner extra keys survive", grep, false, validMatches,
			`{"card":"search","shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x","extra":true}],"more":1}],"truncated":false,"total":1}`},
		{"glob valid, any number total", glob, false, validPaths, `{"card":"search","shape":"paths","paths":["a"],"truncated":true,"total":1.5}`},
		{"grep empty files valid", grep, false, jsonv.MustParse(`{"shape":"matches","files":[],"truncated":false,"total":0}`),
			`{"card":"search","shape":"matches","files":[],"truncated":false,"total":0}`},
		{"glob empty paths valid", glob, false, jsonv.MustParse(`{"total":0,"truncated":false,"paths":[],"shape":"paths"}`),
			`{"card":"search","shape":"paths","paths":[],"truncated":false,"total":0}`},
		{"error result", grep, true, validMatches, ``},
		{"meta absent", grep, false, jsonv.Value{}, ``},
		{"meta null", grep, false, jsonv.NullValue(), ``},
		{"meta number", glob, false, jsonv.Int(42), ``},
		{"meta array", glob, false, jsonv.MustParse(`[]`), ``},
		{"other shape for grep", grep, false, validPaths, ``},
		{"other shape for glob", glob, false, validMatches, ``},
		{"unknown shape", glob, false, jsonv.MustParse(`{"shape":"tree","paths":[],"truncated":false,"total":0}`), ``},
		{"truncated not boolean", glob, false, jsonv.MustParse(`{"shape":"paths","paths":[],"truncated":"no","total":0}`), ``},
		{"total missing", glob, false, jsonv.MustParse(`{"shape":"paths","paths":[],"truncated":false}`), ``},
		{"total string", glob, false, jsonv.MustParse(`{"shape":"paths","paths":[],"truncated":false,"total":"0"}`), ``},
		{"paths not array", glob, false, jsonv.MustParse(`{"shape":"paths","paths":"a","truncated":false,"total":0}`), ``},
		{"path not string", glob, false, jsonv.MustParse(`{"shape":"paths","paths":["a",1],"truncated":false,"total":0}`), ``},
		{"files not array", grep, false, jsonv.MustParse(`{"shape":"matches","files":"nope","truncated":false,"total":0}`), ``},
		{"file null", grep, false, jsonv.MustParse(`{"shape":"matches","files":[null],"truncated":false,"total":0}`), ``},
		{"file array", grep, false, jsonv.MustParse(`{"shape":"matches","files":[[]],"truncated":false,"total":0}`), ``},
		{"file path missing", grep, false, jsonv.MustParse(`{"shape":"matches","files":[{"matches":[]}],"truncated":false,"total":0}`), ``},
		{"matches not array", grep, false, jsonv.MustParse(`{"shape":"matches","files":[{"path":"a","matches":{}}],"truncated":false,"total":0}`), ``},
		{"lineNumber string", grep, false, jsonv.MustParse(`{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":"1","line":"x"}]}],"truncated":false,"total":1}`), ``},
		{"line missing", grep, false, jsonv.MustParse(`{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1}]}],"truncated":false,"total":1}`), ``},
	}
	for _, tc := range results {
		got, err := tc.tool.ResultView(jsonv.MustParse(`{"pattern":"x"}`), projector.Result{Content: jsonv.Arr(), IsError: tc.isError, Meta: tc.meta})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		checkView(t, tc.name, got, tc.want)
	}
	// Arguments failing the parameter schema cost the result card too.
	if got, _ := grep.ResultView(jsonv.MustParse(`{"pattern":1}`), projector.Result{Content: jsonv.Arr(), Meta: validMatches}); got.IsDefined() {
		t.Errorf("schema-invalid args: want no result view, got %s", got)
	}
}

func checkView(t *testing.T, name string, got jsonv.Value, want string) {
	t.Helper()
	if want == "" {
		if got.IsDefined() {
			t.Errorf("%s: want no view, got %s", name, jsonv.Stringify(got))
		}
		return
	}
	if s := jsonv.Stringify(got); s != want {
		t.Errorf("%s:\n got %s\nwant %s", name, s, want)
	}
}

func TestRenderInvalidValueThrows(t *testing.T) {
	glob, grep := search.GlobTool(search.DefaultCaps()), search.GrepTool(search.DefaultCaps())
	for _, v := range []string{`null`, `[]`, `{}`, `{"root":".","paths":[1]}`, `{"paths":[]}`, `{"matches":{}}`, `{"matches":[{"path":"a","lineNumber":"1","line":"x"}]}`} {
		for _, tool := range []*projector.Tool{glob, grep} {
			value := jsonv.MustParse(v)
			if _, err := tool.RunRender(jsonv.Obj(), value); err == nil && len(tool.ValidateValue(value)) > 0 {
				t.Errorf("%s render of schema-invalid %s: want a thrown error", tool.Name, v)
			} else if f, ok := err.(*projector.Failure); ok && f.Panic {
				t.Errorf("%s render of %s panicked: %v", tool.Name, v, err)
			}
			if _, _, err := tool.RunPresentationMeta(jsonv.Obj(), value); err != nil {
				if f, ok := err.(*projector.Failure); ok && f.Panic {
					t.Errorf("%s meta of %s panicked: %v", tool.Name, v, err)
				}
			}
		}
	}
}

func TestConfig(t *testing.T) {
	c, err := search.CapsFromConfig(projector.Config{})
	if err != nil || c != search.DefaultCaps() {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	if c.GlobMaxResults != 100 || c.GrepMaxMatches != 250 || c.GrepMaxLineBytes != 2000 || c.SearchMetaMaxBytes != 65536 || c.SampleOverCapGlobResults {
		t.Errorf("shipped defaults: %+v", c)
	}
	cfg := func(s string) projector.Config {
		return projector.Config{Plugins: jsonv.Obj(jsonv.M(search.Plugin, jsonv.MustParse(s)))}
	}
	c, err = search.CapsFromConfig(cfg(`{"grepMaxMatches":3,"globMaxResults":4.0,"grepMaxLineBytes":5,"searchMetaMaxBytes":6,"sampleOverCapGlobResults":true}`))
	if err != nil || c != (search.Caps{SampleOverCapGlobResults: true, GlobMaxResults: 4, GrepMaxMatches: 3, GrepMaxLineBytes: 5, SearchMetaMaxBytes: 6}) {
		t.Errorf("configured: %+v %v", c, err)
	}
	for opts, msg := range map[string]string{
		`{"grepMaxMatches":0}`:             "tool-fs-search: grepMaxMatches must be a positive integer",
		`{"globMaxResults":1.5}`:           "tool-fs-search: globMaxResults must be a positive integer",
		`{"searchMetaMaxBytes":"1"}`:       "tool-fs-search: searchMetaMaxBytes must be a positive integer",
		`{"timeoutMs":-1}`:                 "tool-fs-search: timeoutMs must be a positive integer",
		`{"graceMs":2147483648}`:           "tool-fs-search: graceMs must be no greater than 2147483647",
		`{"sampleOverCapGlobResults":"x"}`: "tool-fs-search: sampleOverCapGlobResults must be a boolean",
	} {
		if _, err := search.CapsFromConfig(cfg(opts)); err == nil || err.Error() != msg {
			t.Errorf("%s: got %v, want %q", opts, err, msg)
		}
	}
	r, _ := projector.NewRegistry(cfg(`{"grepMaxMatches":0}`))
	if err := search.Register(r); err == nil {
		t.Error("Register accepted an invalid option")
	}
}

func TestSpilledContent(t *testing.T) {
	c := caps(func(c *search.Caps) { c.GrepMaxMatches = 1; c.GlobMaxResults = 1 })
	ms := []search.Match{{Path: "a", LineNumber: jsonv.Int(1), Line: "x"}, {Path: "b", LineNumber: jsonv.Int(2), Line: "y"}}
	ref := &search.SpillRef{Locator: "/tmp/s/x. y.txt", RetrievalHint: "Use read with offset/limit, or grep this path to search within it."}
	for _, tc := range []struct{ tool, rendered, spilled string }{
		{"grep", search.GrepText(ms, c, nil), search.GrepText(ms, c, ref)},
		{"glob", search.GlobText([]string{"a", "b"}, ".", c, nil), search.GlobText([]string{"a", "b"}, ".", c, ref)},
	} {
		got, ok := search.SpilledContent(tc.tool, tc.rendered, ref.Locator, ref.RetrievalHint)
		if !ok || got != tc.spilled {
			t.Errorf("%s: SpilledContent = %q, %v; want %q", tc.tool, got, ok, tc.spilled)
		}
		if r, ok := search.MatchSpilledContent(tc.tool, tc.rendered, tc.spilled); !ok || r != ref.Locator+". "+ref.RetrievalHint {
			t.Errorf("%s: MatchSpilledContent = %q, %v", tc.tool, r, ok)
		}
		if _, ok := search.MatchSpilledContent(tc.tool, tc.rendered, tc.rendered); ok {
			t.Errorf("%s: the unsaved text matched as spilled", tc.tool)
		}
	}
	if _, ok := search.SpilledContent("grep", "Found 1 match\n\na\nLine 1: x", "l", "h"); ok {
		t.Error("an uncapped result was spilled")
	}
	if _, ok := search.SpilledContent("read", "x", "l", "h"); ok {
		t.Error("a non-search tool was spilled")
	}
	want := "Found 2 matches\n\na\nLine 1: x\n\nb\nLine 2: y"
	if got := search.GrepSpillText(ms, c); got != want {
		t.Errorf("GrepSpillText = %q, want %q", got, want)
	}
}
