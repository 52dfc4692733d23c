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

// The binary as make build makes it, built once for the package's tests.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  []byte
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

// buildBinary returns the binary's path.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "dsh-replay-build"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "dsh-replay")
		cmd := exec.Command(goBinary(), "build", "-o", built.bin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as the Makefile builds it
		built.out, built.err = cmd.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

// TestOneBinary: every install path (make build, make install, go install,
// a release archive) builds the same package graph, the plugin engine,
// the interactive reviewer and kaptinlin included; no build tag selects
// another.
func TestOneBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the build's packages")
	}
	deps := func(args ...string) string {
		out, err := exec.Command(goBinary(), append(append([]string{"list", "-deps"}, args...), ".")...).Output()
		if err != nil {
			t.Fatalf("go list %v: %v", args, err)
		}
		return string(out)
	}
	all := deps()
	for _, p := range []string{
		"github.com/dop251/goja",
		"github.com/evanw/esbuild/pkg/api",
		"github.com/charmbracelet/bubbletea",
		"github.com/kaptinlin/jsonschema",
	} {
		if !strings.Contains(all, p+"\n") {
			t.Errorf("the binary does not link %s", p)
		}
	}
	// The old slim tag, or any like it, changes nothing.
	if got := deps("-tags", "slim"); got != all {
		t.Error("-tags slim builds another package graph")
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

// TestBinaryAlone: the binary, alone in a directory, runs every command
// the README shows, plugins, kaptinlin and the reviewer included (nothing
// is looked for beside it).
func TestBinaryAlone(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "dsh-replay")
	copyFile(t, buildBinary(t), bin)
	todoLog, err := os.ReadFile("testdata/plugins/logs/todo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string // in stdout
	}{
		{"verify", "", []string{"verify", "testdata/example/session.jsonl"}, 0, "OK: 1 log, 7 calls"},
		{"tools", "", []string{"tools"}, 0, "bash                  tool-bash"},
		{"verify --plugin", "", []string{"verify", "--plugin", "testdata/plugins/todo", "testdata/plugins/logs/todo.jsonl"}, 0, "plugin tool: word_count from plugin tool-todo-example"},
		{"verify --plugin of stdin", string(todoLog), []string{"verify", "--plugin=testdata/plugins/todo", "-"}, 0, "OK: 1 log, 4 calls"},
		{"failing verify --plugin", "", []string{"verify", "--plugin", "testdata/plugins/throws", "testdata/plugins/logs/throws.jsonl"}, 1, "render-failed"},
		{"tools --plugin", "", []string{"tools", "--plugin", "testdata/plugins/todo.mjs"}, 0, "word_count"},
		{"show --plugin", "", []string{"show", "--no-pager", "--width", "80", "--plugin", "testdata/plugins/todo", "testdata/plugins/logs/todo.jsonl"}, 0, "todo_write"},
		{"verify --kaptinlin", "", []string{"verify", "--kaptinlin", "--format", "json", "testdata/example/session.jsonl"}, 0, `"verified":7`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runBin(t, bin, c.stdin, nil, c.args...)
			if r.code != c.code || !strings.Contains(r.stdout, c.want) {
				t.Errorf("exit %d (want %d), stdout lacks %q?\n%s%s", r.code, c.code, c.want, r.stdout, r.stderr)
			}
		})
	}
}

// TestReviewOnTerminal: golden review on a terminal runs the interactive
// reviewer; without a terminal it prints the pending diffs.
func TestReviewOnTerminal(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/golden/drift")); err != nil {
		t.Fatal(err)
	}
	if r := runBin(t, bin, "", nil, "golden", "update", "--review", dir); r.code != 0 {
		t.Fatalf("update --review: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runBin(t, bin, "", nil, "golden", "review", dir); r.code != 1 || !strings.Contains(r.stdout, "13 pending changes") {
		t.Fatalf("review without a terminal: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	cmd := exec.Command(bin, "golden", "review", dir)
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
