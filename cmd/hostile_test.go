package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

const exampleLog = "../testdata/example/session.jsonl"

// runBounded runs the CLI in-process and fails the test when it does not
// return: a hang detector, not a speed threshold.
func runBounded(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	ch := make(chan int, 1)
	go func() { ch <- Run(args, strings.NewReader(""), &out, &errb) }()
	select {
	case code = <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("%v did not return (it blocks)", args)
	}
	return code, out.String(), errb.String()
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

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
}

// A FIFO named *.jsonl inside a walked directory is skipped with a notice
// and never opened (opening it would block every command for good); the
// regular log beside it is read.
func TestFIFOInWalkedDirectory(t *testing.T) {
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
		code, out, errs := runBounded(t, c.args...)
		if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errs, c.err) {
			t.Errorf("%v: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s\nwant stdout %q, stderr %q", c.args, code, c.code, out, errs, c.out, c.err)
		}
	}
}

// Named on the command line, a file that is not regular is refused with
// exit 3 (it cannot be verified) before anything is opened.
func TestIrregularFileNamedExplicitly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "b.jsonl")
	mkfifo(t, fifo)
	paths := map[string]string{fifo: "a named pipe (FIFO), not a regular file"}
	if st, err := os.Stat("/dev/null"); err == nil && st.Mode()&os.ModeCharDevice != 0 {
		paths["/dev/null"] = "a character device, not a regular file"
	}
	for p, msg := range paths {
		for _, cmd := range []string{"verify", "show", "calls"} {
			code, _, errs := runBounded(t, cmd, p)
			if code != cmdutil.ExitCannot || !strings.Contains(errs, p+": "+msg) || !strings.Contains(errs, "pass -") {
				t.Errorf("%s %s: exit %d, stderr:\n%s", cmd, p, code, errs)
			}
		}
	}
}

// --config is bounded on every command that takes it: /dev/zero is a
// usage error (exit 2), not gigabytes of memory.
func TestConfigFromAnEndlessFile(t *testing.T) {
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
		code, _, errs := runBounded(t, args...)
		if code != cmdutil.ExitUsage || !strings.Contains(errs, "--config: /dev/zero: larger than 1 MiB: not a configuration") {
			t.Errorf("%v: exit %d\n%s", args, code, errs)
		}
	}
}

// --jobs below zero is a usage error on both commands that take it.
func TestNegativeJobs(t *testing.T) {
	for _, cmd := range []string{"verify", "calls"} {
		code, _, errs := runBounded(t, cmd, "--jobs", "-5", exampleLog)
		if code != cmdutil.ExitUsage || !strings.Contains(errs, "--jobs must be >= 0") {
			t.Errorf("%s --jobs -5: exit %d\n%s", cmd, code, errs)
		}
	}
}
