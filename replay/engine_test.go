package replay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
)

// echoTool is a small hand-written tool: value {text, n}; render = text;
// meta = {n}; presenters echo the arguments.
func echoTool(name string) *projector.Tool {
	return &projector.Tool{
		Name:       name,
		Plugin:     "test",
		Parameters: jsonv.MustParse(`{"type":"object","properties":{"q":{"type":"string"}}}`),
		Output: &projector.Output{
			Schema: jsonv.MustParse(`{"type":"object","additionalProperties":false,"properties":{"text":{"type":"string"},"n":{"type":"number"}},"required":["text"]}`),
			Render: func(args, value jsonv.Value) (jsonv.Value, error) {
				if value.Get("text").Str() == "throw" {
					return jsonv.Value{}, projector.Throwf("renderer exploded")
				}
				if value.Get("text").Str() == "panic" {
					panic("index out of range")
				}
				return projector.TextContent(value.Get("text").Str()), nil
			},
			PresentationMeta: func(args, value jsonv.Value) (jsonv.Value, error) {
				if value.Get("n").IsUndefined() {
					return jsonv.NullValue(), nil
				}
				return jsonv.Obj(jsonv.M("n", value.Get("n"))), nil
			},
		},
		PresentCall: func(args jsonv.Value) jsonv.Value {
			if args.Get("q").Str() == "panic" {
				panic("presenter bug")
			}
			return jsonv.Obj(jsonv.M("card", jsonv.Str("generic")), jsonv.M("title", args.Get("q")))
		},
		PresentResult: func(args jsonv.Value, r projector.Result) jsonv.Value {
			if !r.Content.IsArray() {
				panic("content is not an array")
			}
			return jsonv.Obj(jsonv.M("card", jsonv.Str("generic")))
		},
	}
}

