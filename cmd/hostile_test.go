package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/clitest"
)

const exampleLog = "../testdata/example/session.jsonl"

// runBounded runs the CLI in-process and fails the test when it does not
// return: a hang detector, not a speed threshold.
func runBounded(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	type result struct {
		stdout, stderr string
		code           int
	}
	ch := make(chan result, 1)
	go func() {
		var r result
		r.stdout, r.stderr, r.code = clitest.Run(t, Run, nil, args...)
		ch <- r
	}()
	select {
	case r := <-ch:
		return r.stdout, r.stderr, r.code
	case <-time.After(30 * time.Second):
		t.Fatalf("%v did not return (it blocks)", args)
	}
	return "", "", 0
}

func copyExample(t *testing.T, dst string) {
	t.Helper()
	data, err := os.ReadFile(exampleLog)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A FIFO named *.jsonl inside a walked directory is skipped with a notice
// and never opened (opening it would block every command for good); the
// regular log beside it is read.
func TestFIFOInWalkedDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyExample(t, filepath.Join(dir, "a.jsonl"))
	fifo := filepath.Join(dir, "b.jsonl")
	mkfifo(t, fifo)
	notice := fifo + ": not-a-session-log: a named pipe (FIFO), not a regular file (not opened)"
	for _, c := range []struct {
		args []string
		code int
		out  string // on stdout
		err  string // on stderr
	}{
		{[]string{"verify", dir}, 0, "skip " + fifo + " (not a session log", ""},
		{[]string{"verify", "--format", "json", dir}, 0, `"class":"not-a-session-log"`, ""},
		{[]string{"verify", "--strict", dir}, 1, "7 verified", ""},
		{[]string{"show", "--no-pager", "--compact", dir}, 0, "7 calls shown", notice},
		{[]string{"calls", dir}, 0, `"callId"`, notice},
		{[]string{"calls", "--summary", dir}, 0, "calls", notice},
		{[]string{"golden", "check", dir}, 1, "", notice},
	} {
		out, errs, code := runBounded(t, c.args...)
		if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errs, c.err) {
			t.Errorf("%v: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s\nwant stdout %q, stderr %q", c.args, code, c.code, out, errs, c.out, c.err)
		}
	}
}

// Named on the command line, a file that is not regular is refused with
// exit 3 (it cannot be verified) before anything is opened.
func TestIrregularFileNamedExplicitly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "b.jsonl")
	mkfifo(t, fifo)
	paths := map[string]string{fifo: "a named pipe (FIFO), not a regular file"}
	if st, err := os.Stat("/dev/null"); err == nil && st.Mode()&os.ModeCharDevice != 0 {
		paths["/dev/null"] = "a character device, not a regular file"
	}
	for p, msg := range paths {
		for _, cmd := range []string{"verify", "show", "calls"} {
			_, errs, code := runBounded(t, cmd, p)
			if code != cmdutil.ExitCannot || !strings.Contains(errs, p+": "+msg) || !strings.Contains(errs, "pass -") {
				t.Errorf("%s %s: exit %d, stderr:\n%s", cmd, p, code, errs)
			}
		}
	}
}

// --config is bounded on every command that takes it: /dev/zero is a
// usage error (exit 2), not gigabytes of memory.
func TestConfigFromAnEndlessFile(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	for _, args := range [][]string{
		{"verify", "--config", "/dev/zero", exampleLog},
		{"show", "--no-pager", "--config", "/dev/zero", exampleLog},
		{"tools", "--config", "/dev/zero"},
		{"tools", "schema", "read", "--config", "/dev/zero"},
		{"golden", "check", "--config", "/dev/zero", exampleLog},
	} {
		_, errs, code := runBounded(t, args...)
		if code != cmdutil.ExitUsage || !strings.Contains(errs, "--config: /dev/zero: larger than 1 MiB: not a configuration") {
			t.Errorf("%v: exit %d\n%s", args, code, errs)
		}
	}
}

