package replay

import (
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

// strictTool is a defineTool-style tool with a required string q and an
// enum mode, as upstream compiles parameter maps.
func strictTool(name string) *projector.Tool {
	t := echoTool(name)
	t.Parameters = projector.ParamSchema(
		projector.Param{Name: "q", Type: "string", Required: true},
		projector.Param{Name: "mode", Type: "string", Enum: []string{"a", "b"}},
	)
	return t
}

// errCall is a call of name with raw arguments whose recorded result is an
// error with text and, when code is set, the error identity.
func errCall(name, raw, text, code string) *logformat.Call {
	c := &logformat.Call{File: "s.jsonl", Line: 7, CallID: "c1", Name: name, RawArguments: raw,
		Started: true, HasResult: true, IsError: true, Content: projector.TextContent(text)}
	if v, err := jsonv.ParseString(raw); err == nil {
		c.Arguments = v
	} else {
		c.ArgumentsError = err.Error()
	}
	if code != "" {
		c.Error = jsonv.Obj(jsonv.M("name", jsonv.Str("E")), jsonv.M("code", jsonv.Str(code)))
	}
	return c
}

func TestRejectedArguments(t *testing.T) {
	const invalid = `Error: invalid arguments: missing required property "q"`
	tests := []struct {
		name   string
		c      *logformat.Call
		strict bool
		want   string // finding headlines
		status Status
		// checked is what the verdict compared ("arguments": the
		// rejection, "unknown-tool": the unknown-tool error).
		checked string
		views   bool // the presenters drew views
	}{
		{name: "same-message", c: errCall("t", `{}`, invalid, "INVALID_ARGS"), status: Verified, checked: "arguments"},
		{name: "same-message-strict", c: errCall("t", `{}`, invalid, "INVALID_ARGS"), strict: true, status: Verified, checked: "arguments"},
		{name: "no-error-identity", c: errCall("t", `{}`, invalid, ""), strict: true, status: Verified, checked: "arguments"},
		{name: "several-violations", c: errCall("t", `{"mode":"c"}`,
			`Error: invalid arguments: missing required property "q"; "mode" must be one of ["a","b"]`, "INVALID_ARGS"), strict: true, status: Verified, checked: "arguments"},
		{name: "unparsable-json", c: errCall("t", `{"q":`, `Error: invalid arguments: "arguments" must be an object`, "INVALID_ARGS"), strict: true, status: Verified, checked: "arguments"},
		{name: "altered-message", c: errCall("t", `{}`, `Error: invalid arguments: missing required property "Q"`, "INVALID_ARGS"), want: "params-mismatch", status: Diverged, checked: "arguments"},
		{name: "port-accepts", c: errCall("t", `{"q":"x"}`, invalid, "INVALID_ARGS"), want: "params-mismatch", status: Diverged, checked: "arguments", views: true},
		{name: "host-accepted-port-declines", c: errCall("t", `{}`, "Error: file not found", "FS_NOT_FOUND"), want: "params-mismatch", status: Diverged},
		{name: "host-succeeded-port-declines", c: func() *logformat.Call {
			c := errCall("t", `{}`, "ok", "")
			c.IsError = false
			return c
		}(), want: "params-mismatch", status: Diverged},
		{name: "denied-untold", c: errCall("t", `{}`, `Error: the user rejected tool "t"`, ""), want: "presenter-declined", status: Verified},
		{name: "denied-untold-strict", c: errCall("t", `{}`, `Error: the user rejected tool "t"`, ""), strict: true, want: "presenter-declined", status: Diverged},
		{name: "no-result", c: func() *logformat.Call {
			c := errCall("t", `{}`, "", "")
			c.HasResult, c.IsError, c.Content = false, false, jsonv.Value{}
			return c
		}(), want: "presenter-declined", status: Verified},
		{name: "aborted-before-dispatch", c: errCall("t", `{}`, "Error: tool call aborted before dispatch", "ABORTED_BEFORE_DISPATCH"), want: "presenter-declined", status: Verified},
		{name: "unknown-tool-no-port", c: errCall("nope", `{}`, `Error: unknown tool "nope"`, "UNKNOWN_TOOL"), strict: true, status: Verified, checked: "unknown-tool"},
		{name: "unknown-tool-no-identity", c: errCall("nope", `{}`, `Error: unknown tool "nope"`, ""), strict: true, status: Verified, checked: "unknown-tool"},
		{name: "unknown-tool-altered", c: errCall("nope", `{}`, `Error: unknown tool "nope2"`, "UNKNOWN_TOOL"), want: "params-mismatch", status: Diverged, checked: "unknown-tool"},
		{name: "unknown-tool-with-port", c: errCall("t", `{"q":"x"}`, `Error: unknown tool "t"`, "UNKNOWN_TOOL"), strict: true, status: Verified, checked: "unknown-tool"},
		{name: "collapsed", c: errCall("t", `{"q":"x"}`, projector.CollapsedToolText("t"), "UNKNOWN_TOOL"), strict: true, status: Verified, checked: "unknown-tool", views: true},
		{name: "no-port-other-error", c: errCall("nope", `{}`, "Error: boom", ""), want: "no-projector", status: Unverified},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEngine(testRegistry(t, strictTool("t")), Options{Strict: tc.strict, Views: true})
			rs := e.VerifyCall(tc.c)
			if got := classes(rs); got != tc.want {
				t.Errorf("findings = %q, want %q", got, tc.want)
				for _, f := range rs[0].Findings {
					t.Logf("%s: %s\n%s", f.Headline(), f.Message, strings.Join(f.DiffLines(), "\n"))
				}
			}
			if rs[0].Status != tc.status {
				t.Errorf("status = %v, want %v", rs[0].Status, tc.status)
			}
			checked := ""
			for _, c := range rs[0].Checked {
				if c == "arguments" || c == "unknown-tool" {
					checked = c
				}
			}
			if checked != tc.checked {
				t.Errorf("checked %v, want %q", rs[0].Checked, tc.checked)
			}
			if got := rs[0].View != nil && rs[0].View.CallView.IsDefined(); got != tc.views {
				t.Errorf("call view drawn = %v, want %v", got, tc.views)
			}
		})
	}
}

