package golden

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/google/go-cmp/cmp"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// Deciding every call in the reviewer, whichever call owns the log's
// re-recorded change, ends where the per-call commands do: accepting all
// leaves golden check at 0.

// ownerCalls are the calls of oneChangeLog in review order: the first,
// a middle one and the last own the change in turn.
var ownerCalls = []string{"call_edit_1", "call_grep_1", "call_write_1"}

// oneChangeLog writes a log of six calls, all in step with their values
// except owner, whose meta is missing, and no card goldens; then runs
// update --review on it. Every call has a pending card, one a pending log
// change.
func oneChangeLog(t *testing.T, owner string) string {
	t.Helper()
	b, err := os.ReadFile(goldenData("accepted", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// The first six steps, then the turn's end.
	lines := strings.SplitAfter(string(b), "\n")
	text := strings.Join(lines[:33], "") + `{"type":"turn/end","seq":32,"time":0,"data":{"turn":1,"reason":{"kind":"completed"}}}` + "\n"
	line := 0
	logformat.ReadCallsFrom("session.jsonl", strings.NewReader(text), logformat.Options{NoSidecar: true}, func(c *logformat.Call) error {
		if c.CallID == owner {
			line = c.Line
		}
		return nil
	})
	if line == 0 {
		t.Fatalf("no call %s", owner)
	}
	out, err := logformat.Rewrite("session.jsonl", []byte(text), []logformat.Edit{{Line: line, CallID: owner, SetMeta: true, Meta: jsonv.Value{}}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "session.jsonl"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, errs, code := goldenCLI(t, "golden", "update", "--review", dir)
	if code != cmdutil.ExitOK || !strings.Contains(stdout, "1 call re-recorded ("+owner+" meta added)") {
		t.Fatalf("update --review: exit %d\n%s%s", code, stdout, errs)
	}
	return dir
}

// reviewOrder is the order the reviewer shows the calls of a directory.
func reviewOrder(t *testing.T, dir string) []string {
	t.Helper()
	g := &goldenRun{o: &goldenOptions{maxLines: 200}, stdout: io.Discard, stderr: io.Discard}
	_, revs, err := g.pendingReviews([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range revs {
		out = append(out, r.call)
	}
	return out
}

// TestReviewerDecidesEveryCall drives the reviewer model key by key: every
// decision sequence over the six calls (all accepted, one at a time or with
// A; rejects mixed in) for each owner of the log change.
func TestReviewerDecidesEveryCall(t *testing.T) {
	for _, owner := range ownerCalls {
		for _, keys := range []string{"aaaaaa", "A", "raaaaa", "aaaaar", "rarara", "ararar", "saaaaa"} {
			t.Run(owner+"/"+keys, func(t *testing.T) {
				dir := oneChangeLog(t, owner)
				order := reviewOrder(t, dir)
				if len(order) != 6 || order[0] != "call_edit_1" || order[5] != "call_write_1" {
					t.Fatalf("review order %v", order)
				}
				g := &goldenRun{o: &goldenOptions{maxLines: 200}, stdout: io.Discard, stderr: io.Discard}
				_, revs, err := g.pendingReviews([]string{dir})
				if err != nil {
					t.Fatal(err)
				}
				m := newReviewer(g, revs)
				m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
				quit := false
				for i, k := range keys {
					if quit {
						t.Fatalf("quit before key %d", i)
					}
					before := m.count("")
					_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{k}})
					if m.count("") >= before {
						t.Fatalf("key %d (%c) on %s decided nothing: %s", i, k, order[i], stripANSI(m.status))
					}
					quit = cmd != nil && isQuit(cmd)
				}
				if !quit {
					t.Fatalf("the reviewer did not quit after %q: %s", keys, m.summary())
				}
				checkDecided(t, dir, owner, order, keys)
			})
		}
	}
}

// checkDecided compares the tree after the reviewer's decisions (keys over
// order) with the same decisions made one process each by golden
// accept/reject --call on a fresh copy; when every call was accepted,
// golden check must pass.
func checkDecided(t *testing.T, dir, owner string, order []string, keys string) {
	t.Helper()
	verdicts := expandKeys(keys, len(order))
	ref := oneChangeLog(t, owner)
	for i, v := range verdicts {
		action := map[rune]string{'a': "accept", 'r': "reject"}[v]
		if action == "" {
			continue
		}
		if out, errs, code := goldenCLI(t, "golden", action, "--call", order[i], ref); code != cmdutil.ExitOK {
			t.Fatalf("%s --call %s: exit %d\n%s%s", action, order[i], code, out, errs)
		}
	}
	if d := cmp.Diff(snapshot(t, ref), snapshot(t, dir)); d != "" {
		t.Errorf("after %q the reviewer's tree differs from golden accept/reject --call's (-want +got):\n%s", keys, d)
	}
	left := pendingItems(t, dir)
	if strings.Contains(verdicts, "s") != (len(left) > 0) {
		t.Errorf("pending after %q: %+v", keys, left)
	}
	if strings.Trim(verdicts, "a") == "" {
		if out, _, code := goldenCLI(t, "golden", "check", dir); code != cmdutil.ExitOK {
			t.Errorf("golden check after accepting every call: exit %d\n%s", code, out)
		}
	}
}

// expandKeys is one verdict letter per call: A accepts every remaining one.
func expandKeys(keys string, n int) string {
	var b strings.Builder
	for _, k := range keys {
		if k == 'A' {
			for b.Len() < n {
				b.WriteByte('a')
			}
			break
		}
		b.WriteRune(k)
	}
	return b.String()
}

// stripANSI drops the styling of a status line.
func stripANSI(s string) string { return regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(s, "") }

// TestReviewAcceptsEveryCallInPseudoTerminal: the same in a pseudo-terminal,
// pressing a on every call, whichever call owns the log change.
func TestReviewAcceptsEveryCallInPseudoTerminal(t *testing.T) {
	for _, owner := range ownerCalls {
		dir := oneChangeLog(t, owner)
		s := startReview(t, dir)
		s.waitFor("golden review 1/6")
		for i := 1; i <= 6; i++ {
			s.send("a")
			if i < 6 {
				s.waitFor(fmt.Sprintf("accepted %d ·", i))
			}
		}
		s.waitFor("golden review: 6 accepted, 0 rejected, 0 skipped; 0 still pending")
		if code := exitCode(t, s.cmd.Wait()); code != 0 {
			t.Errorf("%s: exit %d", owner, code)
		}
		if left := pendingItems(t, dir); len(left) > 0 {
			t.Errorf("%s: still pending %+v", owner, left)
		}
		if out, _, code := goldenCLI(t, "golden", "check", dir); code != cmdutil.ExitOK {
			t.Errorf("%s: golden check after accepting every call: exit %d\n%s", owner, code, out)
		}
	}
}

// TestReviewerRefusesChangedLog: a log edited while the reviewer is open is
// not overwritten by a later decision.
func TestReviewerRefusesChangedLog(t *testing.T) {
	dir := oneChangeLog(t, "call_grep_1")
	g := &goldenRun{o: &goldenOptions{maxLines: 200}, stdout: io.Discard, stderr: io.Discard}
	_, revs, err := g.pendingReviews([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	m := newReviewer(g, revs)
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a")})
	log := filepath.Join(dir, "session.jsonl")
	edited := append(readOrEmpty(log), []byte(`{"type":"turn/start","seq":33,"time":0,"data":{"turn":2}}`+"\n")...)
	os.WriteFile(log, edited, 0o644)
	before := snapshot(t, dir)
	for _, k := range "ar" {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{k}})
		if m.count("") != 5 || !strings.Contains(stripANSI(m.status), "changed since the review began; run dsh-replay golden update") {
			t.Errorf("%c after the log changed: %s; %q", k, m.summary(), stripANSI(m.status))
		}
	}
	if d := cmp.Diff(before, snapshot(t, dir)); d != "" {
		t.Errorf("a refused decision wrote:\n%s", d)
	}
}

// TestReviewerAcceptsAllOfDrift: with several calls owning log changes in
// three logs (one of them chained zstd), a on every call ends where
// golden accept does.
func TestReviewerAcceptsAllOfDrift(t *testing.T) {
	dir, whole := pendingDrift(t), pendingDrift(t)
	if _, _, code := goldenCLI(t, "golden", "accept", whole); code != cmdutil.ExitOK {
		t.Fatal("accept")
	}
	g := &goldenRun{o: &goldenOptions{maxLines: 200}, stdout: io.Discard, stderr: io.Discard}
	_, revs, err := g.pendingReviews([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	m := newReviewer(g, revs)
	for i := range revs {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a")})
		if m.count("accepted") != i+1 {
			t.Fatalf("accept %d of %d: %s", i+1, len(revs), stripANSI(m.status))
		}
	}
	if d := cmp.Diff(snapshot(t, whole), snapshot(t, dir)); d != "" {
		t.Errorf("differs from golden accept:\n%s", d)
	}
	if out, _, code := goldenCLI(t, "golden", "check", dir); code != cmdutil.ExitOK {
		t.Errorf("golden check: exit %d\n%s", code, out)
	}
}
