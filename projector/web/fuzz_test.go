package web

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// FuzzFetch: any body, kind and cap render without a Go panic; the text
// never exceeds the cap (in UTF-16 units) and meta agrees with it.
func FuzzFetch(f *testing.F) {
	f.Add("<h1>x</h1><ul><li>a</li></ul>", true, 1000, false, "https://a.test")
	f.Add("😀😀😀", false, 3, true, "u")
	f.Add("<div><div><table><tr><td>x", true, 79, false, "")
	f.Fuzz(func(t *testing.T, content string, html bool, max int, truncated bool, url string) {
		if max < 1 {
			max = 1 - max%1000
		}
		kind := "text"
		if html {
			kind = "html"
		}
		value := jsonv.Obj(
			jsonv.M("url", jsonv.Str(url)),
			jsonv.M("statusCode", jsonv.Int(200)),
			jsonv.M("body", jsonv.Obj(jsonv.M("kind", jsonv.Str(kind)), jsonv.M("content", jsonv.Str(content)))),
			jsonv.M("truncated", jsonv.BoolValue(truncated)),
		)
		tool := FetchTool(Options{FetchMaxOutputChars: max})
		content2, err := tool.RunRender(jsonv.Obj(), value)
		if err != nil {
			t.Fatalf("render failed: %v", err)
		}
		if n := jsonv.Len16(content2.At(0).Get("text").Str()); n > max {
			t.Fatalf("text has %d units, cap %d", n, max)
		}
		meta, _, err := tool.RunPresentationMeta(jsonv.Obj(), value)
		if err != nil {
			t.Fatalf("meta failed: %v", err)
		}
		view, err := tool.ResultView(jsonv.Obj(jsonv.M("url", jsonv.Str(url))), projector.Result{Content: content2, Meta: meta})
		if err != nil || view.IsUndefined() {
			t.Fatalf("result view: %v %v", view, err)
		}
	})
}

// FuzzSearch: arbitrary JSON as the value, arguments and meta never panic
// the projectors or presenters of either fork.
func FuzzSearch(f *testing.F) {
	f.Add(`{"content":"a","sources":[{"url":"https://a.test","title":"A"}],"truncated":true}`, `{"query":"q"}`, `{"sources":[],"truncated":false}`)
	f.Add(`{"sources":[null,1,"x",{"url":"http://[::1"}],"truncated":1}`, `{"queries":["a",2]}`, `[]`)
	f.Fuzz(func(t *testing.T, value, args, meta string) {
		v, err1 := jsonv.ParseString(value)
		a, err2 := jsonv.ParseString(args)
		m, err3 := jsonv.ParseString(meta)
		if err1 != nil || err2 != nil || err3 != nil {
			return
		}
		for _, fork := range []string{ForkLasmeX, ForkDSH} {
			tool := SearchTool(Options{Fork: fork, SearchMaxQueries: 4})
			_, _ = tool.RunRender(a, v)
			_, _, _ = tool.RunPresentationMeta(a, v)
			for _, err := range []error{callErr(tool, a), resultErr(tool, a, m)} {
				if f, ok := err.(*projector.Failure); ok && f.Panic {
					t.Fatalf("%s presenter panicked: %v", fork, err)
				}
			}
		}
	})
}

func callErr(t *projector.Tool, a jsonv.Value) error {
	_, err := t.CallView(a)
	return err
}

func resultErr(t *projector.Tool, a, m jsonv.Value) error {
	_, err := t.ResultView(a, projector.Result{Content: projector.TextContent("x"), Meta: m})
	return err
}

// FuzzHostname: no input panics the URL host parser.
func FuzzHostname(f *testing.F) {
	f.Add("https://user@[2001:db8::1]:8080/x")
	f.Add("http://0x7f.1/")
	f.Add("foo://ÄÖ/")
	f.Fuzz(func(t *testing.T, s string) {
		Hostname(s)
	})
}

// FuzzExceedsConversionDepth: the lexical scan never panics.
func FuzzExceedsConversionDepth(f *testing.F) {
	f.Add("<div><!-- <p> --><script><div></script>")
	f.Add("\u0130<x a='>'>")
	f.Fuzz(func(t *testing.T, s string) {
		ExceedsConversionDepth(s)
	})
}
