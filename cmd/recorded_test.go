package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// The recordings of real DSH and LasmeX sessions (scripts/record.sh): every
// call verifies, and most are checked through render and presentationMeta.
const recordedData = "../testdata/recorded"

func TestVerifyRecorded(t *testing.T) {
	t.Parallel()
	out, errOut, code := verifyCLI(t, "", "--strict", "--format", "json", "--deterministic", recordedData)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	r := parseNDJSON(t, out)
	if len(r.findings) != 0 {
		t.Errorf("findings: %s", r.classes())
	}
	calls, values := r.summary["calls"].(float64), r.summary["checkedWithValues"].(float64)
	// The rejected-arguments sessions are errors, which have no values.
	for _, host := range []string{"dsh", "lasmex"} {
		for _, scenario := range []string{"rejected", "rejected-more"} {
			out, _, _ := verifyCLI(t, "", "--format", "json", filepath.Join(recordedData, host, scenario))
			s := parseNDJSON(t, out).summary
			calls -= s["calls"].(float64)
			values -= s["checkedWithValues"].(float64)
		}
	}
	if calls < 150 || values < 0.8*calls {
		t.Errorf("%v calls, %v checked with values: want >= 150 and >= 80%%", calls, values)
	}
	for _, host := range []string{"dsh", "lasmex"} {
		out, _, code := verifyCLI(t, "", "--strict", "--format", "json", "--deterministic", filepath.Join(recordedData, host))
		if code != cmdutil.ExitOK {
			t.Fatalf("%s: exit %d", host, code)
		}
		tools := 0
		for _, tr := range parseNDJSON(t, out).summary["tools"].([]any) {
			if tr.(map[string]any)["withValues"].(float64) > 0 {
				tools++
			}
		}
		if tools < 12 {
			t.Errorf("%s: %d tools checked with values, want >= 12", host, tools)
		}
	}
}

// TestVerifyRecordedAltered: a recorded value or content changed by one
// byte is caught with the right class.
func TestVerifyRecordedAltered(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, scenario, file, old, new string
		want                           string
		code                           int
	}{
		{"value text", "read", "session.values.jsonl", `"text":"export const a = 1"`, `"text":"export const a = 9"`, "content-mismatch,meta-mismatch", 1},
		{"value type", "read", "session.values.jsonl", `"offset":1,"lines":[{"number":1,"text":"export const a = 1"}`, `"offset":"1","lines":[{"number":1,"text":"export const a = 1"}`, "schema-invalid", 1},
		{"value exit code", "bash", "session.values.jsonl", `"exitCode":3,`, `"exitCode":4,`, "content-mismatch", 1},
		{"value of an edit", "write-edit", "session.values.jsonl", `"after":"export const port = 8080\nexport const host = \"0.0.0.0\"`, `"after":"export const port = 8080\nexport const host = \"0.0.0.1\"`, "meta-mismatch", 1},
		{"content", "search", "session.jsonl", `"text":"Found 2 matches\n\ndocs/readme.md`, `"text":"Found 3 matches\n\ndocs/readme.md`, "content-mismatch", 1},
		{"content crlf", "search", "session.jsonl", `"text":"Found 2 matches\n\ndocs/readme.md`, `"text":"Found 2 matches\r\n\r\ndocs/readme.md`, "content-mismatch/crlf-only", 1},
		{"meta", "write-edit", "session.jsonl", `"newText":"export const port = 8080\nexport const host = \"0.0.0.0\"`, `"newText":"export const port = 8080\nexport const host = \"0.0.0.9\"`, "meta-mismatch", 1},
		{"value for another call", "todo", "session.values.jsonl", `{"callId":"t-1",`, `{"callId":"t-99",`, "log-corrupt/orphan-value", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(recordedData, "dsh", tc.scenario)
			for _, f := range []string{"session.jsonl", "session.values.jsonl"} {
				b, err := os.ReadFile(filepath.Join(src, f))
				if err != nil {
					t.Fatal(err)
				}
				if f == tc.file {
					s := string(b)
					if strings.Count(s, tc.old) != 1 {
						t.Fatalf("%s: %q occurs %d times, want once", f, tc.old, strings.Count(s, tc.old))
					}
					b = []byte(strings.Replace(s, tc.old, tc.new, 1))
				}
				if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, errOut, code := verifyCLI(t, "", "--strict", "--format", "json", "--deterministic", filepath.Join(dir, "session.jsonl"))
			if got := parseNDJSON(t, out).classes(); got != tc.want {
				t.Errorf("classes = %q, want %q", got, tc.want)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d (%s)", code, tc.code, errOut)
			}
		})
	}
}

