package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
)

// The summary numbers that must not depend on a session's format.
var verdictKeys = []string{"calls", "verified", "diverged", "unverified", "withValues", "checkedWithValues", "presentersOnly"}

func verdict(t *testing.T, log string) (string, int) {
	t.Helper()
	out, errOut, code := verifyCLI(t, "", "--strict", "--format", "json", "--deterministic", log)
	r := parseNDJSON(t, out)
	if len(r.findings) != 0 {
		t.Errorf("%s: findings %s (%s)", log, r.classes(), errOut)
	}
	var parts []string
	for _, k := range verdictKeys {
		if v, ok := r.summary[k]; ok {
			parts = append(parts, fmt.Sprint(k, "=", v))
		}
	}
	return strings.Join(parts, " "), code
}

// Every migrated twin of testdata/recorded (formats 2, 3 and 4, written by
// upstream's own migration code) verifies --strict with the same calls,
// values checked and verdict as its v0 original, and draws the same cards.
func TestVerifyMigratedTwins(t *testing.T) {
	root := sharedtest.Dir(t, "fixtures", "formats", "migrated")
	originals, _ := filepath.Glob(filepath.Join(recordedData, "*", "*", "session.jsonl"))
	if len(originals) < 30 {
		t.Fatalf("%d recorded sessions", len(originals))
	}
	reg, _, err := cmdutil.Registry("", nil, jsplugin.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	twins := 0
	for _, orig := range originals {
		rel, _ := filepath.Rel(recordedData, filepath.Dir(orig))
		if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
			t.Logf("%s: not migrated yet (no twins in the reference data)", rel)
			continue
		}
		want, code := verdict(t, orig)
		if code != cmdutil.ExitOK {
			t.Fatalf("%s: exit %d", orig, code)
		}
		wantText, wantJSON := cardBodies(t, reg, orig)
		for _, v := range []string{"2", "3", "4"} {
			twin := filepath.Join(root, rel, "session.v"+v+".jsonl")
			got, code := verdict(t, twin)
			twins++
			if got != want || code != cmdutil.ExitOK {
				t.Errorf("%s v%s: exit %d, %s; v0: %s", rel, v, code, got, want)
			}
			text, js := cardBodies(t, reg, twin)
			if text != wantText || js != wantJSON {
				t.Errorf("%s v%s: the cards differ from v0's", rel, v)
			}
		}
	}
	t.Logf("%d twins of %d recorded sessions", twins, len(originals))
}

var (
	textProvenance = regexp.MustCompile(`(?m)(╰ .*) · session(\.v[0-9]+)?\.jsonl:[0-9]+$`)
	jsonProvenance = regexp.MustCompile(`"log":"session(\.v[0-9]+)?\.jsonl","line":[0-9]+,`)
)

// cardBodies are a log's card goldens with the provenance (file and line,
// which differ between formats by construction) taken out.
func cardBodies(t *testing.T, reg *projector.Registry, log string) (string, string) {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	text, js, err := cards.Goldens(reg, log, data)
	if err != nil {
		t.Fatalf("%s: %v", log, err)
	}
	return textProvenance.ReplaceAllString(string(text.Body), "$1"), jsonProvenance.ReplaceAllString(string(js.Body), "")
}

