package search_test

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/search"
)

// alphabet feeds generated strings the characters where JavaScript's and
// Go's string semantics part, or that the ports treat specially: separators, dots, BOM, CR/LF, JSON escapes, multi-byte, emoji, a lone
// surrogate (WTF-8) and U+2028.
var alphabet = []string{"a", "b", "/", "/", ".", "\\", "\uFEFF", "\r", "\n", "\t", "\"", "\u0001", "é", "中", "😀", "\xed\xa0\xbd", "\u2028", " "}

// gen turns fuzz bytes into schema-valid search values and caps.
type gen struct {
	b []byte
	i int
}

func (g *gen) next() int {
	if g.i >= len(g.b) {
		return 0
	}
	g.i++
	return int(g.b[g.i-1])
}

func (g *gen) str() string {
	var s strings.Builder
	for n := g.next() % 12; n > 0; n-- {
		s.WriteString(alphabet[g.next()%len(alphabet)])
	}
	return s.String()
}

func (g *gen) caps() search.Caps {
	return search.Caps{
		SampleOverCapGlobResults: g.next()%2 == 0,
		GlobMaxResults:           1 + g.next()%8,
		GrepMaxMatches:           1 + g.next()%8,
		GrepMaxLineBytes:         1 + g.next()%16,
		SearchMetaMaxBytes:       1 + g.next()*2,
	}
}

func (g *gen) globValue() jsonv.Value {
	roots := []string{".", "src", "src/", "/", "/w", g.str()}
	paths := make([]string, g.next()%14)
	for i := range paths {
		paths[i] = g.str()
	}
	return jsonv.Obj(jsonv.M("root", jsonv.Str(roots[g.next()%len(roots)])), jsonv.M("paths", jsonv.Strs(paths...)))
}

func (g *gen) grepValue() jsonv.Value {
	ms := make([]jsonv.Value, g.next()%14)
	files := []string{"a.ts", "b/c.ts", g.str()}
	for i := range ms {
		ms[i] = jsonv.Obj(jsonv.M("path", jsonv.Str(files[g.next()%len(files)])),
			jsonv.M("lineNumber", jsonv.Int(g.next()*1000)), jsonv.M("line", jsonv.Str(g.str())))
	}
	return jsonv.Obj(jsonv.M("matches", jsonv.Arr(ms...)))
}

// toolCache keeps one compiled pair of tools per caps: compiling the schemas
// dominates an iteration otherwise.
var toolCache sync.Map

func toolsFor(c search.Caps) []*projector.Tool {
	if ts, ok := toolCache.Load(c); ok {
		return ts.([]*projector.Tool)
	}
	ts := []*projector.Tool{search.GlobTool(c), search.GrepTool(c)}
	r, err := projector.NewRegistry(projector.Config{})
	if err == nil {
		for _, tool := range ts {
			_ = r.Add(tool) // compiles the schemas once
		}
	}
	toolCache.Store(c, ts)
	return ts
}

func notPanic(t *testing.T, what string, err error) {
	t.Helper()
	if f, ok := err.(*projector.Failure); ok && f.Panic {
		t.Fatalf("%s panicked: %s\n%s", what, f.Message, f.Stack)
	}
}

// FuzzSearch: for schema-valid generated values, render and presentationMeta
// succeed, deterministically, with a meta within its byte cap (or a single
// item) that the presenter narrows back; arbitrary argument and value text
// never panics any projector or presenter.
func FuzzSearch(f *testing.F) {
	f.Add([]byte{3, 1, 2, 9, 200, 5, 4, 0, 1, 2, 3}, `{"pattern":"x"}`, `{"matches":[]}`)
	f.Add([]byte("vendor/a vendor/b src/c guide/d"), `{"pattern":"*","path":"src"}`, `{"root":".","paths":["a"]}`)
	f.Add([]byte{0, 0, 0, 0, 0, 255, 255, 255, 7, 7, 7}, `{"pattern":5}`, `null`)
	f.Add([]byte{}, `[`, `{"matches":[{"path":"a","lineNumber":1.5e300,"line":"\ud800"}]}`)
	f.Fuzz(func(t *testing.T, seed []byte, argsText, valueText string) {
		g := &gen{b: seed}
		c := g.caps()
		tools := toolsFor(c)
		values := []jsonv.Value{g.globValue(), g.grepValue()}
		for i, tool := range tools {
			v := values[i]
			if vs := tool.ValidateValue(v); len(vs) > 0 {
				t.Fatalf("generated %s value is schema-invalid: %v", tool.Name, vs)
			}
			content, err := tool.RunRender(jsonv.Obj(), v)
			if err != nil {
				t.Fatalf("%s render: %v", tool.Name, err)
			}
			again, _ := tool.RunRender(jsonv.Obj(), v)
			if content.Len() != 1 || !jsonv.Equal(content, again) {
				t.Fatalf("%s render: %s (again %s)", tool.Name, content, again)
			}
			meta, _, err := tool.RunPresentationMeta(jsonv.Obj(), v)
			if err != nil {
				t.Fatalf("%s meta: %v", tool.Name, err)
			}
			n := len(jsonv.Stringify(meta))
			if n > c.SearchMetaMaxBytes && metaItems(meta) > 1 {
				t.Fatalf("%s meta %d bytes over cap %d: %s", tool.Name, n, c.SearchMetaMaxBytes, jsonv.Stringify(meta))
			}
			view, err := tool.ResultView(jsonv.Obj(jsonv.M("pattern", jsonv.Str("p"))), projector.Result{Content: content, Meta: meta})
			if err != nil || !view.IsObject() {
				t.Fatalf("%s result view of own meta: %v %v", tool.Name, view, err)
			}
		}
		args, argsErr := jsonv.ParseString(argsText)
		value, valueErr := jsonv.ParseString(valueText)
		for _, tool := range tools {
			if argsErr == nil {
				_, err := tool.CallView(args)
				notPanic(t, tool.Name+" presentCall", err)
				_, err = tool.ResultView(args, projector.Result{Content: jsonv.Arr(), Meta: value})
				notPanic(t, tool.Name+" presentResult", err)
			}
			if valueErr == nil {
				_, err := tool.RunRender(args, value)
				notPanic(t, tool.Name+" render", err)
				_, _, err = tool.RunPresentationMeta(args, value)
				notPanic(t, tool.Name+" presentationMeta", err)
			}
		}
	})
}

// FuzzPreviewLine: the preview is well-formed, fits its budget plus the
// suffix, and is a prefix of the (well-formed, BOM-stripped) line.
func FuzzPreviewLine(f *testing.F) {
	f.Add("aéaéaéaé", 7)
	f.Add("\uFEFF\t\u00a0é€\u0000\"", 5)
	f.Add("\xed\xa0\xbd😀", 4)
	f.Fuzz(func(t *testing.T, line string, max int) {
		if max < 0 || max > 1<<16 || !utf8.ValidString(jsonv.ToWellFormed(line)) {
			return
		}
		got := search.PreviewLine(line, max)
		whole := strings.TrimPrefix(jsonv.ToWellFormed(line), "\uFEFF")
		body, cut := strings.CutSuffix(got, " (line truncated)")
		if !utf8.ValidString(got) || len(body) > max || !strings.HasPrefix(whole, body) {
			t.Fatalf("PreviewLine(%q, %d) = %q", line, max, got)
		}
		if !cut && got != whole {
			t.Fatalf("PreviewLine(%q, %d) = %q, want the whole line", line, max, got)
		}
	})
}