// --jobs below zero is a usage error on both commands that take it.
func TestNegativeJobs(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"verify", "calls"} {
		_, errs, code := runBounded(t, cmd, "--jobs", "-5", exampleLog)
		if code != cmdutil.ExitUsage || !strings.Contains(errs, "--jobs must be >= 0") {
			t.Errorf("%s --jobs -5: exit %d\n%s", cmd, code, errs)
		}
	}
}

// runAsUser runs the CLI where permissions hold: in-process for a normal
// user; as root (whom chmod 000 does not stop) a copy of the test binary
// is run as nobody. ok is false when neither is possible.
func runAsUser(t *testing.T, dir string, args ...string) (code int, stdout, stderr string, ok bool) {
	t.Helper()
	if os.Geteuid() != 0 {
		stdout, stderr, code = runBounded(t, args...)
		return code, stdout, stderr, true
	}
	self, err := os.Executable()
	if err != nil {
		return 0, "", "", false
	}
	bin := filepath.Join(dir, "cli.test")
	if _, err := os.Stat(bin); err != nil {
		data, err := os.ReadFile(self)
		if err != nil || os.WriteFile(bin, data, 0o755) != nil {
			return 0, "", "", false
		}
	}
	var out, errb bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DSH_REPLAY_AS_CLI=1", "HOME="+dir)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if !asNobody(cmd) {
		return 0, "", "", false
	}
	if err := cmd.Start(); err != nil {
		t.Logf("cannot run as nobody: %v", err)
		return 0, "", "", false
	}
	ch := make(chan error, 1)
	go func() { ch <- cmd.Wait() }()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v did not return (it blocks)", args)
	}
	if cmd.ProcessState.ExitCode() < 0 {
		t.Fatalf("%v: %v\n%s", args, cmd.ProcessState, errb.String())
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String(), true
}

// An unreadable subdirectory (and an unreadable log) is one finding among
// the others: the readable log is verified, the report is written, and
// the run exits 3. The same for calls and show.
func TestUnreadableSubdirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	u := filepath.Join(dir, "u")
	copyExample(t, filepath.Join(u, "ok.jsonl"))
	copyExample(t, filepath.Join(u, "locked", "inside.jsonl"))
	copyExample(t, filepath.Join(u, "nope.jsonl"))
	os.Chmod(filepath.Dir(dir), 0o755) // t.TempDir's own parent is private
	for _, p := range []string{dir, u} {
		os.Chmod(p, 0o777) // writable by nobody, for the report
	}
	os.Chmod(filepath.Join(u, "nope.jsonl"), 0o000)
	os.Chmod(filepath.Join(u, "locked"), 0o000)
	t.Cleanup(func() { os.Chmod(filepath.Join(u, "locked"), 0o755) })

	rep := filepath.Join(dir, "r.ndjson")
	code, out, errs, ok := runAsUser(t, dir, "verify", "--deterministic", "--report", "json="+rep, u)
	if !ok {
		t.Skip("permissions cannot be tested here (root, and nobody cannot be run)")
	}
	locked, nope := filepath.Join(u, "locked"), filepath.Join(u, "nope.jsonl")
	for _, want := range []string{
		"ERR  " + locked + " (0 calls, 1 finding)",
		"fatal unreadable [log]: cannot read directory: permission denied",
		"ERR  " + nope + " (0 calls, 1 finding)",
		"fatal unreadable [log]: permission denied",
		"ok   " + filepath.Join(u, "ok.jsonl") + " (7 calls)",
		"COULD NOT VERIFY: 3 logs, 7 calls: 7 verified",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("verify output lacks %q:\n%s%s", want, out, errs)
		}
	}
	if code != cmdutil.ExitCannot {
		t.Errorf("verify: exit %d, want 3", code)
	}
	data, err := os.ReadFile(rep)
	if err != nil {
		t.Fatalf("the report was not written: %v", err)
	}
	r := parseNDJSON(t, string(data))
	if got := r.classes(); got != "unreadable,unreadable" {
		t.Errorf("report classes %s", got)
	}
	if r.summary["verified"] != float64(7) {
		t.Errorf("report summary %v", r.summary)
	}

	for _, args := range [][]string{{"calls", "--summary", u}, {"show", "--no-pager", "--compact", u}} {
		code, out, errs, _ := runAsUser(t, dir, args...)
		if code != cmdutil.ExitCannot || !strings.Contains(errs, locked+": cannot read directory: permission denied") ||
			!strings.Contains(errs, nope+": permission denied") || !strings.Contains(out, "7") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
}

