package cmd

import (
	"encoding/xml"
	"html/template"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// testdata/tree is laid out like the upstream repositories' test trees:
// session logs beside JSON-RPC transcripts, wrapped streams, a model
// script whose tool call was never executed, and a JSON-lines fixture of
// another kind.
const treeData = "../testdata/tree"

var (
	treeRPC      = treeData + "/examples/acp-agent/tests/snapshots/edit-and-test/stdout.expected.jsonl"
	treeOther    = treeData + "/packages/test-support/fixtures/expected-cards.jsonl"
	treeScript   = treeData + "/examples/headless-agent/tests/snapshots/scripted/replay.jsonl"
	treeShellLog = treeData + "/examples/jsonrpc-agent/tests/snapshots/persistent-shell/session.jsonl"
)

func TestVerifyTreeSkipsNonLogs(t *testing.T) {
	t.Parallel()
	out, errs, code := verifyCLI(t, "", "--format", "json", "--deterministic", treeData)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d, want 0: %s%s", code, out, errs)
	}
	r := parseNDJSON(t, out)
	var skipped []string
	for _, f := range r.findings {
		if f["class"] == "not-a-session-log" {
			if f["severity"] != "warning" {
				t.Errorf("a non-log found in a directory must be a warning: %v", f)
			}
			skipped = append(skipped, f["log"].(string))
		}
	}
	if strings.Join(skipped, " ") != treeRPC+" "+treeOther {
		t.Errorf("not-a-session-log findings name %v, want the transcript and the other fixture", skipped)
	}
	if got := r.summary["notSessionLogs"]; got != float64(2) {
		t.Errorf("summary notSessionLogs = %v, want 2", got)
	}
	if got := r.summary["logs"]; got != float64(5) {
		t.Errorf("summary logs = %v, want 5 (the two non-logs are not logs)", got)
	}
	if !strings.Contains(r.summary["verdict"].(string), "2 files not a session log") {
		t.Errorf("verdict does not count the skipped files: %v", r.summary["verdict"])
	}

	// The text report lists them as skipped.
	text, _, _ := verifyCLI(t, "", "--deterministic", treeData)
	for _, f := range []string{treeRPC, treeOther} {
		if !strings.Contains(text, "skip "+f+" (not a session log") {
			t.Errorf("text report does not list %s as skipped:\n%s", f, text)
		}
	}
	if !strings.Contains(text, "the first line is a JSON-RPC frame") {
		t.Errorf("text report does not say what the transcript is:\n%s", text)
	}

	// --strict makes them (and every other notice) failures.
	if _, _, code := verifyCLI(t, "", "--strict", treeData); code != cmdutil.ExitDivergence {
		t.Errorf("--strict: exit %d, want 1", code)
	}
}

func TestVerifyNonLogNamedExplicitly(t *testing.T) {
	t.Parallel()
	out, _, code := verifyCLI(t, "", "--format", "json", "--deterministic", treeRPC)
	if code != cmdutil.ExitCannot {
		t.Fatalf("exit %d, want 3", code)
	}
	r := parseNDJSON(t, out)
	if r.classes() != "not-a-session-log" || r.findings[0]["severity"] != "fatal" {
		t.Errorf("findings %s (%v), want one fatal not-a-session-log", r.classes(), r.findings)
	}
	if r.summary["unverifiableLogs"] != float64(0) || r.summary["notSessionLogs"] != float64(1) {
		t.Errorf("summary %v", r.summary)
	}
}

