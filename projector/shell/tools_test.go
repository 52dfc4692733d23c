package shell

import (
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Expected outputs in this file were produced by the upstream TypeScript
// projectors for the same inputs.

var (
	cfgDefault = projector.Config{}
	cfgSandbox = projector.Config{Services: jsonv.MustParse(`{"shell":{"sandboxMode":"workspace-write"}}`)}
	cfgNoBG    = projector.Config{Plugins: jsonv.MustParse(`{"tool-bash":{"enableRunInBackground":false}}`)}
	cfgTerm64  = projector.Config{Plugins: jsonv.MustParse(`{"tool-terminal":{"maxResultBytes":64}}`)}
)

// fg is a foreground bash value with overrides.
func fg(overrides string) jsonv.Value {
	v := jsonv.MustParse(`{"kind":"foreground","exitCode":0,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":1000,"stdout":{"text":"","truncated":false},"stderr":{"text":"","truncated":false}}`)
	for _, m := range jsonv.MustParse(overrides).Members() {
		v = v.With(m.Key, m.Value)
	}
	return v
}

func renderText(t *testing.T, tool *projector.Tool, args, value jsonv.Value) string {
	t.Helper()
	got, err := tool.RunRender(args, value)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	s, ok := singleText(got)
	if !ok {
		t.Fatalf("render returned %s", got)
	}
	return s
}

func TestRenderEdges(t *testing.T) {
	cases := []struct {
		name  string
		cfg   projector.Config
		tool  string
		args  string
		value jsonv.Value
		want  string
	}{
		{"escalation hint when the executor confines", cfgSandbox, "bash", `{}`,
			fg(`{"exitCode":1,"stderr":{"text":"denied","truncated":false},"sandbox":{"mode":"read-only","denied":true}}`),
			"[stderr]\ndenied\n[sandbox: file access denied under read-only mode]\n" + escalationHint + "\n[exit code: 1]"},
		{"null exit code without signal", cfgDefault, "bash", `{}`, fg(`{"exitCode":null}`), "(no output)\n[exit code: null]"},
		{"spill paths, JS number format, signal wins", cfgDefault, "bash", `{}`,
			fg(`{"exitCode":null,"signal":"SIGKILL","timedOut":true,"timeoutMs":1e21,"stdout":{"text":"a","truncated":true,"spillPath":"/s"},"stderr":{"text":"b\n","truncated":true}}`),
			"a\n[output truncated; full output: /s]\n[stderr]\nb\n\n[output truncated; full output: (unavailable)]\n[timed out after 1e+21ms]\n[killed by signal: SIGKILL]"},
		{"runnerFailed is not a foreground marker", cfgDefault, "bash", `{}`,
			fg(`{"sandbox":{"mode":"read-only","denied":false,"runnerFailed":true}}`), "(no output)"},
		{"pwsh twin", cfgDefault, "pwsh", `{}`, fg(`{"exitCode":2147483648,"timeoutMs":0.000001,"timedOut":true}`),
			"(no output)\n[timed out after 0.000001ms]\n[exit code: 2147483648]"},
		{"background", cfgDefault, "bash", `{}`, jsonv.MustParse(`{"kind":"background","jobId":"bash-7"}`), "started background job bash-7"},
		{"persistent bash renders its value", projector.Config{Plugins: jsonv.MustParse(`{"tool-bash-persistent":{}}`)}, "bash", `{"command":"x"}`,
			jsonv.Str("out\n[exit code: 2]"), "out\n[exit code: 2]"},
		{"job output keeps a double newline", cfgDefault, "job_output", `{"job_id":"j"}`,
			jsonv.MustParse(`{"text":"a\n\n","job":{"id":"j","kind":"k","label":"l","status":"failed","detail":"","startedAt":0}}`), "a\n\n[status: failed, ]"},
		{"job kill already finished", cfgDefault, "job_kill", `{"job_id":"j"}`,
			jsonv.MustParse(`{"outcome":"already-finished","job":{"id":"j","kind":"k","label":"l","status":"killed","startedAt":0}}`), "job j had already finished [status: killed]"},
		{"send to an exited session", cfgDefault, "terminal_send", `{"sessionId":"p","text":"x"}`,
			jsonv.MustParse(`{"kind":"foreground","viewport":"","waitReason":"session_exit","sessionStatus":{"kind":"exited","exitCode":null,"signal":"SIGHUP"},"truncated":false}`),
			"(no new output)\n[wait: session_exit]\n[session: exited code=null signal=SIGHUP]"},
		{"read page numbers", cfgDefault, "terminal_read", `{"sessionId":"p"}`,
			jsonv.MustParse(`{"text":"abc","totalLines":1e21,"lineBegin":0,"lineEnd":1,"truncated":false}`), "abc\n[lines: 0-1 of 1e+21]"},
		{"signal names the argument", cfgDefault, "terminal_signal", `{"sessionId":"p","signal":"SIGTSTP"}`,
			jsonv.MustParse(`{"delivered":true,"targetPgid":4242}`), "delivered SIGTSTP to foreground process group 4242"},
		{"send output cut at 64 bytes keeps the markers", cfgTerm64, "terminal_send", `{"sessionId":"p","text":"x"}`,
			jsonv.MustParse(`{"kind":"foreground","viewport":"` + strings.Repeat("é", 40) + `","waitReason":"timeout","sessionStatus":{"kind":"running"},"truncated":true}`),
			"ééééé\n[wait: timeout]\n[session: running]\n[output truncated]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tool := lookup(t, c.cfg, c.tool)
			if got := renderText(t, tool, jsonv.MustParse(c.args), c.value); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestParseExitStatus(t *testing.T) {
	cases := []struct {
		text, body, exit string
	}{
		{"a\n[exit code: 007]", "a", `{"exitCode":7}`},
		{"a\n[killed by signal: ]", "a\n[killed by signal: ]", `{"exitCode":0}`},
		{"a\n[exit code: 3]\n", "a\n[exit code: 3]\n", `{"exitCode":0}`},
		{"a\n[killed by signal: SIG]X]", "a\n[killed by signal: SIG]X]", `{"exitCode":0}`},
		{"\n[exit code: 99999999999999999999]", "", `{"exitCode":100000000000000000000}`},
		{"[exit code: 5]", "[exit code: 5]", `{"exitCode":0}`},
		{"x\n[exit code: -1]", "x\n[exit code: -1]", `{"exitCode":0}`},
		{"x\n[exit code: ３]", "x\n[exit code: ３]", `{"exitCode":0}`}, // \d is ASCII only
		{"x\r\n[killed by signal: SIGTERM]", "x\r", `{"signal":"SIGTERM"}`},
		{"x\n[killed by signal: A\rB]", "x", `{"signal":"A\rB"}`},
		{"", "", `{"exitCode":0}`},
	}
	for _, c := range cases {
		body, exit := ParseExitStatus(c.text)
		got := jsonv.Stringify(jsonv.Obj(exit))
		if body != c.body || got != c.exit {
			t.Errorf("ParseExitStatus(%q) = %q, %s; want %q, %s", c.text, body, got, c.body, c.exit)
		}
	}
}

func TestPresenters(t *testing.T) {
	text := func(s string, isError bool) projector.Result {
		return projector.Result{Content: projector.TextContent(s), IsError: isError}
	}
	cases := []struct {
		name   string
		cfg    projector.Config
		tool   string
		args   string
		result *projector.Result // nil: presentCall
		want   string            // "" = no view
	}{
		{"fence strips only trailing LF", cfgDefault, "bash", `{"command":"x","description":"y"}`, ptr(text("a\r\n\n\n", true)),
			`{"card":"generic","content":[{"type":"text","text":"` + "```console\\na\\r\\n```" + `"}]}`},
		{"background result is fenced", cfgDefault, "pwsh", `{"command":"x","description":"y","run_in_background":true}`, ptr(text("started background job pwsh-1\n", false)),
			`{"card":"generic","content":[{"type":"text","text":"` + "```console\\nstarted background job pwsh-1\\n```" + `"}]}`},
		{"invalid timeoutMs: no call view", cfgDefault, "bash", `{"command":"x","description":"y","timeoutMs":"soon"}`, nil, ``},
		{"undeclared escalation keys pass an open root", cfgDefault, "bash", `{"command":"x","description":"y","sandbox_permissions":"root"}`, nil,
			`{"card":"terminal","title":"x","description":"y"}`},
		{"escalation enum enforced when advertised", cfgSandbox, "bash", `{"command":"x","description":"y","sandbox_permissions":"root"}`, nil, ``},
		{"run_in_background unchecked when not advertised", cfgNoBG, "bash", `{"command":"x","description":"y","run_in_background":"yes"}`, nil,
			`{"card":"terminal","title":"x","description":"y"}`},
		{"run_in_background type checked when advertised", cfgDefault, "bash", `{"command":"x","description":"y","run_in_background":"yes"}`, nil, ``},
		{"non-object args", cfgDefault, "bash", `["x"]`, nil, ``},
		{"persistent call view", projector.Config{Plugins: jsonv.MustParse(`{"tool-bash-persistent":{}}`)}, "bash", `{"command":"ls"}`, nil,
			`{"card":"terminal","title":"ls"}`},
		{"job_list call view", cfgDefault, "job_list", `{}`, nil, `{"card":"generic","title":"List background jobs","kind":"read"}`},
		{"terminal_open prefers name", cfgDefault, "terminal_open", `{"type":"shell","name":"main"}`, nil,
			`{"card":"generic","title":"Open terminal main","kind":"execute"}`},
		{"terminal_signal enum", cfgDefault, "terminal_signal", `{"sessionId":"p","signal":"SIGUSR1"}`, nil, ``},
		{"terminal_read raw input is the args object", cfgDefault, "terminal_read", `{"sessionId":"p","count":5,"extra":true}`, nil,
			`{"card":"generic","title":"Read terminal p","kind":"read","rawInput":{"sessionId":"p","count":5,"extra":true}}`},
		{"terminal_send error has no view", cfgDefault, "terminal_send", `{"sessionId":"p","text":"x"}`, ptr(text("Error: boom", true)), ``},
		{"terminal_send output verbatim", cfgDefault, "terminal_send", `{"sessionId":"p","text":"x"}`, ptr(text("out\n[exit code: 1]", false)),
			`{"card":"terminal","output":"out\n[exit code: 1]"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tool := lookup(t, c.cfg, c.tool)
			args := jsonv.MustParse(c.args)
			var got jsonv.Value
			if c.result == nil {
				got = tool.PresentCall(args)
			} else {
				got = tool.PresentResult(args, *c.result)
			}
			if c.want == "" {
				if got.IsDefined() {
					t.Errorf("want no view, got %s", jsonv.Stringify(got))
				}
				return
			}
			if s := jsonv.Stringify(got); s != c.want {
				t.Errorf("got  %s\nwant %s", s, c.want)
			}
		})
	}
}

func ptr(r projector.Result) *projector.Result { return &r }

func TestFinalizeContent(t *testing.T) {
	v := jsonv.MustParse(`{"text":"` + strings.Repeat("y", 100) + `\n[output truncated]","job":{"id":"pty-send-1","kind":"pty-send","label":"l","status":"running","startedAt":0}}`)
	outArgs := jsonv.MustParse(`{"job_id":"pty-send-1"}`)
	rendered := renderText(t, lookup(t, cfgTerm64, "job_output"), outArgs, v)
	cases := []struct {
		name    string
		tool    string
		args    jsonv.Value
		value   jsonv.Value
		content jsonv.Value
		want    jsonv.Value
	}{
		{"canonical job output keeps its status line", "job_output", outArgs, v, projector.TextContent(rendered),
			projector.TextContent(strings.Repeat("y", 27) + "\n[output truncated]\n[status: running]")},
		{"replaced job output is bounded whole", "job_output", outArgs, v, projector.TextContent(strings.Repeat("z", 80)),
			projector.TextContent(strings.Repeat("z", 45) + "\n[result truncated]")},
		{"marker not repeated", "job_kill", outArgs, v, projector.TextContent(strings.Repeat("z", 60) + "[result truncated]"),
			projector.TextContent(strings.Repeat("z", 46) + "[result truncated]")},
		{"jobs without a cap are untouched", "job_output", jsonv.MustParse(`{"job_id":"bash-1"}`), v, projector.TextContent(strings.Repeat("z", 80)),
			projector.TextContent(strings.Repeat("z", 80))},
		{"terminal rebuilds the block", "terminal_close", jsonv.Obj(), jsonv.Value{}, jsonv.MustParse(`[{"type":"text","text":"ok","extra":1}]`),
			projector.TextContent("ok")},
		{"terminal leaves two blocks alone", "terminal_close", jsonv.Obj(), jsonv.Value{}, jsonv.MustParse(`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`),
			jsonv.MustParse(`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`)},
		{"no finalizer", "bash", jsonv.Obj(), jsonv.Value{}, projector.TextContent(strings.Repeat("z", 80)), projector.TextContent(strings.Repeat("z", 80))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := FinalizeContent(cfgTerm64, c.tool, c.args, c.value, projector.Result{Content: c.content})
			if !jsonv.Equal(got, c.want) {
				t.Errorf("got  %s\nwant %s", jsonv.Stringify(got), jsonv.Stringify(c.want))
			}
		})
	}
}

func TestConfig(t *testing.T) {
	bad := []struct{ name, plugins, services string }{
		{"maxResultBytes below 64", `{"tool-terminal":{"maxResultBytes":63}}`, `{}`},
		{"maxResultBytes fractional", `{"tool-terminal":{"maxResultBytes":100.5}}`, `{}`},
		{"maxResultBytes string", `{"tool-terminal":{"maxResultBytes":"1k"}}`, `{}`},
		{"enableRunInBackground string", `{"tool-bash":{"enableRunInBackground":"no"}}`, `{}`},
		{"sandboxMode number", `{}`, `{"shell":{"sandboxMode":1}}`},
		{"persistent entry not an object", `{"tool-bash-persistent":true}`, `{}`},
	}
	for _, c := range bad {
		if _, err := Tools(projector.Config{Plugins: jsonv.MustParse(c.plugins), Services: jsonv.MustParse(c.services)}); err == nil {
			t.Errorf("%s: want an error", c.name)
		}
	}
	// Selection of the bash variant.
	if p := lookup(t, cfgDefault, "bash").Plugin; p != "tool-bash" {
		t.Errorf("default bash plugin = %s", p)
	}
	if p := lookup(t, projector.Config{Plugins: jsonv.MustParse(`{"tool-bash-persistent":{"maxOutputChars":100}}`)}, "bash").Plugin; p != "tool-bash-persistent" {
		t.Errorf("persistent bash plugin = %s", p)
	}
	// DSH's tool-pwsh-persistent replaces pwsh the same way.
	pp := lookup(t, projector.Config{Plugins: jsonv.MustParse(`{"tool-pwsh-persistent":{}}`)}, "pwsh")
	if got, want := jsonv.Stringify(pp.Parameters), `{"type":"object","properties":{"command":{"type":"string","description":"The PowerShell command to run. Relative path is preferred in the command."}},"required":["command"]}`; got != want {
		t.Errorf("pwsh persistent parameters = %s", got)
	}
	if got := jsonv.Stringify(pp.PresentCall(jsonv.MustParse(`{"command":"Get-Date"}`))); got != `{"card":"terminal","title":"Get-Date"}` {
		t.Errorf("pwsh persistent call view = %s", got)
	}
	// The whole family registers without name clashes.
	r, err := projector.NewRegistry(cfgDefault)
	if err != nil {
		t.Fatal(err)
	}
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	if n := len(r.Tools()); n != 11 {
		t.Errorf("registered %d tools, want 11", n)
	}
}

// TestOddContent feeds the presenters content blocks no first-party tool
// writes (a post-execute hook could): upstream's outcome, throws included.
func TestOddContent(t *testing.T) {
	bash := lookup(t, cfgDefault, "bash")
	send := lookup(t, cfgDefault, "terminal_send")
	bashArgs := jsonv.MustParse(`{"command":"x","description":"y"}`)
	sendArgs := jsonv.MustParse(`{"sessionId":"p","text":"x"}`)
	cases := []struct {
		content         string
		isError         bool
		wantBash, wantS string // "" = no view; "throw: msg" = thrown
	}{
		{`[{"type":"text"}]`, false, `{"card":"terminal","exitCode":0}`, ``},
		{`[{"type":"text"}]`, true, `throw: Cannot read properties of undefined (reading 'replace')`, ``},
		{`[{"type":"text","text":5}]`, false, `{"card":"terminal","output":5,"exitCode":0}`, `{"card":"terminal","output":5}`},
		{`[{"type":"text","text":5}]`, true, `throw: raw.replace is not a function`, ``},
		{`[{"type":"text","text":null}]`, false, `{"card":"terminal","output":null,"exitCode":0}`, `{"card":"terminal","output":null}`},
		{`[{"type":"text","text":null}]`, true, `throw: Cannot read properties of null (reading 'replace')`, ``},
		{`[{"type":"text","text":["a\n[exit code: 3]"]}]`, false, `{"card":"terminal","output":["a\n[exit code: 3]"],"exitCode":3}`, `{"card":"terminal","output":["a\n[exit code: 3]"]}`},
		{`[{"type":"text","text":["ab","c\n[killed by signal: X]"]}]`, false, `{"card":"terminal","output":["ab","c\n[killed by signal: X]"],"signal":"X"}`, `{"card":"terminal","output":["ab","c\n[killed by signal: X]"]}`},
		{`[{"type":"text","text":{"a":1}}]`, false, `{"card":"terminal","output":{"a":1},"exitCode":0}`, `{"card":"terminal","output":{"a":1}}`},
		{`[null]`, false, `throw: Cannot read properties of null (reading 'type')`, ``},
		{`[null]`, true, `throw: Cannot read properties of null (reading 'type')`, ``},
		{`[5]`, false, ``, ``},
		{`["text"]`, true, ``, ``},
	}
	describe := func(v jsonv.Value, err error) string {
		switch {
		case err != nil:
			return "throw: " + err.Error()
		case v.IsUndefined():
			return ""
		}
		return jsonv.Stringify(v)
	}
	for _, c := range cases {
		r := projector.Result{Content: jsonv.MustParse(c.content), IsError: c.isError}
		if got := describe(bash.ResultView(bashArgs, r)); got != c.wantBash {
			t.Errorf("bash %s isError=%v: got %s, want %s", c.content, c.isError, got, c.wantBash)
		}
		if got := describe(send.ResultView(sendArgs, r)); got != c.wantS {
			t.Errorf("terminal_send %s isError=%v: got %s, want %s", c.content, c.isError, got, c.wantS)
		}
	}
}