// Links that lead nowhere are unreadable logs, for root too.
func TestDanglingAndLoopingLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyExample(t, filepath.Join(dir, "ok.jsonl"))
	os.Symlink("nowhere.jsonl", filepath.Join(dir, "gone.jsonl"))
	os.Symlink("loop.jsonl", filepath.Join(dir, "loop.jsonl"))
	out, _, code := runBounded(t, "verify", "--format", "json", dir)
	r := parseNDJSON(t, out)
	if code != cmdutil.ExitCannot || r.classes() != "unreadable,unreadable" || r.summary["verified"] != float64(7) {
		t.Errorf("exit %d, classes %s, summary %v", code, r.classes(), r.summary)
	}
	for _, f := range r.findings {
		if f["command"] != nil && f["command"] != "" {
			t.Errorf("an unreadable log gets a show command: %v", f)
		}
	}
}

// A value the ports refuse is a --config error (exit 2) on every command,
// like a malformed file, not "internal error" (exit 3).
func TestConfigValueRefused(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(cfg, []byte(`{"plugins":{"tool-fs-search":{"grepMaxMatches":"x"}}}`), 0o644)
	want := "dsh-replay: --config: " + cfg + ": tool-fs-search: grepMaxMatches must be a positive integer\n"
	for _, args := range [][]string{
		{"verify", "--config", cfg, exampleLog},
		{"show", "--no-pager", "--config", cfg, exampleLog},
		{"tools", "--config", cfg},
		{"golden", "check", "--config", cfg, exampleLog},
	} {
		_, errs, code := runBounded(t, args...)
		if code != cmdutil.ExitUsage || errs != want {
			t.Errorf("%v: exit %d, stderr %q (want 2, %q)", args, code, errs, want)
		}
	}
}

// A log without read permission named on the command line is unreadable,
// not log-corrupt.
func TestPermissionDeniedIsUnreadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(dir, 0o755)
	p := filepath.Join(dir, "nope.jsonl")
	copyExample(t, p)
	os.Chmod(p, 0o000)
	code, out, errs, ok := runAsUser(t, dir, "verify", "--format", "json", p)
	if !ok {
		t.Skip("permissions cannot be tested here (root, and nobody cannot be run)")
	}
	r := parseNDJSON(t, out)
	if code != cmdutil.ExitCannot || r.classes() != "unreadable" || r.findings[0]["message"] != "permission denied" {
		t.Errorf("exit %d, %v\n%s", code, r.findings, errs)
	}
}

// rawControl reports the first byte a terminal would act on (anything
// below space but the line ends, DEL, invalid UTF-8, C1 controls).
func rawControl(s string) (int, bool) {
	for i, r := range s {
		if r == utf8.RuneError || r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			if r == utf8.RuneError && strings.HasPrefix(s[i:], "\uFFFD") {
				continue
			}
			return i, true
		}
	}
	return 0, false
}

