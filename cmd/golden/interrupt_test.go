package golden

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/atomicwrite"
	"github.com/dsh-replay/dsh-replay/internal/benchgen"
)

// Signals during golden update: whatever moment SIGINT or SIGTERM lands,
// the process exits 130 or 143, no temporary file is left, and every file
// is as it was before the run or as the run makes it.

// interruptTree is a tree whose update makes writes of every kind, one of
// them large: the drift logs in some directories and a generated log of
// about mb MiB.
func interruptTree(t *testing.T, copies, mb int) string {
	t.Helper()
	root := t.TempDir()
	for i := range copies {
		if err := os.CopyFS(filepath.Join(root, fmt.Sprint("d", i)), os.DirFS(goldenData("drift"))); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(root, "big"), 0o755)
	f, err := os.Create(filepath.Join(root, "big", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := benchgen.Generate(f, benchgen.Options{Bytes: int64(mb) << 20, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return root
}

// cloneTree copies a tree into a fresh directory.
func cloneTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "tree")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// updated runs update on a copy of tree in-process: the tree after, and the
// number of files it wrote.
func updated(t *testing.T, tree string, flags ...string) (map[string][]byte, int) {
	t.Helper()
	dir := cloneTree(t, tree)
	out, errs, code := goldenCLI(t, append(append([]string{"golden", "update"}, flags...), dir)...)
	if code != cmdutil.ExitOK {
		t.Fatalf("update: exit %d\n%s%s", code, out, errs)
	}
	return snapshot(t, dir), writeLines(out)
}

// writeLines counts the files an update's output says it wrote.
func writeLines(out string) int {
	n := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "wrote ") || strings.HasPrefix(l, "updated ") || strings.HasPrefix(l, "pending ") {
			n++
		}
	}
	return n
}

type child struct {
	cmd    *exec.Cmd
	stdout io.ReadCloser
	stderr *bufio.Reader
}

func startUpdate(t *testing.T, dir string, env []string, flags ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], append(append([]string{"golden", "update"}, flags...), dir)...)
	cmd.Env = append(append(os.Environ(), asCLIEnv+"=1", "CI="), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &child{cmd: cmd, stdout: out, stderr: bufio.NewReader(errPipe)}
}

// within runs f, failing the test if it has not returned in a minute (a
// hang guard, not a measurement).
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s: no progress in a minute", what)
	}
}

// checkAfterSignal asserts what a signalled update leaves: no temporary
// file, every file old or new, at least wrote files new.
func checkAfterSignal(t *testing.T, what, dir string, before, after map[string][]byte) (newFiles int) {
	t.Helper()
	for name, data := range snapshot(t, dir) {
		switch {
		case strings.HasPrefix(filepath.Base(name), atomicwrite.TempPrefix):
			t.Errorf("%s: temporary file %s left behind", what, name)
		case before[name] != nil && bytes.Equal(data, before[name]):
		case after[name] != nil && bytes.Equal(data, after[name]):
			newFiles++
		default:
			t.Errorf("%s: %s is neither as before nor as after the update", what, name)
		}
	}
	return newFiles
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	ee, ok := err.(*exec.ExitError)
	if !ok {
		t.Fatalf("wait: %v", err)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -int(ws.Signal())
	}
	return ee.ExitCode()
}

