package cmd

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"

	"github.com/dsh-replay/dsh-replay/internal/clitest"
	"github.com/dsh-replay/dsh-replay/internal/goldenfile"
	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/replay"
)

func init() {
	// The perturbed runs of --shake re-execute the binary: the test binary
	// acts as the CLI when asked to.
	if os.Getenv("DSH_REPLAY_AS_CLI") == "1" {
		os.Exit(Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
}

const verifyData = "../testdata/verify"

// testFactory builds the commands the tests run: --shake's children are
// this test binary, acting as the CLI.
var testFactory = cmdutil.Factory{ChildEnv: []string{"DSH_REPLAY_AS_CLI=1"}}

// cli runs the CLI in-process (stdin nil: nothing to read).
func cli(t *testing.T, stdin io.Reader, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return cliWith(t, testFactory, stdin, args...)
}

// cliWith is cli with the commands built by f.
func cliWith(t *testing.T, f cmdutil.Factory, stdin io.Reader, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	run := func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return RunWith(&f, args, stdin, stdout, stderr)
	}
	return clitest.Run(t, run, stdin, args...)
}

func verifyCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return cli(t, strings.NewReader(stdin), append([]string{"verify"}, args...)...)
}

type ndjson struct {
	findings []map[string]any
	summary  map[string]any
}

func parseNDJSON(t *testing.T, out string) ndjson {
	t.Helper()
	var r ndjson
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("bad NDJSON line %q: %v", line, err)
		}
		if m["schema_version"] != float64(1) {
			t.Fatalf("line without schema_version 1: %s", line)
		}
		switch m["type"] {
		case "finding":
			r.findings = append(r.findings, m)
		case "summary":
			r.summary = m
		default:
			t.Fatalf("unknown object type in %s", line)
		}
	}
	if r.summary == nil {
		t.Fatalf("no summary object in:\n%s", out)
	}
	return r
}

// classes is the sorted "class[/subkind]" list of the findings.
func (r ndjson) classes() string {
	var cs []string
	for _, f := range r.findings {
		c := f["class"].(string)
		if s, ok := f["subkind"].(string); ok {
			c += "/" + s
		}
		cs = append(cs, c)
	}
	sort.Strings(cs)
	return strings.Join(cs, ",")
}

func TestVerifyCleanLogs(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(verifyData, "clean")
	out, errOut, code := verifyCLI(t, "", "--format", "json", "--deterministic", dir)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	r := parseNDJSON(t, out)
	if len(r.findings) != 0 {
		t.Errorf("clean logs have findings: %s", r.classes())
	}
	if r.summary["calls"].(float64) == 0 || r.summary["withValues"] != r.summary["calls"] {
		t.Errorf("summary: %v", r.summary)
	}
}

// TestVerifyMutated: each mutated log produces exactly the expected classes
// and exit code.
func TestVerifyMutated(t *testing.T) {
	t.Parallel()
	tests := []struct {
		log   string
		flags []string
		want  string
		code  int
	}{
		{"content-byte", nil, "content-mismatch", 1},
		{"crlf-only", nil, "content-mismatch/crlf-only", 1},
		{"trailing-newline", nil, "content-mismatch/trailing-newline", 1},
		{"whitespace-only", nil, "content-mismatch/whitespace-only", 1},
		{"meta-key-removed", nil, "meta-mismatch", 1},
		{"meta-key-added", nil, "meta-mismatch", 1},
		{"meta-absent", nil, "meta-missing", 1},
		{"meta-null", nil, "meta-mismatch", 1},
		{"schema-invalid", nil, "schema-invalid", 1},
		{"content-replaced", nil, "", 0},
		{"spill-preview", nil, "", 0},
		{"spill-preview", []string{"--config", "testdata/verify/spill-800.json"}, "", 0},
		{"spill-preview", []string{"--config", "testdata/verify/spill-900.json"}, "content-mismatch/spill-preview", 1},
		{"spill-preview-tampered", nil, "content-mismatch/spill-preview", 1},
		{"unknown-tool", nil, "no-projector", 0},
		{"unknown-tool", []string{"--strict"}, "no-projector", 1},
		{"subcall-meta", nil, "meta-unexpected", 1},
		{"unknown-event", nil, "unknown-event", 0},
		{"unknown-event", []string{"--strict"}, "unknown-event", 1},
		{"corrupt-line", nil, "log-corrupt", 3},
		{"sidecar", nil, "", 0},
		{"sidecar", []string{"--no-sidecar"}, "", 0},
		{"sidecar-mismatch", nil, "content-mismatch,log-corrupt/orphan-value,meta-mismatch", 1},
	}
	for _, tc := range tests {
		name := tc.log
		if len(tc.flags) > 0 {
			name += strings.Join(tc.flags, "")
		}
		t.Run(name, func(t *testing.T) {
			flags := append([]string{}, tc.flags...)
			for i, f := range flags {
				if strings.HasPrefix(f, "testdata/") {
					flags[i] = filepath.Join("..", f)
				}
			}
			args := append([]string{"--format", "json", "--deterministic"}, flags...)
			args = append(args, filepath.Join(verifyData, "mutated", tc.log+".jsonl"))
			out, errOut, code := verifyCLI(t, "", args...)
			r := parseNDJSON(t, out)
			if got := r.classes(); got != tc.want {
				t.Errorf("classes = %q, want %q", got, tc.want)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errOut)
			}
			if r.summary["exitCode"] != float64(tc.code) {
				t.Errorf("summary exitCode %v, want %d", r.summary["exitCode"], tc.code)
			}
			for _, f := range r.findings {
				if f["log"] == nil || f["command"] == nil || f["projector"] == nil {
					t.Errorf("finding without provenance: %v", f)
				}
			}
		})
	}
}

