package clitest

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Runner runs a command tree as the CLI does (cmd.Run, or a command
// package's own tree) and returns the exit code.
type Runner func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Watchdog is how long one in-process run may take before the test fails
// with every goroutine's stack: a command that hangs must fail its test in
// minutes, not stall CI until the job's timeout. DSH_REPLAY_TEST_WATCHDOG
// (a Go duration) overrides it for slow machines.
func Watchdog() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("DSH_REPLAY_TEST_WATCHDOG")); err == nil && d > 0 {
		return d
	}
	return 3 * time.Minute
}

// Run runs args with stdin (nothing when nil) and returns what the command
// printed and its exit code. A run that outlives Watchdog fails the test
// with a goroutine dump (the run's goroutine is left behind: it is stuck).
func Run(t testing.TB, run Runner, stdin io.Reader, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(args, stdin, &out, &errb) }()
	timer := time.NewTimer(Watchdog())
	defer timer.Stop()
	select {
	case code = <-done:
		return out.String(), errb.String(), code
	case <-timer.C:
		t.Fatalf("dsh-replay %s did not return within %v: hung?\n%s", strings.Join(args, " "), Watchdog(), Goroutines())
		return "", "", -1
	}
}

// Goroutines is every goroutine's stack, for a watchdog's failure message.
func Goroutines() string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// NoCI unsets CI for the test: golden writes refuse when it is set, and a
// CI job runs these tests too.
func NoCI(t *testing.T) {
	if _, ok := os.LookupEnv("CI"); ok {
		t.Setenv("CI", "")
	}
}