func TestVerifyIncludeExclude(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		args      []string
		logs, not float64
	}{
		{"exclude transcripts by base name", []string{"--exclude", "stdout.expected.jsonl", "--exclude", "packages/**"}, 5, 0},
		{"include session logs only", []string{"--include", "**/snapshots/*/session.jsonl"}, 2, 0},
		{"include a subtree", []string{"--include", "examples/headless-agent/**"}, 2, 0},
		{"exclude with a star", []string{"--exclude", "*.expected.jsonl"}, 3, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := verifyCLI(t, "", append(append([]string{"--format", "json"}, c.args...), treeData)...)
			if code != cmdutil.ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			r := parseNDJSON(t, out)
			if r.summary["logs"] != c.logs || r.summary["notSessionLogs"] != c.not {
				t.Errorf("logs %v, not logs %v; want %v, %v", r.summary["logs"], r.summary["notSessionLogs"], c.logs, c.not)
			}
		})
	}
	// Everything filtered away is "no session logs"; a bad glob is a usage error.
	if _, errs, code := verifyCLI(t, "", "--include", "*.nothing", treeData); code != cmdutil.ExitCannot || !strings.Contains(errs, "--include/--exclude") {
		t.Errorf("all excluded: exit %d %q", code, errs)
	}
	if _, errs, code := verifyCLI(t, "", "--exclude", "[", treeData); code != cmdutil.ExitUsage || !strings.Contains(errs, "bad glob") {
		t.Errorf("bad glob: exit %d %q", code, errs)
	}
	// A file named explicitly is never filtered.
	if _, _, code := verifyCLI(t, "", "--exclude", "*.jsonl", treeShellLog); code != cmdutil.ExitOK {
		t.Errorf("explicit file under --exclude: exit %d", code)
	}
}

func TestOtherCommandsSkipNonLogs(t *testing.T) {
	for _, args := range [][]string{
		{"calls", "--summary", treeData},
		{"show", "--compact", "--no-pager", treeData},
	} {
		_, errs, code := goldenCLI(t, args...)
		if code != cmdutil.ExitOK {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
		for _, f := range []string{treeRPC, treeOther} {
			want := "dsh-replay: warning: " + f + ":1: not-a-session-log: "
			if !strings.Contains(errs, want) {
				t.Errorf("%v: stderr lacks %q:\n%s", args, want, errs)
			}
		}
	}
	// golden check too (on a copy: nothing of testdata is written).
	dir := copyTree(t, treeData)
	_, errs, code := goldenCLI(t, "golden", "check", dir)
	rpc := filepath.Join(dir, strings.TrimPrefix(treeRPC, treeData+"/"))
	if !strings.Contains(errs, "dsh-replay: warning: "+rpc+":1: not-a-session-log: ") || code == cmdutil.ExitCannot {
		t.Errorf("golden check does not skip non-logs with a warning (exit %d):\n%s", code, errs)
	}
}

func TestCallsWithoutRecordsNotice(t *testing.T) {
	out, _, code := verifyCLI(t, "", "--format", "json", treeScript)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d", code)
	}
	r := parseNDJSON(t, out)
	if r.classes() != "calls-without-records" || r.findings[0]["line"] != float64(3) ||
		!strings.Contains(r.findings[0]["message"].(string), `"call_scripted_grep"`) {
		t.Errorf("findings %v", r.findings)
	}
	_, errs, _ := goldenCLI(t, "calls", treeScript)
	if !strings.Contains(errs, "dsh-replay: warning: "+treeScript+":3: calls-without-records: ") {
		t.Errorf("calls does not warn: %q", errs)
	}
}

func TestPresenterDeclined(t *testing.T) {
	out, _, code := verifyCLI(t, "", "--format", "json", treeShellLog)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d", code)
	}
	r := parseNDJSON(t, out)
	if r.classes() != "presenter-declined,presenter-declined" {
		t.Fatalf("classes %q, want two presenter-declined", r.classes())
	}
	msg := r.findings[0]["message"].(string)
	for _, want := range []string{`missing required property "description"`, `{"plugins": {"tool-bash-persistent": {}}}`} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	// The calls still count as verified (the generic card is upstream's
	// behaviour), but the notice is in the summary.
	if r.summary["verified"] != float64(2) || r.summary["findings"].(map[string]any)["presenter-declined"] != float64(2) {
		t.Errorf("summary %v", r.summary)
	}
	// With the configuration the notice names, the presenters accept them.
	cfg := filepath.Join(t.TempDir(), "persistent.json")
	os.WriteFile(cfg, []byte(`{"plugins": {"tool-bash-persistent": {}}}`), 0o644)
	out, _, code = verifyCLI(t, "", "--format", "json", "--config", cfg, treeShellLog)
	if r := parseNDJSON(t, out); code != cmdutil.ExitOK || r.classes() != "" {
		t.Errorf("with the persistent config: exit %d, classes %q", code, r.classes())
	}
	// show counts them and warns once, naming the first call.
	sout, errs, _ := goldenCLI(t, "show", "--no-pager", treeShellLog)
	if !strings.Contains(sout, "2 generic (presenter declined)") {
		t.Errorf("show does not count declined presenters:\n%s", sout)
	}
	if strings.Count(errs, "presenter-declined") != 1 || !strings.Contains(errs, "dsh-replay: warning: "+treeShellLog+":6: presenter-declined: ") ||
		!strings.Contains(errs, "and 1 more bash calls") {
		t.Errorf("show warning: %q", errs)
	}
}