func TestVerifyUsage(t *testing.T) {
	t.Parallel()
	log := filepath.Join(verifyData, "mutated", "content-byte.jsonl")
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no-paths", nil, cmdutil.ExitUsage, "at least one PATH"},
		{"bad-shard", []string{"--shard", "4/3", log}, cmdutil.ExitUsage, "--shard"},
		{"bad-shard-form", []string{"--shard", "x", log}, cmdutil.ExitUsage, "--shard"},
		{"bad-format", []string{"--format", "xml", log}, cmdutil.ExitUsage, "unknown format"},
		{"bad-report", []string{"--report", "junit", log}, cmdutil.ExitUsage, "KIND=FILE"},
		{"bad-report-kind", []string{"--report", "sarif=x", log}, cmdutil.ExitUsage, "unknown format"},
		{"two-stdout", []string{"--report", "json=-", "--report", "junit=-", log}, cmdutil.ExitUsage, "stdout"},
		{"bad-flag", []string{"--frobnicate", log}, cmdutil.ExitUsage, "unknown flag"},
		{"bad-jobs", []string{"--jobs", "-1", log}, cmdutil.ExitUsage, "--jobs"},
		{"bad-config", []string{"--config", filepath.Join(verifyData, "mutated", "content-byte.jsonl"), log}, cmdutil.ExitUsage, "--config"},
		{"missing-log", []string{filepath.Join(verifyData, "nope.jsonl")}, cmdutil.ExitCannot, "nope.jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := verifyCLI(t, "", tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.msg) {
				t.Errorf("exit %d stderr %q, want %d with %q (stdout %q)", code, errOut, tc.code, tc.msg, out)
			}
		})
	}
}

// TestVerifyJobsDeterministic: the report does not depend on --jobs.
func TestVerifyJobsDeterministic(t *testing.T) {
	t.Parallel()
	var first string
	for _, jobs := range []string{"1", "2", "7"} {
		out, _, _ := verifyCLI(t, "", "--deterministic", "--jobs", jobs, verifyData)
		if first == "" {
			first = out
		} else if out != first {
			t.Fatalf("--jobs %s changed the report", jobs)
		}
	}
}

// TestVerifyShards: the shards of a matrix partition the calls.
func TestVerifyShards(t *testing.T) {
	t.Parallel()
	out, _, _ := verifyCLI(t, "", "--format", "json", "--deterministic", filepath.Join(verifyData, "clean"))
	total := parseNDJSON(t, out).summary["calls"].(float64)
	sum := 0.0
	for _, s := range []string{"1/3", "2/3", "3/3"} {
		out, _, code := verifyCLI(t, "", "--format", "json", "--deterministic", "--shard", s, filepath.Join(verifyData, "clean"))
		if code != cmdutil.ExitOK {
			t.Fatalf("shard %s exit %d", s, code)
		}
		r := parseNDJSON(t, out)
		if r.summary["shard"] != s {
			t.Errorf("summary shard %v", r.summary["shard"])
		}
		sum += r.summary["calls"].(float64)
	}
	if sum != total {
		t.Errorf("shards cover %v calls of %v", sum, total)
	}
}

func TestVerifyShake(t *testing.T) {
	t.Parallel()
	out, errOut, code := verifyCLI(t, "", "--format", "json", "--deterministic", "--shake", "3", filepath.Join(verifyData, "clean"))
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if r := parseNDJSON(t, out); len(r.findings) != 0 {
		t.Errorf("ports move under shake: %s", r.classes())
	}
}

