package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// The binaries as make build makes them, built once for the package's
// tests into one directory: dsh-replay (-tags slim) beside dsh-replay-full.
var built struct {
	once       sync.Once
	dir        string
	slim, full string
	err        error
	out        []byte
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

func goBinary() string {
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		return "go"
	}
	return gobin
}

// buildPair returns the slim and the full binary's paths.
func buildPair(t *testing.T) (slim, full string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "dsh-replay-build"); built.err != nil {
			return
		}
		built.slim = filepath.Join(built.dir, "dsh-replay")
		built.full = filepath.Join(built.dir, "dsh-replay-full")
		for _, b := range [][]string{{"-tags", "slim", "-o", built.slim}, {"-o", built.full}} {
			cmd := exec.Command(goBinary(), append(append([]string{"build"}, b...), ".")...)
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as the Makefile builds them
			if built.out, built.err = cmd.CombinedOutput(); built.err != nil {
				return
			}
		}
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.slim, built.full
}

// TestSlimLeavesOut: what the slim build exists to leave out is not linked
// into it, and is into the full build (so the check can fail).
func TestSlimLeavesOut(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the builds' packages")
	}
	deps := func(tags ...string) map[string]bool {
		out, err := exec.Command(goBinary(), append(append([]string{"list", "-deps"}, tags...), ".")...).Output()
		if err != nil {
			t.Fatalf("go list %v: %v", tags, err)
		}
		m := map[string]bool{}
		for _, p := range strings.Fields(string(out)) {
			m[p] = true
		}
		return m
	}
	slim, full := deps("-tags", "slim"), deps()
	for _, p := range []string{
		"github.com/dop251/goja",
		"github.com/evanw/esbuild/pkg/api",
		"github.com/charmbracelet/bubbletea",
		"github.com/kaptinlin/jsonschema",
		"net/http",
	} {
		if slim[p] {
			t.Errorf("the slim build links %s", p)
		}
		if !full[p] {
			t.Errorf("the full build does not link %s: is this list stale?", p)
		}
	}
}

type run struct {
	stdout, stderr string
	code           int
}

func runBin(t *testing.T, bin, stdin string, env []string, args ...string) run {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1", "CI="), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", filepath.Base(bin), args, err)
	}
	return run{timeless(out.String()), timeless(errs.String()), code}
}

// timeless blanks the durations a report prints.
func timeless(s string) string {
	return durationRE.ReplaceAllString(s, "<t>")
}

var durationRE = regexp.MustCompile(`"durationMs":[0-9]+|\b[0-9]+(\.[0-9]+)?(µs|ms|s)\b`)

