package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
)

func TestToolsList(t *testing.T) {
	t.Parallel()
	out, errs, code := cli(t, nil, "tools")
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"TOOL", "read", "tool-fs", "render,presentationMeta,presentCall,presentResult", "edit"} {
		if !strings.Contains(out, want) {
			t.Errorf("tools output lacks %q:\n%s", want, out)
		}
	}
}

func TestToolsJSON(t *testing.T) {
	t.Parallel()
	out, errs, code := cli(t, nil, "tools", "--json")
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	seen := map[string]jsonv.Value{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		v, err := jsonv.ParseString(line)
		if err != nil {
			t.Fatalf("not NDJSON: %q: %v", line, err)
		}
		seen[v.Get("name").Str()] = v
	}
	cases := []struct{ name, want string }{
		{"read", `{"name":"read","plugin":"tool-fs","projectors":["render","presentationMeta","presentCall","presentResult"],"callCards":["generic"],"resultCards":["read"],"softValidation":true}`},
		{"read_image", `{"name":"read_image","plugin":"tool-fs","projectors":["render","presentCall"],"callCards":["generic"],"resultCards":[],"softValidation":true}`},
		{"write", `{"name":"write","plugin":"tool-fs","projectors":["render","presentationMeta","presentCall","presentResult"],"callCards":["diff"],"resultCards":["diff"],"softValidation":true}`},
		{"edit", `{"name":"edit","plugin":"tool-fs","projectors":["render","presentationMeta","presentCall","presentResult"],"callCards":["diff"],"resultCards":["diff"],"softValidation":true}`},
	}
	for _, c := range cases {
		if got := jsonv.Stringify(seen[c.name]); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestToolsSchema(t *testing.T) {
	t.Parallel()
	out, errs, code := cli(t, nil, "tools", "schema", "read")
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden := filepath.Join("testdata", "tools-schema-read.golden")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with UPDATE_GOLDEN=1 to create)", err)
	}
	if out != string(want) {
		t.Errorf("tools schema read:\n got %s\nwant %s", out, want)
	}
}

func TestToolsSchemaConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "cfg.json")
	os.WriteFile(cfg, []byte(`{"plugins":{"lasmex-tool-fs":{"readLimit":7}},"services":{"fs":{"sandboxMode":"read-only"}}}`), 0o644)
	out, errs, code := cli(t, nil, "tools", "schema", "--config", cfg, "read")
	if code != cmdutil.ExitOK || !strings.Contains(out, "Defaults to 7.") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	out, _, code = cli(t, nil, "tools", "schema", "--config", cfg, "edit")
	if code != cmdutil.ExitOK || !strings.Contains(out, `"danger-full-access"`) {
		t.Fatalf("escalation parameters missing under a confining fs (exit %d):\n%s", code, out)
	}
	os.WriteFile(cfg, []byte(`{"plugins":{"tool-fs":{"readLimit":0}}}`), 0o644)
	_, errs, code = cli(t, nil, "tools", "--config", cfg)
	if code == cmdutil.ExitOK || !strings.Contains(errs, "tool-fs: readLimit must be a positive integer") {
		t.Fatalf("bad readLimit accepted (exit %d): %s", code, errs)
	}
}

func TestToolsSchemaUnknown(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, want string }{
		{"raed", `did you mean "read"`},
		{"edti", `"edit"`},
		{"zzzzzzzzzzzzzz", `see "dsh-replay tools"`},
	}
	for _, c := range cases {
		_, errs, code := cli(t, nil, "tools", "schema", c.name)
		if code != cmdutil.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("schema %s: exit %d, stderr %q, want %q", c.name, code, errs, c.want)
		}
	}
	if _, _, code := cli(t, nil, "tools", "schema"); code != cmdutil.ExitUsage {
		t.Errorf("schema without NAME: exit %d", code)
	}
}

// countingWriter counts the Write calls a writer gets: each is a write(2)
// on an unbuffered stdout.
type countingWriter struct {
	strings.Builder
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.Builder.Write(p)
}

// TestToolsTextOneWrite: the table goes out in one write, not one per cell
// (1,136 for the built-in tools once, 5 ms of the command).
func TestToolsTextOneWrite(t *testing.T) {
	t.Parallel()
	reg, _, err := cmdutil.Registry("", nil, jsplugin.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var w countingWriter
	if err := writeToolsText(&w, reg.Tools()); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(w.String(), "\n"); lines < 50 {
		t.Fatalf("%d lines written", lines)
	}
	if w.writes != 1 {
		t.Errorf("%d writes for %d bytes; want 1", w.writes, w.Len())
	}
}

// The Team's own send_message (tool-agent-team, registered in a member's
// scope) has its own schemas: --scope team prints them, not
// tool-subagent-control's; --scope ask-timed the timed ask_user_question;
// a scope that does not exist is a usage error.
func TestToolsSchemaScope(t *testing.T) {
	t.Parallel()
	global, _, code := cli(t, nil, "tools", "schema", "send_message")
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d", code)
	}
	team, errs, code := cli(t, nil, "tools", "schema", "--scope", "team", "send_message")
	if code != cmdutil.ExitOK || team == global || !strings.Contains(team, `"queued"`) || strings.Contains(global, `"queued"`) {
		t.Fatalf("exit %d: the Team's schema not printed:\n%s%s", code, team, errs)
	}
	if _, errs, code := cli(t, nil, "tools", "schema", "--scope", "team", "read"); code != cmdutil.ExitUsage || !strings.Contains(errs, `unknown tool "read"`) {
		t.Errorf("a tool outside the scope: exit %d: %s", code, errs)
	}
	if _, errs, code := cli(t, nil, "tools", "schema", "--scope", "nope", "send_message"); code != cmdutil.ExitUsage || !strings.Contains(errs, "not a scope") {
		t.Errorf("an unknown scope: exit %d: %s", code, errs)
	}
	blocking, _, _ := cli(t, nil, "tools", "schema", "ask_user_question")
	timed, errs, code := cli(t, nil, "tools", "schema", "--scope", "ask-timed", "ask_user_question")
	if code != cmdutil.ExitOK || !strings.Contains(timed, `"timeout"`) || !strings.Contains(timed, `"pending"`) || strings.Contains(blocking, `"pending"`) {
		t.Errorf("exit %d: the timed ask_user_question not printed:\n%s%s", code, timed, errs)
	}
}