func TestVerdictSaysWhatWasChecked(t *testing.T) {
	t.Parallel()
	out, _, _ := verifyCLI(t, "", "--deterministic", treeShellLog)
	if !strings.Contains(out, "2 verified (0 checked with values, 2 by presenters only)") {
		t.Errorf("verdict:\n%s", out)
	}
	if !strings.Contains(out, "note: no call carried a recorded value") {
		t.Errorf("no hint about recording values:\n%s", out)
	}
	out, _, _ = verifyCLI(t, "", "--deterministic", "../testdata/example/session.jsonl")
	if !strings.Contains(out, "7 verified (6 checked with values, 1 by presenters only)") || strings.Contains(out, "note: no call") {
		t.Errorf("verdict with values:\n%s", out)
	}
}

// junitDoc is the part of the JUnit report the totals test reads.
type junitDoc struct {
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Time     string `xml:"time,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Time     string `xml:"time,attr"`
		Cases    []struct {
			Name    string    `xml:"name,attr"`
			File    string    `xml:"file,attr"`
			Line    string    `xml:"line,attr"`
			Failure *struct{} `xml:"failure"`
			Error   *struct{} `xml:"error"`
			Skipped *struct{} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestJUnitTotalsAndPlaces(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{verifyData + "/mutated"},
		{treeData},
	} {
		out, _, _ := verifyCLI(t, "", append([]string{"--format", "junit"}, args...)...)
		var doc junitDoc
		if err := xml.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		var sum [4]int
		for _, s := range doc.Suites {
			var n [4]int
			for _, c := range s.Cases {
				n[0]++
				switch {
				case c.Error != nil:
					n[2]++
				case c.Failure != nil:
					n[1]++
				case c.Skipped != nil:
					n[3]++
				}
				if c.File == "" {
					t.Errorf("%s: testcase %s has no file", s.Name, c.Name)
				}
				if c.Name != "log" || c.Line != "" {
					if l, err := strconv.Atoi(c.Line); err != nil || l < 1 {
						t.Errorf("%s: testcase %s has line %q", s.Name, c.Name, c.Line)
					}
				}
			}
			if n != [4]int{s.Tests, s.Failures, s.Errors, s.Skipped} {
				t.Errorf("suite %s counts %v, its cases %v", s.Name, []int{s.Tests, s.Failures, s.Errors, s.Skipped}, n)
			}
			if s.Time == "" {
				t.Errorf("suite %s has no time", s.Name)
			}
			for i := range sum {
				sum[i] += n[i]
			}
		}
		if sum != [4]int{doc.Tests, doc.Failures, doc.Errors, doc.Skipped} || doc.Time == "" || doc.Tests == 0 {
			t.Errorf("%v: <testsuites> totals %v time %q, suites add up to %v", args, []int{doc.Tests, doc.Failures, doc.Errors, doc.Skipped}, doc.Time, sum)
		}
	}
}

// TestJUnitSchema validates reports against the Jenkins JUnit schema (see
// testdata/junit/README.md) with xmllint; it skips when xmllint is absent.
func TestJUnitSchema(t *testing.T) {
	t.Parallel()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed (Debian: apt-get install libxml2-utils)")
	}
	dir := t.TempDir()
	strip := regexp.MustCompile(` (file|line)="[^"]*"`)
	stripTotals := regexp.MustCompile(`(<testsuites[^>]*) skipped="[^"]*"`)
	for i, args := range [][]string{
		{verifyData + "/mutated"},
		{verifyData + "/clean"},
		{treeData},
		{"--strict", treeData},
	} {
		out, _, _ := verifyCLI(t, "", append([]string{"--format", "junit"}, args...)...)
		report := filepath.Join(dir, strconv.Itoa(i)+".xml")
		os.WriteFile(report, []byte(out), 0o644)
		validate := func(xsd, file string) {
			cmd := exec.Command(xmllint, "--noout", "--schema", xsd, file)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%v against %s: %v\n%s", args, filepath.Base(xsd), err, b)
			}
		}
		validate("../testdata/junit/jenkins-junit-4-file-line.xsd", report)
		// Less the three attributes the published schema predates, the
		// report validates against it unchanged.
		bare := filepath.Join(dir, strconv.Itoa(i)+".bare.xml")
		os.WriteFile(bare, []byte(stripTotals.ReplaceAllString(strip.ReplaceAllString(out, ""), "$1")), 0o644)
		validate("../testdata/junit/jenkins-junit-4.xsd", bare)
	}
}