func testRegistry(t testing.TB, tools ...*projector.Tool) *projector.Registry {
	t.Helper()
	r, err := projector.NewRegistry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		if err := r.Add(tl); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// call builds a successful top-level call of echo.
func call(value, content, meta string) *logformat.Call {
	c := &logformat.Call{File: "s.jsonl", Line: 7, CallID: "c1", Name: "echo",
		RawArguments: `{"q":"x"}`, Arguments: jsonv.MustParse(`{"q":"x"}`),
		Started: true, HasResult: true, Content: jsonv.MustParse(content)}
	if value != "" {
		c.Value = jsonv.MustParse(value)
	}
	if meta != "" {
		c.Meta = jsonv.MustParse(meta)
	}
	return c
}

func classes(rs []CallResult) string {
	var out []string
	for _, r := range rs {
		for _, f := range r.Findings {
			out = append(out, f.Headline())
		}
	}
	return strings.Join(out, ",")
}

func TestVerifyCall(t *testing.T) {
	text := func(s string) string { return `[{"type":"text","text":` + jsonv.Quote(s) + `}]` }
	long := strings.Repeat("0123456789abcdef\n", 200) // 3400 bytes
	spilled, ok := SpillReplacement(long, 800, "/tmp/dsh-spill-x/session-0/aaa-echo.txt")
	if !ok {
		t.Fatal("no spill replacement")
	}
	tests := []struct {
		name   string
		mutate func(c *logformat.Call)
		c      *logformat.Call
		want   string
		status Status
		spill  int
	}{
		{name: "clean", c: call(`{"text":"hi","n":1}`, text("hi"), `{"n":1}`), status: Verified},
		{name: "clean-null-meta", c: call(`{"text":"hi"}`, text("hi"), `null`), status: Verified},
		{name: "no-value", c: call(``, text("hi"), `{"n":1}`), status: Verified},
		{name: "content-byte", c: call(`{"text":"hi","n":1}`, text("hI"), `{"n":1}`), want: "content-mismatch", status: Diverged},
		{name: "crlf", c: call(`{"text":"a\nb\n","n":1}`, text("a\r\nb\r\n"), `{"n":1}`), want: "content-mismatch (crlf-only)", status: Diverged},
		{name: "trailing-newline", c: call(`{"text":"a\nb","n":1}`, text("a\nb\n"), `{"n":1}`), want: "content-mismatch (trailing-newline)", status: Diverged},
		{name: "whitespace", c: call(`{"text":"a b","n":1}`, text("a  b"), `{"n":1}`), want: "content-mismatch (whitespace-only)", status: Diverged},
		{name: "replaced", c: call(`{"text":"hi","n":1}`, text("policy said no"), `{"n":1}`), mutate: func(c *logformat.Call) { c.ContentReplaced = true }, status: Verified},
		{name: "meta-mismatch", c: call(`{"text":"hi","n":1}`, text("hi"), `{"n":2}`), want: "meta-mismatch", status: Diverged},
		{name: "meta-key-added", c: call(`{"text":"hi","n":1}`, text("hi"), `{"n":1,"x":true}`), want: "meta-mismatch", status: Diverged},
		{name: "meta-missing", c: call(`{"text":"hi","n":1}`, text("hi"), ``), want: "meta-missing", status: Diverged},
		{name: "null-vs-absent", c: call(`{"text":"hi"}`, text("hi"), ``), want: "meta-missing", status: Diverged},
		{name: "absent-vs-null", c: call(`{"text":"hi","n":1}`, text("hi"), `null`), want: "meta-mismatch", status: Diverged},
		{name: "schema-invalid", c: call(`{"text":5}`, text("5"), `null`), want: "schema-invalid", status: Diverged},
		{name: "render-throws", c: call(`{"text":"throw"}`, text("x"), `null`), want: "render-failed", status: Diverged},
		{name: "render-panics", c: call(`{"text":"panic"}`, text("x"), `null`), want: "render-failed", status: Diverged},
		{name: "presenter-panics", c: call(`{"text":"hi"}`, text("hi"), `null`), mutate: func(c *logformat.Call) {
			c.RawArguments, c.Arguments = `{"q":"panic"}`, jsonv.MustParse(`{"q":"panic"}`)
		}, want: "presenter-failed", status: Diverged},
		{name: "unknown-tool", c: call(`{"text":"hi"}`, text("hi"), ``), mutate: func(c *logformat.Call) { c.Name = "mystery" }, want: "no-projector", status: Unverified},
		{name: "spill", c: call(`{"text":`+jsonv.Quote(long)+`}`, text(spilled), `null`), status: Verified},
		{name: "spill-known-cap", c: call(`{"text":`+jsonv.Quote(long)+`}`, text(spilled), `null`), spill: 800, status: Verified},
		{name: "spill-wrong-cap", c: call(`{"text":`+jsonv.Quote(long)+`}`, text(spilled), `null`), spill: 900, want: "content-mismatch (spill-preview)", status: Diverged},
		{name: "spill-tampered", c: call(`{"text":`+jsonv.Quote(long)+`}`, text(strings.Replace(spilled, "Omitted 2", "Omitted 3", 1)), `null`), want: "content-mismatch (spill-preview)", status: Diverged},
		{name: "subcall-meta", c: call(`{"text":"hi"}`, text("hi"), `{"n":1}`), mutate: func(c *logformat.Call) { c.IsSubCall = true }, want: "meta-unexpected", status: Diverged},
		{name: "subcall-meta-no-value", c: call(``, text("hi"), `{"n":1}`), mutate: func(c *logformat.Call) { c.IsSubCall = true }, want: "meta-unexpected", status: Diverged},
		{name: "subcall-clean", c: call(`{"text":"hi","n":1}`, text("hi"), ``), mutate: func(c *logformat.Call) { c.IsSubCall = true }, status: Verified},
		{name: "error-result-no-projectors", c: call(``, text("Error: boom"), ``), mutate: func(c *logformat.Call) { c.IsError = true }, status: Verified},
		{name: "pruned-view-presenter-panics", c: call(`{"text":"hi"}`, text("hi"), `null`), mutate: func(c *logformat.Call) {
			c.Views = []logformat.ResultView{{Line: 9, Content: jsonv.Str("pruned")}}
		}, want: "presenter-failed", status: Diverged},
		{name: "bad-args-no-view", c: call(``, text(`Error: invalid arguments: "arguments" must be an object`), ``), mutate: func(c *logformat.Call) {
			c.RawArguments, c.Arguments, c.ArgumentsError = `{"q":`, jsonv.Value{}, "unexpected end"
			c.IsError, c.Error = true, jsonv.MustParse(`{"name":"ToolArgsError","code":"INVALID_ARGS"}`)
		}, status: Verified},
		{name: "bad-args-executed", c: call(`{"text":"hi"}`, text("hi"), `null`), mutate: func(c *logformat.Call) {
			c.RawArguments, c.Arguments, c.ArgumentsError = `{"q":`, jsonv.Value{}, "unexpected end"
		}, want: "params-mismatch", status: Diverged},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.mutate != nil {
				tc.mutate(tc.c)
			}
			cap := -1
			if tc.spill > 0 {
				cap = tc.spill
			}
			e := NewEngine(testRegistry(t, echoTool("echo")), Options{SpillCap: cap})
			rs := e.VerifyCall(tc.c)
			// --kaptinlin is this engine's alone and never changes a verdict.
			k := NewEngine(testRegistry(t, echoTool("echo")), Options{SpillCap: cap, Kaptinlin: true})
			if got, want := classes(k.VerifyCall(tc.c)), classes(rs); got != want {
				t.Errorf("with kaptinlin: findings = %q, without %q", got, want)
			}
			if got := classes(rs); got != tc.want {
				t.Errorf("findings = %q, want %q", got, tc.want)
				for _, f := range rs[0].Findings {
					t.Logf("%s: %s\n%s", f.Headline(), f.Message, strings.Join(f.DiffLines(), "\n"))
				}
			}
			if rs[0].Status != tc.status {
				t.Errorf("status = %v, want %v", rs[0].Status, tc.status)
			}
			for _, f := range rs[0].Findings {
				if f.File != "s.jsonl" || f.Line != 7 || f.CallID != "c1" {
					t.Errorf("provenance not filled: %+v", f)
				}
			}
		})
	}
}