// A value or a content altered in a twin is caught as in v0.
func TestVerifyMigratedTwinsAltered(t *testing.T) {
	root := sharedtest.Dir(t, "fixtures", "formats", "migrated")
	tests := []struct {
		name, scenario, file, old, new, want string
	}{
		{"value text", "read", "values", `"text":"export const a = 1"`, `"text":"export const a = 9"`, "content-mismatch,meta-mismatch"},
		{"value exit code", "bash", "values", `"exitCode":3,`, `"exitCode":4,`, "content-mismatch"},
		{"content", "search", "log", `"text":"Found 2 matches\n\ndocs/readme.md`, `"text":"Found 3 matches\n\ndocs/readme.md`, "content-mismatch"},
		{"sub-call value", "code-mode", "values", `"lines":[{"number":1,"text":"alpha"}`, `"lines":[{"number":1,"text":"alphA"}`, "content-mismatch"},
	}
	for _, tc := range tests {
		for _, v := range []string{"2", "3", "4"} {
			t.Run(tc.name+"/v"+v, func(t *testing.T) {
				dir := t.TempDir()
				src := filepath.Join(root, "dsh", tc.scenario)
				for kind, f := range map[string]string{"log": "session.v" + v + ".jsonl", "values": "session.v" + v + ".values.jsonl"} {
					b, err := os.ReadFile(filepath.Join(src, f))
					if err != nil {
						t.Fatal(err)
					}
					if kind == tc.file {
						s := string(b)
						if strings.Count(s, tc.old) == 0 {
							t.Fatalf("%s: %q not found", f, tc.old)
						}
						b = []byte(strings.Replace(s, tc.old, tc.new, 1))
					}
					if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				out, errOut, code := verifyCLI(t, "", "--strict", "--format", "json", "--deterministic", filepath.Join(dir, "session.v"+v+".jsonl"))
				if got := parseNDJSON(t, out).classes(); got != tc.want {
					t.Errorf("classes = %q, want %q", got, tc.want)
				}
				if code != 1 {
					t.Errorf("exit %d, want 1 (%s)", code, errOut)
				}
			})
		}
	}
}

// The snapshot logs of formats 2-4 (upstream's own fixtures: no values)
// verify with exit 0, no unknown event and no reader notice.
func TestVerifyFormatSnapshots(t *testing.T) {
	root := sharedtest.Dir(t, "fixtures", "formats")
	for _, dir := range []string{"knyazev741__deepseek-harness", "Hebilicious__deepseek-harness"} {
		out, errOut, code := verifyCLI(t, "", "--format", "json", "--deterministic", filepath.Join(root, dir))
		r := parseNDJSON(t, out)
		if code != cmdutil.ExitOK || errOut != "" {
			t.Errorf("%s: exit %d, stderr %q", dir, code, errOut)
		}
		for _, f := range r.findings {
			if f["class"] != "no-projector" || f["tool"] != "snapshot_ping" {
				t.Errorf("%s: finding %v", dir, f)
			}
		}
		if r.summary["logs"].(float64) < 12 || r.summary["calls"].(float64) < 15 {
			t.Errorf("%s: summary %v", dir, r.summary)
		}
	}
	out, errOut, code := cli(t, nil, "calls", "--summary", "--json", root)
	// The migrated twins' directories hold three generations: only v4 is read.
	if code != cmdutil.ExitOK || !strings.Contains(out, `"unknownEvents":0,`) || !strings.Contains(out, `"failed":0,`) ||
		!strings.Contains(out, `"format0Logs":0,"format1Logs":0,"format2Logs":7,"format3Logs":8,"format4Logs":46}`) {
		t.Errorf("calls --summary: exit %d %s %s", code, out, errOut)
	}
}

// A tree holding every generation of each recorded session (session.jsonl
// beside its v2, v3 and v4 twins, as DSH leaves them) verifies each session
// once, at its newest generation; each older one is one notice naming the
// file that supersedes it, and not an unreadable log.
func TestVerifyMixedGenerations(t *testing.T) {
	root := sharedtest.Dir(t, "fixtures", "formats", "migrated")
	dir := t.TempDir()
	scenarios := []string{"dsh/read", "dsh/code-mode", "lasmex/todo", "dsh/subagent"}
	wantCalls := 0.0
	for _, sc := range scenarios {
		dst := filepath.Join(dir, sc)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"session.jsonl", "session.values.jsonl"} {
			copyFile(t, filepath.Join(recordedData, sc, f), filepath.Join(dst, f))
		}
		for _, v := range []string{"2", "3", "4"} {
			for _, f := range []string{"session.v" + v + ".jsonl", "session.v" + v + ".values.jsonl"} {
				copyFile(t, filepath.Join(root, sc, f), filepath.Join(dst, f))
			}
		}
		out, _, _ := verifyCLI(t, "", "--format", "json", "--deterministic", filepath.Join(recordedData, sc, "session.jsonl"))
		wantCalls += parseNDJSON(t, out).summary["calls"].(float64)
	}
	for _, stream := range []bool{true, false} {
		args := []string{"--strict", "--format", "json", "--deterministic", dir}
		if !stream {
			args = append(args, filepath.Join(recordedData, "dsh", "todo", "session.jsonl")) // two arguments: no streaming walk
		}
		out, errOut, code := verifyCLI(t, "", args...)
		r := parseNDJSON(t, out)
		logs, calls := r.summary["logs"].(float64), r.summary["calls"].(float64)
		if !stream {
			logs, calls = logs-1, calls-7
		}
		if code != cmdutil.ExitOK || logs != float64(len(scenarios)) || calls != wantCalls || len(r.findings) != 0 {
			t.Errorf("stream %v: exit %d, %v logs, %v calls (want %d, %v), findings %s\n%s", stream, code, logs, calls, len(scenarios), wantCalls, r.classes(), errOut)
		}
		for _, sc := range scenarios {
			for _, old := range []string{"session.jsonl", "session.v2.jsonl", "session.v3.jsonl"} {
				line := "dsh-replay: notice: " + filepath.Join(dir, sc, old) + ": superseded-generation: an older generation of the session in session.v4.jsonl"
				if n := strings.Count(errOut, line); n != 1 {
					t.Errorf("stream %v: %d notices for %s/%s:\n%s", stream, n, sc, old, errOut)
				}
			}
		}
		if strings.Contains(out, filepath.Join(dir, "dsh", "read", "session.v3.jsonl")) {
			t.Errorf("an older generation was verified")
		}
	}
	// Named, an older generation is verified.
	old := filepath.Join(dir, "dsh", "read", "session.v2.jsonl")
	out, errOut, code := verifyCLI(t, "", "--strict", "--format", "json", "--deterministic", old)
	if r := parseNDJSON(t, out); code != cmdutil.ExitOK || r.summary["logs"].(float64) != 1 || strings.Contains(errOut, "superseded") {
		t.Errorf("named %s: exit %d %v %s", old, code, r.summary, errOut)
	}
	// calls and show take the newest generation too.
	out, errOut, code = cli(t, nil, "calls", "--summary", "--json", dir)
	if code != cmdutil.ExitOK || !strings.Contains(out, `"logs":4,`) || strings.Count(errOut, "superseded-generation") != 3*len(scenarios) {
		t.Errorf("calls: exit %d %s %s", code, out, errOut)
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