func TestGitHubSummaryLinksHTMLReport(t *testing.T) {
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	html := filepath.Join(dir, "verify.html")
	verifyCLI(t, "", "--format", "github", "--report", "html="+html, treeShellLog)
	b, _ := os.ReadFile(summary)
	if !strings.Contains(string(b), "HTML report with every card and finding: `"+html+"`") {
		t.Errorf("job summary does not link the HTML report:\n%s", b)
	}
	if _, err := os.Stat(html); err != nil {
		t.Error(err)
	}
}

func TestHTMLReportListsEveryFinding(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	html, ndjson := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.ndjson")
	verifyCLI(t, "", "--deterministic", "--report", "html="+html, "--report", "json="+ndjson, "../testdata/verify")
	page, _ := os.ReadFile(html)
	data, _ := os.ReadFile(ndjson)
	r := parseNDJSON(t, string(data))
	if got := strings.Count(string(page), `<div class="finding `); got != len(r.findings) {
		t.Errorf("%d findings in the page, %d in the NDJSON report", got, len(r.findings))
	}
	for _, f := range r.findings {
		for _, k := range []string{"class", "log", "callId", "message", "command"} {
			v, _ := f[k].(string)
			if v != "" && !strings.Contains(string(page), template.HTMLEscapeString(v)) {
				t.Errorf("the page lacks the %s %q", k, v)
			}
		}
	}
	for _, banned := range []string{"<link ", " src=", "@import", "url(http"} {
		if strings.Contains(string(page), banned) {
			t.Errorf("the page refers to something outside it: %q", banned)
		}
	}
}

// TestVerifyDirectoryWhileWalkingIt: a single directory is verified while
// it is walked (logformat.Stream); naming it twice takes the walk-first
// path (the second is a duplicate), and every report must come out the
// same either way, over the project's whole testdata: unreadable files,
// non-logs, sidecars, goldens and all.
func TestVerifyDirectoryWhileWalkingIt(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"text", "json", "junit", "github"} {
		streamed, serr, scode := verifyCLI(t, "", "--format", format, "--deterministic", "../testdata")
		listed, lerr, lcode := verifyCLI(t, "", "--format", format, "--deterministic", "../testdata", "../testdata")
		if scode != lcode || streamed != listed || serr != lerr {
			t.Errorf("--format %s: streamed (exit %d) and listed (exit %d) differ:\n%s\n%s\n---\n%s\n%s", format, scode, lcode, streamed, serr, listed, lerr)
		}
		if strings.Count(streamed, "\n") < 20 {
			t.Errorf("--format %s: only %d lines of report", format, strings.Count(streamed, "\n"))
		}
	}
	// A directory with nothing to verify is refused before anything is read.
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("x"), 0o644)
	out, errs, code := verifyCLI(t, "", empty)
	if code != cmdutil.ExitCannot || !strings.Contains(errs, "directory holds no session logs") || out != "" {
		t.Errorf("empty directory: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