// TestShakeSink: an output whose fingerprint differs in a perturbed run
// is reported as nondeterministic, once per output.
func TestShakeSink(t *testing.T) {
	t.Parallel()
	r := &replay.CallResult{File: "a.jsonl", Line: 3, CallID: "c", Tool: "read", Status: replay.Verified,
		Fingerprint: replay.Fingerprint{1, 2, 3, 4}}
	var got []*replay.CallResult
	s := &shakeSink{next: collect(func(r *replay.CallResult) { got = append(got, r) }), perturbed: map[string][]perturbedFP{
		shakeKey("a.jsonl", 3, "c"): {{"TZ=x", replay.Fingerprint{1, 2, 9, 4}}, {"TZ=y", replay.Fingerprint{1, 2, 8, 5}}},
	}}
	s.Call(r)
	if len(got) != 1 || got[0].Status != replay.Diverged || len(got[0].Findings) != 2 ||
		got[0].Findings[0].Projector != "presentCall" || got[0].Findings[1].Projector != "presentResult" ||
		got[0].Findings[0].Class != replay.Nondeterminism || !strings.Contains(got[0].Findings[0].Message, "TZ=x") {
		t.Fatalf("%+v", got[0])
	}
}

type collect func(*replay.CallResult)

func (c collect) BeginLog(string)           {}
func (c collect) EndLog(*replay.LogResult)  {}
func (c collect) Call(r *replay.CallResult) { c(r) }

func TestVerifyShakeStdin(t *testing.T) {
	t.Parallel()
	_, errOut, code := verifyCLI(t, "", "--shake", "1", "-")
	if code != cmdutil.ExitCannot || !strings.Contains(errOut, "stdin") {
		t.Errorf("exit %d %q", code, errOut)
	}
}

func TestVerifyStdin(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(verifyData, "mutated", "crlf-only.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := verifyCLI(t, string(data), "--format", "json", "-")
	if r := parseNDJSON(t, out); code != cmdutil.ExitDivergence || r.classes() != "content-mismatch/crlf-only" || r.findings[0]["log"] != "-" {
		t.Errorf("stdin: exit %d %s", code, out)
	}
}

// TestVerifyReportGoldens golden-tests every format over the mutated logs,
// and checks that --report writes the same bytes in one pass and nothing
// else.
func TestVerifyReportGoldens(t *testing.T) {
	dir := filepath.Join(verifyData, "mutated")
	tmp := t.TempDir()
	summary := filepath.Join(tmp, "step-summary.md")
	os.WriteFile(summary, []byte("previous step\n"), 0o644)
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	outs := map[string]string{}
	for _, format := range []string{"text", "json", "junit", "github", "html"} {
		out, errOut, code := verifyCLI(t, "", "--deterministic", "--jobs", "3", "--format", format, dir)
		if code != cmdutil.ExitCannot {
			t.Errorf("%s: exit %d (%s)", format, code, errOut)
		}
		outs[format] = out
		checkVerifyGolden(t, format+".golden", out)
	}
	got, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(got), "previous step\n## dsh-replay verify\n") {
		t.Errorf("job summary not appended: %.80q", got)
	}
	checkVerifyGolden(t, "step-summary.md.golden", strings.TrimPrefix(string(got), "previous step\n"))

	os.Setenv("GITHUB_STEP_SUMMARY", "")
	reports := filepath.Join(tmp, "reports")
	os.Mkdir(reports, 0o755)
	args := []string{"--deterministic", "--format", "text"}
	for _, f := range []string{"json", "junit", "github"} {
		args = append(args, "--report", f+"="+filepath.Join(reports, f))
	}
	out, _, _ := verifyCLI(t, "", append(args, dir)...)
	if out != outs["text"] {
		t.Error("stdout text differs when other sinks are written too")
	}
	entries, _ := os.ReadDir(reports)
	if len(entries) != 3 {
		t.Errorf("report dir holds %d files, want 3", len(entries))
	}
	for _, f := range []string{"json", "junit", "github"} {
		b, err := os.ReadFile(filepath.Join(reports, f))
		if err != nil || string(b) != outs[f] && f != "github" {
			t.Errorf("--report %s differs from --format %s (%v)", f, f, err)
		}
	}
}

func checkVerifyGolden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join(verifyData, "golden", name), got)
}

// TestVerifyFixtures: every real log verifies (presenters only: the logs
// carry no values) with no presenter failure.
func TestVerifyFixtures(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "fixtures")
	out, errOut, code := verifyCLI(t, "", "--format", "json", "--deterministic", dir)
	r := parseNDJSON(t, out)
	for _, f := range r.findings {
		if f["class"] == "presenter-failed" || f["severity"] != "warning" {
			t.Errorf("%v:%v %v %v: %v", f["log"], f["line"], f["class"], f["tool"], f["message"])
		}
	}
	if code != cmdutil.ExitOK {
		t.Errorf("exit %d (%s)", code, errOut)
	}
	t.Logf("%v logs, %v calls: %v verified, %v unverified; findings %v", r.summary["logs"], r.summary["calls"],
		r.summary["verified"], r.summary["unverified"], r.summary["findings"])
}