// TestUpdateSignalMidWrite stops each write of an update half way through
// its temporary file (the pause hook) and signals the process there.
func TestUpdateSignalMidWrite(t *testing.T) {
	tree := interruptTree(t, 1, 1)
	before := snapshot(t, tree)
	for _, mode := range []string{"--no-review", "--review"} {
		after, writes := updated(t, tree, mode)
		if writes < 9 {
			t.Fatalf("%s: only %d writes", mode, writes)
		}
		for n := 1; n <= writes; n++ {
			if mode == "--review" && n > 3 && n < writes {
				continue // pending files are written like the others: first and last suffice
			}
			for _, sig := range []syscall.Signal{[]syscall.Signal{syscall.SIGINT, syscall.SIGTERM}[n%2]} {
				what := fmt.Sprintf("%s, %v at write %d", mode, sig, n)
				dir := cloneTree(t, tree)
				c := startUpdate(t, dir, []string{atomicwrite.PauseHookEnv + "=" + fmt.Sprint(n)}, mode)
				var line string
				within(t, what, func() {
					for {
						l, err := c.stderr.ReadString('\n')
						if err != nil || strings.HasPrefix(l, atomicwrite.PauseMarker) {
							line = l
							return
						}
					}
				})
				tmp := strings.TrimSpace(strings.TrimPrefix(line, atomicwrite.PauseMarker))
				if !strings.HasPrefix(filepath.Base(tmp), atomicwrite.TempPrefix) || !fileExists(tmp) {
					t.Fatalf("%s: paused without its temporary file (%q)", what, line)
				}
				c.cmd.Process.Signal(sig)
				var rest []byte
				var out []byte
				within(t, what, func() {
					out, _ = io.ReadAll(c.stdout)
					rest, _ = io.ReadAll(c.stderr)
				})
				code := exitCode(t, c.cmd.Wait())
				if want := 128 + int(sig); code != want {
					t.Errorf("%s: exit %d, want %d\n%s", what, code, want, rest)
				}
				if !strings.Contains(string(rest), "interrupted ("+sig.String()+"): the file being written was left as it was") {
					t.Errorf("%s: stderr %q", what, rest)
				}
				if got := checkAfterSignal(t, what, dir, before, after); got != n-1 || writeLines(string(out)) != n-1 {
					t.Errorf("%s: %d files new, %d said written; want the %d writes before the signal", what, got, writeLines(string(out)), n-1)
				}
			}
		}
	}
}

// TestUpdateSignalAnyMoment signals a running update at moments spread
// over its run: after its k-th line of output, at once or a little later.
func TestUpdateSignalAnyMoment(t *testing.T) {
	tree := interruptTree(t, 2, 2)
	before := snapshot(t, tree)
	after, writes := updated(t, tree, "--no-review")
	delays := []time.Duration{0, 50 * time.Microsecond, 500 * time.Microsecond, 3 * time.Millisecond}
	i := 0
	for k := 1; k < writes; k += 3 {
		i++
		sig := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}[i%2]
		d := delays[i%len(delays)]
		what := fmt.Sprintf("%v after line %d + %v", sig, k, d)
		dir := cloneTree(t, tree)
		c := startUpdate(t, dir, nil, "--no-review")
		r := bufio.NewReader(c.stdout)
		within(t, what, func() {
			for range k {
				if _, err := r.ReadString('\n'); err != nil {
					return
				}
			}
		})
		time.Sleep(d)
		c.cmd.Process.Signal(sig)
		within(t, what, func() { io.ReadAll(r); io.ReadAll(c.stderr) })
		code := exitCode(t, c.cmd.Wait())
		newFiles := checkAfterSignal(t, what, dir, before, after)
		switch {
		case code == 0 && newFiles == writes:
			// The update ended before the signal came.
		case code != 128+int(sig):
			t.Errorf("%s: exit %d, want %d", what, code, 128+int(sig))
		case newFiles < k:
			t.Errorf("%s: %d files new, but %d were said written", what, newFiles, k)
		}
	}
}

// TestUpdateSweepsKilledWrites: a write killed outright (SIGKILL) leaves its
// temporary file; check names it and the next update removes it.
func TestUpdateSweepsKilledWrites(t *testing.T) {
	dir := copyTree(t, goldenData("drift"))
	c := startUpdate(t, dir, []string{atomicwrite.PauseHookEnv + "=2"}, "--no-review")
	within(t, "pause", func() {
		for {
			l, err := c.stderr.ReadString('\n')
			if err != nil || strings.HasPrefix(l, atomicwrite.PauseMarker) {
				return
			}
		}
	})
	c.cmd.Process.Kill()
	c.cmd.Wait()
	var left []string
	for name := range snapshot(t, dir) {
		if strings.HasPrefix(filepath.Base(name), atomicwrite.TempPrefix) {
			left = append(left, name)
		}
	}
	if len(left) != 1 {
		t.Fatalf("want the killed write's temporary file, have %v", left)
	}
	out, _, code := goldenCLI(t, "golden", "check", dir)
	if code != cmdutil.ExitDivergence || !strings.Contains(out, "LEFTOVER "+filepath.Join(dir, left[0])) {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	out, errs, code := goldenCLI(t, "golden", "update", "--no-review", dir)
	if code != cmdutil.ExitOK || !strings.Contains(out, "removed "+filepath.Join(dir, left[0])+" (left by an interrupted write)") {
		t.Errorf("update: exit %d\n%s%s", code, out, errs)
	}
	if out, _, code := goldenCLI(t, "golden", "check", dir); code != cmdutil.ExitOK {
		t.Errorf("check after the sweep: exit %d\n%s", code, out)
	}
}
