package clitest

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// Runner runs a command tree as the CLI does (cmd.Run, or a command
// package's own tree) and returns the exit code.
type Runner func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Run runs args with stdin (nothing when nil) and returns what the command
// printed and its exit code.
func Run(t testing.TB, run Runner, stdin io.Reader, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errb bytes.Buffer
	code = run(args, stdin, &out, &errb)
	return out.String(), errb.String(), code
}

// NoCI unsets CI for the test: golden writes refuse when it is set, and a
// CI job runs these tests too.
func NoCI(t *testing.T) {
	if _, ok := os.LookupEnv("CI"); ok {
		t.Setenv("CI", "")
	}
}