func TestStrictNoProjector(t *testing.T) {
	c := call(`{"text":"hi"}`, `[]`, ``)
	c.Name = "mystery"
	e := NewEngine(testRegistry(t), Options{Strict: true})
	rs := e.VerifyCall(c)
	if rs[0].Status != Diverged || rs[0].Findings[0].Sev != Failure {
		t.Fatalf("strict no-projector = %v %v", rs[0].Status, rs[0].Findings)
	}
}

func TestExecArgs(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
	}{
		{``, `{}`},
		{`{"a":1}`, `{"a":1}`},
		{`{"a":`, `"{\"a\":"`},
		{`  `, `"  "`},
	} {
		c := &logformat.Call{RawArguments: tc.raw}
		if v, err := jsonv.ParseString(tc.raw); err == nil {
			c.Arguments = v
		} else {
			c.ArgumentsError = err.Error()
		}
		if got := jsonv.Stringify(ExecArgs(c)); got != tc.want {
			t.Errorf("ExecArgs(%q) = %s, want %s", tc.raw, got, tc.want)
		}
	}
}

func TestSubCallsFollowRoot(t *testing.T) {
	root := call(`{"text":"hi"}`, `[{"type":"text","text":"hi"}]`, `null`)
	sub := call(`{"text":"x"}`, `[{"type":"text","text":"y"}]`, ``)
	sub.IsSubCall, sub.CallID = true, "c1:code:1"
	root.SubCalls = []*logformat.Call{sub}
	e := NewEngine(testRegistry(t, echoTool("echo")), Options{})
	rs := e.VerifyCall(root)
	if len(rs) != 2 || rs[0].Status != Verified || rs[1].Status != Diverged || rs[1].CallID != "c1:code:1" {
		t.Fatalf("got %+v", rs)
	}
}

