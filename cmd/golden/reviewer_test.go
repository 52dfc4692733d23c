package golden

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/creack/pty"
	"github.com/muesli/termenv"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/atomicwrite"
	"github.com/dsh-replay/dsh-replay/internal/goldenfile"
)

// TestReviewerScreens drives the reviewer key by key; each screen is a
// golden at width 100, height 30, without colour.
func TestReviewerScreens(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	root := t.TempDir()
	dir := copyTree(t, goldenData("drift"))
	os.Rename(dir, filepath.Join(root, "drift"))
	t.Chdir(root)
	if _, _, code := goldenCLI(t, "golden", "update", "--review", "drift"); code != cmdutil.ExitOK {
		t.Fatal("update --review")
	}
	g := &goldenRun{o: &goldenOptions{maxLines: 200}, stdout: io.Discard, stderr: io.Discard}
	_, revs, err := g.pendingReviews([]string{"drift"})
	if err != nil {
		t.Fatal(err)
	}
	var m tea.Model = newReviewer(g, revs)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	keyMsg := func(k string) tea.Msg {
		switch k {
		case "tab":
			return tea.KeyMsg{Type: tea.KeyTab}
		case "down":
			return tea.KeyMsg{Type: tea.KeyDown}
		}
		return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
	}
	var screens strings.Builder
	shot := func(after string) {
		screens.WriteString("=== after " + after + "\n" + m.View() + "\n")
	}
	shot("start")
	for _, k := range []string{"tab", "tab", "tab", "1", "down", "?", "?", "a", "r", "s", "S"} {
		var cmd tea.Cmd
		m, cmd = m.Update(keyMsg(k))
		if cmd != nil && isQuit(cmd) {
			screens.WriteString("=== quit after " + k + "\n")
			break
		}
		shot(k)
	}
	rv := m.(*reviewer)
	if got := rv.summary(); got != "golden review: 1 accepted, 1 rejected, 11 skipped; 11 still pending" {
		t.Errorf("summary %q", got)
	}
	checkScreens(t, "reviewer.txt", screens.String())
	// What was decided is on disk: the first call accepted, the second rejected.
	left := calls(pendingItems(t, "drift"))
	if len(left) != 11 || left[0][1] != "call_read_1" {
		t.Errorf("still pending %v", left)
	}
}

func isQuit(cmd tea.Cmd) bool {
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func checkScreens(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join(testdataAbs, name), got)
}

// ptySession runs `golden review DIR` in a pseudo-terminal.
type ptySession struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

