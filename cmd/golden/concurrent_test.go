package golden

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/jsonv"
)

// TestConcurrentDecisions runs two `golden accept --call` (different calls)
// and one `golden update --review` on one log at once, as separate
// processes, many times: every accept that says so has its call
// re-recorded in the log at the end, and the log keeps every line.
// Without the per-log lock one accept rewrote the log from what it read
// before the other's rename, dropping that decision.
func TestConcurrentDecisions(t *testing.T) {
	rounds := 200
	if testing.Short() {
		rounds = 20
	}
	proto := pendingDrift(t)
	log := filepath.Join(proto, "session.jsonl")
	want := readAll(t, log+".new")
	lines := bytes.Count(readOrEmpty(log), []byte("\n"))
	decided := []string{"call_read_1", "call_bash_1"}
	for round := range rounds {
		dir := cloneTree(t, proto)
		log := filepath.Join(dir, "session.jsonl")
		runs := [][]string{
			{"golden", "accept", log, "--call", decided[0]},
			{"golden", "accept", log, "--call", decided[1]},
			{"golden", "update", "--review", log},
		}
		type result struct {
			out  string
			code int
		}
		res := make([]result, len(runs))
		var wg sync.WaitGroup
		for i, args := range runs {
			wg.Go(func() {
				cmd := exec.Command(os.Args[0], args...)
				cmd.Env = append(os.Environ(), asCLIEnv+"=1", "CI=")
				out, err := cmd.CombinedOutput()
				res[i] = result{string(out), exitCode(t, err)}
			})
		}
		wg.Wait()
		for i, r := range res {
			if r.code != cmdutil.ExitOK {
				t.Fatalf("round %d: %v: exit %d\n%s", round, runs[i], r.code, r.out)
			}
		}
		got := readAll(t, log)
		for i, id := range decided {
			if !strings.Contains(res[i].out, "accepted: 1 call") {
				t.Fatalf("round %d: accept %s said\n%s", round, id, res[i].out)
			}
			if !jsonv.Equal(got[id].Content, want[id].Content) || !jsonv.Equal(got[id].Meta, want[id].Meta) {
				t.Fatalf("round %d: accept of %s said so but the log does not hold it (lost decision)\n%s\n%s", round, id, res[0].out, res[1].out)
			}
		}
		if n := bytes.Count(readOrEmpty(log), []byte("\n")); n != lines {
			t.Fatalf("round %d: the log has %d lines, had %d", round, n, lines)
		}
		if t.Failed() {
			return
		}
		os.RemoveAll(dir)
	}
}

// TestUpdateRefusesAChangedLog: a log changed while update re-records it
// (a line appended, or bytes rewritten in place keeping its size and
// modification time, which only the hash of what was read tells) is never
// overwritten: the log is refused (exit 3, said why), nothing is written
// for it, and the summary does not count it.
func TestUpdateRefusesAChangedLog(t *testing.T) {
	extra := []byte(`{"type":"turn/end","seq":999,"time":0,"data":{"turn":99,"reason":{"kind":"completed"}}}` + "\n")
	changes := []struct {
		name   string
		change func(t *testing.T, p string)
	}{
		{"appended", func(t *testing.T, p string) {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.Write(extra)
			f.Close()
		}},
		{"same size and time", func(t *testing.T, p string) {
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			b := readOrEmpty(p)
			i := bytes.Index(b, []byte(`"seq":`))
			if i < 0 {
				t.Fatal("no seq in the log")
			}
			b[i+1] = 'S' // "Seq": same length
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, ch := range changes {
		for _, flag := range []string{"--no-review", "--review"} {
			what := ch.name + " " + flag
			dir := copyTree(t, goldenData("drift"))
			log := filepath.Join(dir, "session.jsonl")
			var changed []byte
			afterPlan = func(p string) {
				ch.change(t, p)
				changed = readOrEmpty(p)
			}
			out, errs, code := goldenCLI(t, "golden", "update", flag, log)
			afterPlan = nil
			if code != cmdutil.ExitCannot || !strings.Contains(errs, "changed while it was being re-recorded") {
				t.Errorf("%s: exit %d, stderr %q", what, code, errs)
			}
			if !strings.Contains(out, "0 updated") && flag == "--no-review" {
				t.Errorf("%s: the summary counts a log not written:\n%s", what, out)
			}
			if !bytes.Equal(readOrEmpty(log), changed) {
				t.Errorf("%s: the change to the log is lost", what)
			}
			if flag == "--no-review" && (fileExists(filepath.Join(dir, "session.cards.txt")) || fileExists(filepath.Join(dir, "session.cards.ndjson"))) {
				t.Errorf("%s: card goldens written for a log that was not", what)
			}
		}
	}
}

// TestUpdateCountsOnlyWritesThatLanded: a golden that cannot be written is
// an error (exit 3), and its log is not counted updated nor offered for
// review.
func TestUpdateCountsOnlyWritesThatLanded(t *testing.T) {
	for _, c := range []struct {
		flag, blocked string
	}{
		{"--no-review", "session.cards.txt"},
		{"--review", "session.jsonl.new"},
	} {
		dir := copyTree(t, goldenData("drift"))
		// A directory where the file goes: the rename fails as on EACCES.
		if err := os.MkdirAll(filepath.Join(dir, c.blocked, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
		out, errs, code := goldenCLI(t, "golden", "update", c.flag, filepath.Join(dir, "session.jsonl"))
		if code != cmdutil.ExitCannot || !strings.Contains(errs, c.blocked) {
			t.Errorf("%s: exit %d, stderr %q", c.flag, code, errs)
		}
		if !strings.Contains(out, "golden: 1 log, 0 ") || !strings.Contains(out, "1 not written") || strings.Contains(out, "review with") {
			t.Errorf("%s: summary\n%s", c.flag, out)
		}
	}
}