// A presenter that depends on hidden state: shake must see it move.
func TestShake(t *testing.T) {
	tl := echoTool("echo")
	n := 0
	tl.PresentCall = func(args jsonv.Value) jsonv.Value {
		n++
		return jsonv.Obj(jsonv.M("card", jsonv.Str("generic")), jsonv.M("title", jsonv.Str(fmt.Sprint(n))))
	}
	e := NewEngine(testRegistry(t, tl), Options{Shake: 3})
	rs := e.VerifyCall(call(`{"text":"hi"}`, `[{"type":"text","text":"hi"}]`, `null`))
	if got := classes(rs); got != "nondeterministic" {
		t.Fatalf("findings = %q", got)
	}
	if rs[0].Findings[0].Projector != "presentCall" {
		t.Fatalf("projector = %q", rs[0].Findings[0].Projector)
	}
	// A pure tool stays clean under shake.
	e = NewEngine(testRegistry(t, echoTool("echo")), Options{Shake: 3})
	if got := classes(e.VerifyCall(call(`{"text":"hi","n":1}`, `[{"type":"text","text":"hi"}]`, `{"n":1}`))); got != "" {
		t.Fatalf("pure tool: %q", got)
	}
}

func TestFingerprint(t *testing.T) {
	e := NewEngine(testRegistry(t, echoTool("echo")), Options{Fingerprint: true})
	a := e.VerifyCall(call(`{"text":"hi","n":1}`, `[{"type":"text","text":"hi"}]`, `{"n":1}`))[0].Fingerprint
	b := e.VerifyCall(call(`{"text":"ho","n":1}`, `[{"type":"text","text":"hi"}]`, `{"n":1}`))[0].Fingerprint
	if a == (Fingerprint{}) || a[0] == b[0] || a[1] != b[1] {
		t.Fatalf("fingerprints %v %v", a, b)
	}
	if got := a.Moved(b); len(got) != 1 || got[0] != "render" {
		t.Errorf("moved = %v", got)
	}
	p, err := ParseFingerprint(a.String())
	if err != nil || p != a {
		t.Errorf("round trip %v %v", p, err)
	}
}

func TestFirstDiff(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{`{"a":[1,2,{"b/c":"x"}]}`, `{"a":[1,2,{"b/c":"y"}]}`, "/a/2/b~1c"},
		{`{"a":1}`, `{"a":1,"b":2}`, "/b"},
		{`[1]`, `[1,2]`, "/1"},
		{`1`, `"1"`, ""},
		{`{"a":1,"b":2}`, `{"b":2,"a":1.0}`, "(equal)"},
	} {
		p, ok := FirstDiff(jsonv.MustParse(tc.a), jsonv.MustParse(tc.b))
		if !ok {
			p = "(equal)"
		}
		if p != tc.want {
			t.Errorf("FirstDiff(%s, %s) = %q, want %q", tc.a, tc.b, p, tc.want)
		}
	}
}

func TestTextDiff(t *testing.T) {
	got := strings.Join(TextDiff("a\r\nb\tc  \nd", "a\nb\tc\nd\n", 0), "\n")
	want := strings.Join([]string{
		"- a␍",
		"- b␉c··",
		"- d (no newline at end)",
		"+ a",
		"+ b␉c",
		"+ d",
	}, "\n")
	if got != want {
		t.Errorf("TextDiff:\n%s\nwant:\n%s", got, want)
	}
	// Context is limited to three lines and long diffs are capped.
	var a, b []string
	for i := range 100 {
		a = append(a, fmt.Sprint(i))
		b = append(b, fmt.Sprint(i))
	}
	b[50] = "changed"
	d := TextDiff(strings.Join(a, "\n"), strings.Join(b, "\n"), 0)
	if len(d) != 8 || d[0] != "  47" || d[3] != "- 50" || d[4] != "+ changed" {
		t.Errorf("context diff = %q", d)
	}
	d = TextDiff(strings.Repeat("x\n", 100), strings.Repeat("y\n", 100), 10)
	if len(d) != 11 || d[10] != "… 190 more lines" {
		t.Errorf("capped diff tail = %q (len %d)", d[len(d)-1], len(d))
	}
}