func startReview(t *testing.T, dir string, env ...string) *ptySession {
	t.Helper()
	cmd := exec.Command(os.Args[0], "golden", "review", dir)
	cmd.Env = append(append(os.Environ(), asCLIEnv+"=1", "CI=", "TERM=xterm-256color"), env...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	s := &ptySession{t: t, cmd: cmd, tty: tty, done: make(chan struct{})}
	go func() {
		buf := make([]byte, 4096)
		answered := 0
		for {
			n, err := tty.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			// Answer each cursor-position query (the colour probe sends one
			// after its OSC query) as a terminal without OSC replies does,
			// or the probe waits seconds for a reply.
			queries := bytes.Count(s.out.Bytes(), []byte("\x1b[6n"))
			s.mu.Unlock()
			for ; answered < queries; answered++ {
				tty.Write([]byte("\x1b[1;1R"))
			}
			if err != nil {
				close(s.done)
				return
			}
		}
	}()
	t.Cleanup(func() { cmd.Process.Kill(); tty.Close() })
	return s
}

// waitFor waits (bounded) until the output holds want.
func (s *ptySession) waitFor(want string) {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		ok := strings.Contains(s.out.String(), want)
		s.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.t.Fatalf("the reviewer never showed %q; output:\n%q", want, s.out.String())
}

func (s *ptySession) send(keys string) {
	s.t.Helper()
	if _, err := s.tty.Write([]byte(keys)); err != nil {
		s.t.Fatal(err)
	}
}

func TestReviewInPseudoTerminal(t *testing.T) {
	dir := pendingDrift(t)
	s := startReview(t, dir)
	s.waitFor("golden review 1/13")
	s.send("a")
	s.waitFor("accepted 1")
	s.send("\t")
	s.waitFor("side by side")
	s.send("r")
	s.waitFor("rejected 1")
	s.send("s")
	s.waitFor("skipped 1")
	s.send("q")
	s.waitFor("golden review: 1 accepted, 1 rejected, 1 skipped; 11 still pending")
	if err := s.cmd.Wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
	if left := calls(pendingItems(t, dir)); len(left) != 11 {
		t.Errorf("%d calls still pending, want 11", len(left))
	}
}

// TestReviewKilled: a review killed in the middle leaves every golden, log
// and pending file whole: the decisions made are on disk, the rest pending.
func TestReviewKilled(t *testing.T) {
	dir := pendingDrift(t)
	s := startReview(t, dir)
	s.waitFor("golden review 1/13")
	s.send("a")
	s.waitFor("accepted 1")
	s.send("a")
	s.waitFor("accepted 2")
	s.cmd.Process.Signal(syscall.SIGKILL)
	s.cmd.Wait()
	assertWhole(t, dir)
	if left := calls(pendingItems(t, dir)); len(left) != 11 {
		t.Errorf("%d calls still pending, want 11", len(left))
	}
}

// Keys typed faster than the terminal is read arrive as one run of runes;
// each still counts.
func TestReviewerRunOfKeys(t *testing.T) {
	dir := pendingDrift(t)
	g := &goldenRun{o: &goldenOptions{maxLines: 200}, stdout: io.Discard, stderr: io.Discard}
	_, revs, err := g.pendingReviews([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	m := newReviewer(g, revs)
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("ssa")})
	if m.count("skipped") != 2 || m.count("accepted") != 1 || m.idx != 3 {
		t.Errorf("after \"ssa\": %s, at %d", m.summary(), m.idx)
	}
}

// A call whose card did not change still shows it, for context.
func TestReviewerShowsUnchangedCard(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	dir := t.TempDir()
	for _, f := range []string{"drift/session.jsonl", "accepted/session.cards.txt", "accepted/session.cards.ndjson"} {
		b, err := os.ReadFile(goldenData(f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644)
	}
	if _, _, code := goldenCLI(t, "golden", "update", "--review", dir); code != cmdutil.ExitOK {
		t.Fatal("update --review")
	}
	g := &goldenRun{o: &goldenOptions{}, stdout: io.Discard, stderr: io.Discard}
	_, revs, err := g.pendingReviews([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	m := newReviewer(g, revs)
	for m.revs[m.idx].call != "call_grep_1" {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("s")})
	}
	body := m.body()
	if !strings.Contains(body, "card (unchanged)") || !strings.Contains(body, "╰ grep · call_grep_1 · session.jsonl:16") || !strings.Contains(body, `-   "total": 4`) {
		t.Errorf("body:\n%s", body)
	}
}

// TestReviewSignalled: SIGTERM or SIGINT sent to the interactive reviewer
// lets it restore the terminal and say what was decided, then exit 143 or
// 130; the decisions made are on disk, the rest stays pending.
func TestReviewSignalled(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		dir := pendingDrift(t)
		s := startReview(t, dir)
		s.waitFor("golden review 1/13")
		s.send("a")
		s.waitFor("accepted 1")
		s.cmd.Process.Signal(sig)
		s.waitFor("golden review: 1 accepted, 0 rejected, 0 skipped; 12 still pending")
		if code := exitCode(t, s.cmd.Wait()); code != 128+int(sig) {
			t.Errorf("%v: exit %d, want %d", sig, code, 128+int(sig))
		}
		s.mu.Lock()
		out := s.out.String()
		s.mu.Unlock()
		if !strings.Contains(out, "\x1b[?1049l") {
			t.Errorf("%v: the alternate screen was not left", sig)
		}
		assertWhole(t, dir)
		for name := range snapshot(t, dir) {
			if strings.HasPrefix(filepath.Base(name), atomicwrite.TempPrefix) {
				t.Errorf("%v: %s left behind", sig, name)
			}
		}
		if left := calls(pendingItems(t, dir)); len(left) != 12 {
			t.Errorf("%v: %d calls still pending, want 12", sig, len(left))
		}
	}
}