// TestRejectedMessageDiff: an altered rejection shows the port's text.
func TestRejectedMessageDiff(t *testing.T) {
	e := NewEngine(testRegistry(t, strictTool("t")), Options{})
	rs := e.VerifyCall(errCall("t", `{}`, `Error: invalid arguments: missing required property "Q"`, "INVALID_ARGS"))
	f := rs[0].Findings[0]
	if !strings.Contains(strings.Join(f.DiffLines(), "\n"), `+ Error: invalid arguments: missing required property "q"`) {
		t.Errorf("diff %q", f.DiffLines())
	}
}

// TestSchemaChangeCaught: a port whose parameter schema drifts from the
// host's (a renamed property) turns a verified rejection into a finding.
func TestSchemaChangeCaught(t *testing.T) {
	c := errCall("t", `{}`, `Error: invalid arguments: missing required property "q"`, "INVALID_ARGS")
	drifted := strictTool("t")
	drifted.Parameters = projector.ParamSchema(projector.Param{Name: "query", Type: "string", Required: true})
	for _, tc := range []struct {
		tool *projector.Tool
		want string
	}{{strictTool("t"), ""}, {drifted, "params-mismatch"}} {
		rs := NewEngine(testRegistry(t, tc.tool), Options{Strict: true}).VerifyCall(c)
		if got := classes(rs); got != tc.want {
			t.Errorf("findings %q, want %q", got, tc.want)
		}
	}
}

// TestRejectedNoOtherHostHint: arguments LasmeX's web_search rejected are
// verified by its own validation and get no "run with host dsh" hint;
// the hint stays for a call the log does not say the host rejected.
func TestRejectedNoOtherHostHint(t *testing.T) {
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	const dshArgs = `{"queries":["go"]}`
	rejected := errCall("web_search", dshArgs, `Error: invalid arguments: missing required property "query"`, "INVALID_ARGS")
	untold := errCall("web_search", dshArgs, "", "")
	untold.HasResult, untold.IsError, untold.Content = false, false, jsonv.Value{}
	for _, tc := range []struct {
		name, host string
		c          *logformat.Call
		want       string
		hint       bool
	}{
		{"lasmex-rejected", "lasmex", rejected, "", false},
		{"unnamed-host-rejected", "", rejected, "", false},
		{"lasmex-untold", "lasmex", untold, "presenter-declined", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := *tc.c
			c.Host = tc.host
			rs := NewEngine(reg, Options{Strict: true}).VerifyCall(&c)
			if got := classes(rs); got != tc.want {
				t.Fatalf("findings %q, want %q: %v", got, tc.want, rs[0].Findings)
			}
			for _, f := range rs[0].Findings {
				if got := strings.Contains(f.Message, `"host":"dsh"`); got != tc.hint {
					t.Errorf("hint %v, want %v: %s", got, tc.hint, f.Message)
				}
			}
		})
	}
}