// File names with newlines and escape sequences reach the terminal
// quoted (as Go's %q does) in text output and on stderr, and shell
// commands carry them as $'...'.
func TestOddFileNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	red := filepath.Join(dir, "x\n\x1b[31mRED.jsonl")
	copyExample(t, red)
	title := filepath.Join(dir, "y\x1b]0;T\a.jsonl")
	os.WriteFile(title, []byte(`{"type":"session","version":0,"id":"s","createdAt":0}`+"\n{broken\n"), 0o644)
	gone := filepath.Join(dir, "z\x1b[2J.jsonl")
	os.Symlink("nowhere", gone)
	for _, args := range [][]string{
		{"verify", dir},
		{"verify", "--format", "github", dir},
		{"show", "--no-pager", "--compact", dir},
		{"calls", "--summary", dir},
		{"golden", "check", dir},
		{"golden", "update", dir},
		{"golden", "check", dir},
		{"verify", red + "-missing"},
		{"show", "--no-pager", "--call", "nope", red},
	} {
		out, errs, _ := runBounded(t, args...)
		for _, s := range []struct{ name, text string }{{"stdout", out}, {"stderr", errs}} {
			if i, bad := rawControl(s.text); bad {
				t.Errorf("%q: %s has a raw control at %d: %q", args, s.name, i, s.text[max(0, i-30):min(len(s.text), i+30)])
			}
		}
	}
	out, errs, _ := runBounded(t, "verify", dir)
	for _, want := range []string{
		`ok   "` + dir + `/x\n\x1b[31mRED.jsonl" (7 calls`,
		`  "` + dir + `/y\x1b]0;T\a.jsonl":2 (log)`,
		`→ see the log: dsh-replay show $'` + dir + `/y\x1b]0;T\x07.jsonl'`,
		`ERR  "` + dir + `/z\x1b[2J.jsonl" (0 calls`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("verify output lacks %s:\n%s", want, out)
		}
	}
	_, errs, _ = runBounded(t, "calls", "--summary", dir)
	for _, want := range []string{
		`dsh-replay: warning: "` + dir + `/y\x1b]0;T\a.jsonl":2: torn-tail: `,
		`dsh-replay: "` + dir + `/z\x1b[2J.jsonl": cannot follow link: no such file or directory`,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("calls stderr lacks %s:\n%s", want, errs)
		}
	}
}

// A lone surrogate in recorded content comes out of verify's text report
// as U+FFFD, as show prints it, never as the bytes ED A0 80.
func TestLoneSurrogateInTextReport(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(exampleLog)
	if err != nil {
		t.Fatal(err)
	}
	log := strings.Replace(string(data), `retryLimit: 3,\n3:`, `retryLimit: \ud800,\n3:`, 1)
	if log == string(data) {
		t.Fatal("the example log changed: no content to alter")
	}
	p := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(p, []byte(log), 0o644)
	out, errs, code := runBounded(t, "verify", p)
	if code != cmdutil.ExitDivergence || !strings.Contains(out, "- 2:   retryLimit: \uFFFD,") || !utf8.ValidString(out) {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	if i, bad := rawControl(out); bad {
		t.Errorf("raw control at %d: %q", i, out[max(0, i-30):min(len(out), i+30)])
	}
}

// Three unreadable logs cluster as "3 logs", not "3 calls"; a torn tail in
// a log without a turn/end does not claim one.
func TestMessagesSayWhatTheyCount(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyExample(t, filepath.Join(dir, "ok.jsonl"))
	for _, n := range []string{"a", "b", "c"} {
		os.Symlink("nowhere", filepath.Join(dir, n+".jsonl"))
	}
	os.WriteFile(filepath.Join(dir, "torn.jsonl"), []byte(`{"type":"session","version":0,"id":"s","createdAt":0}`+"\n{broken\n"), 0o644)
	out, _, _ := runBounded(t, "verify", "--deterministic", dir)
	for _, want := range []string{
		"\n3 logs, 1 cause: unreadable · log\n",
		"torn tail (no turn/end before it): unparsable record",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// A FIFO where a card golden would be is refused, not read: golden check
// and update return.
func TestFIFOCardGolden(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyExample(t, filepath.Join(dir, "a.jsonl"))
	mkfifo(t, filepath.Join(dir, "a.cards.txt"))
	if out, errs, code := runBounded(t, "golden", "check", dir); code == 0 {
		t.Errorf("golden check: exit 0 with a FIFO for a golden:\n%s%s", out, errs)
	}
	// update writes a golden in its place (atomically, by rename).
	if out, errs, code := runBounded(t, "golden", "update", "--dry-run", dir); code != 0 || !strings.Contains(out, "a.cards.txt") {
		t.Errorf("golden update --dry-run: exit %d:\n%s%s", code, out, errs)
	}
}