// TestSlimHandsOver: a slim run that needs the full build hands itself over
// before it reads or writes anything, so its output, exit code and standard
// input are the full build's own; runs that need nothing more stay slim.
func TestSlimHandsOver(t *testing.T) {
	slim, full := buildPair(t)
	todoLog, err := os.ReadFile("testdata/plugins/logs/todo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		stdin    string
		args     []string
		handOver bool
		want     string // in stdout
	}{
		{"verify", "", []string{"verify", "testdata/example/session.jsonl"}, false, "OK: 1 log, 7 calls"},
		{"tools", "", []string{"tools"}, false, "bash                  tool-bash"},
		{"verify --plugin", "", []string{"verify", "--plugin", "testdata/plugins/todo", "testdata/plugins/logs/todo.jsonl"}, true, "plugin tool: word_count from plugin tool-todo-example"},
		{"verify --plugin of stdin", string(todoLog), []string{"verify", "--plugin=testdata/plugins/todo", "-"}, true, "OK: 1 log, 4 calls"},
		{"failing verify --plugin", "", []string{"verify", "--plugin", "testdata/plugins/throws", "testdata/plugins/logs/throws.jsonl"}, true, "render-failed"},
		{"tools --plugin", "", []string{"tools", "--plugin", "testdata/plugins/todo.mjs"}, true, "word_count"},
		{"show --plugin", "", []string{"show", "--no-pager", "--width", "80", "--plugin", "testdata/plugins/todo", "testdata/plugins/logs/todo.jsonl"}, true, "todo_write"},
		{"verify --kaptinlin", "", []string{"verify", "--kaptinlin", "--format", "json", "testdata/example/session.jsonl"}, true, `"verified":7`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := runBin(t, slim, c.stdin, nil, c.args...)
			want := runBin(t, full, c.stdin, nil, c.args...)
			if got != want {
				t.Fatalf("slim and full differ:\nslim: exit %d\n%s%s\nfull: exit %d\n%s%s", got.code, got.stdout, got.stderr, want.code, want.stdout, want.stderr)
			}
			if !strings.Contains(got.stdout, c.want) {
				t.Errorf("stdout lacks %q:\n%s%s", c.want, got.stdout, got.stderr)
			}
			// Alone, the slim binary says what it needed, or does the run
			// itself.
			alone := filepath.Join(t.TempDir(), "dsh-replay")
			copyFile(t, slim, alone)
			r := runBin(t, alone, c.stdin, nil, c.args...)
			if c.handOver {
				if r.code != 3 || r.stdout != "" || !strings.Contains(r.stderr, "needs the full build, "+filepath.Join(filepath.Dir(alone), "dsh-replay-full")+": not found (make build and make install put it beside dsh-replay)") {
					t.Errorf("without the full build: exit %d\n%s%s", r.code, r.stdout, r.stderr)
				}
			} else if r != want {
				t.Errorf("without the full build: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestSlimRefusesSlimFull: a dsh-replay-full that is itself slim fails with
// an error instead of handing over to itself forever.
func TestSlimRefusesSlimFull(t *testing.T) {
	slim, _ := buildPair(t)
	dir := t.TempDir()
	copyFile(t, slim, filepath.Join(dir, "dsh-replay"))
	copyFile(t, slim, filepath.Join(dir, "dsh-replay-full"))
	r := runBin(t, filepath.Join(dir, "dsh-replay"), "", nil, "tools", "--plugin", "testdata/plugins/todo")
	if r.code != 3 || !strings.Contains(r.stderr, "--plugin needs the full build, but this binary was started as dsh-replay-full and is the slim one") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestSlimReviewOnTerminal: golden review on a terminal runs the full
// build's interactive reviewer; without a terminal the slim build prints
// the pending diffs itself.
func TestSlimReviewOnTerminal(t *testing.T) {
	slim, _ := buildPair(t)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/golden/drift")); err != nil {
		t.Fatal(err)
	}
	if r := runBin(t, slim, "", nil, "golden", "update", "--review", dir); r.code != 0 {
		t.Fatalf("update --review: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runBin(t, slim, "", nil, "golden", "review", dir); r.code != 1 || !strings.Contains(r.stdout, "13 pending changes") {
		t.Fatalf("review without a terminal: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	cmd := exec.Command(slim, "golden", "review", dir)
	cmd.Env = append(os.Environ(), "CI=", "TERM=xterm-256color")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer tty.Close()
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		answered := 0
		for {
			n, err := tty.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			// Answer the colour probe's cursor-position queries as a
			// terminal without OSC replies does.
			queries := bytes.Count(screen.Bytes(), []byte("\x1b[6n"))
			mu.Unlock()
			for ; answered < queries; answered++ {
				tty.Write([]byte("\x1b[1;1R"))
			}
			if err != nil {
				return
			}
		}
	}()
	waitFor := func(want string) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			mu.Lock()
			ok := strings.Contains(screen.String(), want)
			mu.Unlock()
			if ok {
				return
			}
		}
		mu.Lock()
		defer mu.Unlock()
		cmd.Process.Kill()
		t.Fatalf("no %q on the terminal:\n%q", want, screen.String())
	}
	waitFor("golden review 1/13")
	tty.Write([]byte("a"))
	waitFor("accepted 1")
	tty.Write([]byte("q"))
	waitFor("golden review: 1 accepted, 0 rejected, 0 skipped; 12 still pending")
	if err := cmd.Wait(); err != nil {
		t.Errorf("review: %v", err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