// TestRecordedWebSearchPerHost: DSH's web_search (queries: string[]) and
// LasmeX's (query: string) both draw the web card without a config; pinning
// the other host makes the port's parameter schema reject arguments the
// host ran, a params-mismatch even without --strict.
func TestRecordedWebSearchPerHost(t *testing.T) {
	t.Parallel()
	for _, host := range []string{"dsh", "lasmex"} {
		log := filepath.Join(recordedData, host, "web-search", "session.jsonl")
		out, errOut, code := cli(t, nil, "show", "--json", log)
		if code != cmdutil.ExitOK {
			t.Fatalf("%s: show exit %d: %s", host, code, errOut)
		}
		first := strings.SplitN(out, "\n", 2)[0]
		for _, want := range []string{`"callView":{"card":"generic","title":"go generics","kind":"search"`, `"resultView":{"card":"web","kind":"search","title":"go generics","sources":[{"url":"https://example.com/go-generics/1"`} {
			if !strings.Contains(first, want) {
				t.Errorf("%s: first call lacks %s:\n%s", host, want, first)
			}
		}
		other := map[string]string{"dsh": "lasmex", "lasmex": "dsh"}[host]
		cfg := filepath.Join(t.TempDir(), "cfg.json")
		if err := os.WriteFile(cfg, []byte(`{"plugins":{"tool-web":{"fork":"`+other+`"}}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, strict := range []bool{false, true} {
			args := []string{"--format", "json", "--deterministic", "--config", cfg, log}
			if strict {
				args = append([]string{"--strict"}, args...)
			}
			out, _, code := verifyCLI(t, "", args...)
			r := parseNDJSON(t, out)
			if code != 1 || !strings.Contains(r.classes(), "params-mismatch") {
				t.Errorf("%s pinned to %s, strict %v: exit %d (want 1), findings %s", host, other, strict, code, r.classes())
			}
			for _, f := range r.findings {
				if f["class"] == "params-mismatch" && !strings.Contains(f["message"].(string), "the host accepted and executed arguments") {
					t.Errorf("%s: finding %v", host, f)
				}
			}
		}
	}
}

// TestVerifyRecordedRejected: real sessions with arguments the registry
// rejected, failing executes and unknown tools, on both hosts, and a DSH
// Agent Teams session, verify under --strict; the rejections and unknown
// tools are checked against the ports' own messages, so a rejection
// message altered by one word is a params-mismatch.
func TestVerifyRecordedRejected(t *testing.T) {
	logs := map[string]string{
		"dsh":    filepath.Join(recordedData, "dsh", "rejected", "session.jsonl"),
		"lasmex": filepath.Join(recordedData, "lasmex", "rejected", "session.jsonl"),
		"team":   filepath.Join(recordedData, "dsh", "team", "session.jsonl"),
		// goals, web_search, read_image, plan and question tools, the
		// terminal tools, run_code, a tool the deployment does not load
		"dsh-more":    filepath.Join(recordedData, "dsh", "rejected-more", "session.jsonl"),
		"lasmex-more": filepath.Join(recordedData, "lasmex", "rejected-more", "session.jsonl"),
	}
	for name, log := range logs {
		out, errOut, code := verifyCLI(t, "", "--strict", "--format", "json", "--deterministic", log)
		r := parseNDJSON(t, out)
		if code != cmdutil.ExitOK || len(r.findings) != 0 || r.summary["verified"] != r.summary["calls"] {
			t.Errorf("%s: exit %d, findings %s, summary %v (%s)", name, code, r.classes(), r.summary, errOut)
		}
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), `"code":"INVALID_ARGS"`); n < 2 {
			t.Errorf("%s: %d rejected calls recorded, want several", name, n)
		}
	}
	tests := []struct {
		name, log, old, new, want string
	}{
		{"dsh rejection", "dsh", `"text":"Error: invalid arguments: missing required property \"file_path\""`, `"text":"Error: invalid arguments: missing required property \"path\""`, "params-mismatch"},
		{"lasmex rejection", "lasmex", `"text":"Error: invalid arguments: \"todos\" must be an array"`, `"text":"Error: invalid arguments: \"todos\" must be a list"`, "params-mismatch"},
		{"unknown tool", "dsh", `"text":"Error: unknown tool \"no_such_tool\""`, `"text":"Error: unknown tool \"no-such-tool\""`, "params-mismatch"},
		{"terminal rejection", "lasmex-more", `"text":"Error: invalid arguments: missing required property \"sessionId\""`, `"text":"Error: invalid arguments: missing required property \"session_id\""`, "params-mismatch"},
		{"unknown tool with a port", "dsh-more", `"text":"Error: unknown tool \"subagent\""`, `"text":"Error: unknown tool \"subagents\""`, "params-mismatch"},
		{"team rejection", "team", `"text":"Error: invalid arguments: missing required property \"target\""`, `"text":"Error: invalid arguments: missing required property \"subagent_id\""`, "params-mismatch"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := os.ReadFile(logs[tc.log])
			if err != nil {
				t.Fatal(err)
			}
			s := string(b)
			if strings.Count(s, tc.old) != 1 {
				t.Fatalf("%q occurs %d times, want once", tc.old, strings.Count(s, tc.old))
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "session.jsonl"), []byte(strings.Replace(s, tc.old, tc.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			out, _, code := verifyCLI(t, "", "--format", "json", "--deterministic", filepath.Join(dir, "session.jsonl"))
			if got := parseNDJSON(t, out).classes(); got != tc.want || code != 1 {
				t.Errorf("exit %d, classes %q, want 1 and %q", code, got, tc.want)
			}
		})
	}
}

// TestShowRecordedRejected: show draws the calls the host rejected, and
// the tools it did not know, as generic cards without a presenter-declined
// warning, as upstream draws them.
func TestShowRecordedRejected(t *testing.T) {
	for _, host := range []string{"dsh", "lasmex"} {
		log := filepath.Join(recordedData, host, "rejected", "session.jsonl")
		out, errOut, code := cli(t, nil, "show", "--json", log)
		if code != cmdutil.ExitOK || strings.Contains(errOut, "presenter-declined") {
			t.Errorf("%s: exit %d, stderr %q", host, code, errOut)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			// The rejected calls and the unknown tools have no views.
			if strings.Contains(line, `"callId":"x-1"`) || strings.Contains(line, `"callId":"x-26"`) {
				if strings.Contains(line, "View") {
					t.Errorf("%s: a view for a rejected call: %s", host, line)
				}
			}
		}
		if !strings.Contains(out, `"callId":"x-26"`) {
			t.Errorf("%s: show printed no x-26", host)
		}
	}
}
