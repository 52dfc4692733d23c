package replay

import (
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// ReRecord and verification share one projection: what ReRecord writes
// verifies, and what verifies is left alone.
func TestReRecordVerifies(t *testing.T) {
	text := func(s string) string { return `[{"type":"text","text":` + jsonv.Quote(s) + `}]` }
	long := strings.Repeat("0123456789abcdef\n", 200)
	spilled, _ := SpillReplacement(long, 800, "/tmp/dsh-spill-x/session-0/aaa-echo.txt")
	for _, tc := range []struct {
		name, tool, value, content, meta string
		sub, replaced                    bool
		changes                          string // "content", "meta", both or ""
	}{
		{name: "clean", tool: "echo", value: `{"text":"hi","n":1}`, content: text("hi"), meta: `{"n":1}`},
		{name: "stale", tool: "echo", value: `{"text":"hi","n":1}`, content: text("ho"), meta: `{"n":2}`, changes: "content,meta"},
		{name: "meta-missing", tool: "echo", value: `{"text":"hi"}`, content: text("hi"), changes: "meta"},
		{name: "finalized", tool: "capped", value: `{"text":"hello world"}`, content: text("hello[truncated]"), meta: `null`},
		{name: "finalized-stale", tool: "capped", value: `{"text":"hello world"}`, content: text("hello world"), meta: `null`, changes: "content"},
		{name: "own-spill", tool: "spilling", value: `{"text":"x (not saved)"}`, content: text("x (saved at /spill/x)"), meta: `null`},
		{name: "spill", tool: "echo", value: `{"text":` + jsonv.Quote(long) + `}`, content: text(spilled), meta: `null`},
		{name: "spill-tampered", tool: "echo", value: `{"text":` + jsonv.Quote(long) + `}`,
			content: text(strings.Replace(spilled, "Omitted 2", "Omitted 3", 1)), meta: `null`, changes: "content"},
		{name: "sub-call-meta", tool: "echo", value: `{"text":"hi","n":1}`, content: text("hi"), meta: `{"n":1}`, sub: true, changes: "meta"},
		{name: "replaced", tool: "capped", value: `{"text":"hello world"}`, content: text("policy said no"), meta: `{"n":3}`, replaced: true, changes: "meta"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEngine(testRegistry(t, hookTools()...), Options{SpillCap: -1})
			c := call(tc.value, tc.content, tc.meta)
			c.Name, c.IsSubCall, c.ContentReplaced = tc.tool, tc.sub, tc.replaced
			r, problems := e.ReRecord(c)
			if len(problems) > 0 {
				t.Fatalf("problems: %+v", problems)
			}
			var got []string
			if r.SetContent {
				got = append(got, "content")
				c.Content = r.Content
			}
			if r.SetMeta {
				got = append(got, "meta")
				c.Meta = r.Meta
			}
			if strings.Join(got, ",") != tc.changes {
				t.Errorf("re-recorded %q, want %q", got, tc.changes)
			}
			if f := classes(e.VerifyCall(c)); f != "" {
				t.Errorf("the re-recorded call does not verify: %s", f)
			}
			if r, _ := e.ReRecord(c); r.SetContent || r.SetMeta {
				t.Errorf("a second re-recording changes %+v", r)
			}
		})
	}
}

func TestReRecordProblems(t *testing.T) {
	e := NewEngine(testRegistry(t, hookTools()...), Options{})
	text := `[{"type":"text","text":"x"}]`
	for _, tc := range []struct {
		name  string
		c     *logformat.Call
		fail  bool
		msg   string
		unset bool // nothing re-recorded
	}{
		{name: "invalid", c: call(`{"text":5}`, text, `null`), fail: true, msg: "violates the output schema", unset: true},
		{name: "render-throws", c: call(`{"text":"throw","n":1}`, text, `null`), fail: true, msg: "render failed: ", unset: true},
		{name: "unknown-tool", c: func() *logformat.Call { c := call(`{"text":"hi"}`, text, ``); c.Name = "mystery"; return c }(),
			msg: `no Go port of tool "mystery"`, unset: true},
	} {
		r, problems := e.ReRecord(tc.c)
		if len(problems) != 1 || problems[0].Fail != tc.fail || !strings.Contains(problems[0].Msg, tc.msg) {
			t.Errorf("%s: problems %+v, want one with %q (fail %v)", tc.name, problems, tc.msg, tc.fail)
		}
		if tc.unset && (r.SetContent || r.SetMeta) {
			t.Errorf("%s: re-recorded %+v", tc.name, r)
		}
	}
	// No value: nothing to re-record, nothing to say.
	if r, problems := e.ReRecord(call(``, text, `{"n":1}`)); r.SetContent || r.SetMeta || len(problems) > 0 {
		t.Errorf("without a value: %+v %+v", r, problems)
	}
}

// Shake runs the same projection again: finalizeContent included, so a
// capped content is not taken for a moving render.
func TestShakeFinalized(t *testing.T) {
	e := NewEngine(testRegistry(t, hookTools()...), Options{Shake: 2})
	c := call(`{"text":"hello world"}`, `[{"type":"text","text":"hello[truncated]"}]`, `null`)
	c.Name = "capped"
	if f := classes(e.VerifyCall(c)); f != "" {
		t.Errorf("findings %q, want none", f)
	}
}
