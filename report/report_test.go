package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/goldenfile"
	"github.com/dsh-replay/dsh-replay/replay"
)

// feed sends a synthetic run: log a.jsonl with 5 calls sharing one cause
// and one distinct finding, log b.jsonl with 14 more errors (over the
// GitHub cap), a warning and a clean call.
func feed(s replay.Sink) {
	crlf := replay.Finding{Class: replay.ContentMismatch, SubKind: replay.SubCRLFOnly, Sev: replay.Failure, Tool: "read",
		Projector: "render", Pointer: "/0/text", Message: "render(args, value) differs from the recorded content at /0/text",
		Diff: []string{"- a␍", "+ a"}}
	s.BeginLog("a.jsonl")
	for i := 1; i <= 5; i++ {
		f := crlf
		f.File, f.Line, f.CallID = "a.jsonl", i*10, fmt.Sprintf("call_%d", i)
		s.Call(&replay.CallResult{File: "a.jsonl", Line: i * 10, CallID: f.CallID, Tool: "read", Status: replay.Diverged,
			HasValue: true, Checked: []string{"content", "meta"}, Findings: []replay.Finding{f}})
	}
	s.Call(&replay.CallResult{File: "a.jsonl", Line: 60, CallID: "call_6", Tool: "grep", Status: replay.Diverged, HasValue: true,
		Checked: []string{"content", "meta", "presentCall"}, Findings: []replay.Finding{{Class: replay.MetaMissing, Sev: replay.Failure,
			File: "a.jsonl", Line: 60, CallID: "call_6", Tool: "grep", Projector: "presentationMeta",
			Message: "presentationMeta produced an object but the log recorded no meta <&>"}}})
	s.EndLog(&replay.LogResult{File: "a.jsonl"})
	s.BeginLog("b,c:d.jsonl")
	for i := 1; i <= 14; i++ {
		s.Call(&replay.CallResult{File: "b,c:d.jsonl", Line: i, CallID: fmt.Sprintf("b_%d", i), Tool: "bash", Status: replay.Diverged,
			Findings: []replay.Finding{{Class: replay.PresenterFailed, Sev: replay.Failure, File: "b,c:d.jsonl", Line: i,
				CallID: fmt.Sprintf("b_%d", i), Tool: "bash", Projector: "presentResult", Message: fmt.Sprintf("presentResult panicked: 100%% bad %d", i%2)}}})
	}
	s.Call(&replay.CallResult{File: "b,c:d.jsonl", Line: 20, CallID: "u", Tool: "mystery", Status: replay.Unverified,
		Findings: []replay.Finding{{Class: replay.NoProjector, Sev: replay.Warning, File: "b,c:d.jsonl", Line: 20, CallID: "u",
			Tool: "mystery", Projector: "-", Message: `no Go port of tool "mystery": generic card, not verified`}}})
	s.Call(&replay.CallResult{File: "b,c:d.jsonl", Line: 21, CallID: "ok", Tool: "bash", Status: replay.Verified,
		Checked: []string{"presentCall", "presentResult"}})
	s.EndLog(&replay.LogResult{File: "b,c:d.jsonl", Findings: []replay.Finding{{Class: replay.LogCorrupt, SubKind: "torn-tail",
		Sev: replay.Warning, File: "b,c:d.jsonl", Line: 22, Projector: "log", Message: "torn tail after the last turn/end"}}})
}

func TestFormatsGolden(t *testing.T) {
	t.Parallel()
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			summary := ""
			if format == "github" {
				summary = filepath.Join(t.TempDir(), "summary.md")
			}
			s, err := New(format, &out, Options{Deterministic: true, StepSummary: summary})
			if err != nil {
				t.Fatal(err)
			}
			agg := NewAggregator(s)
			feed(agg)
			if err := agg.Close(); err != nil {
				t.Fatal(err)
			}
			if agg.ExitCode() != 1 {
				t.Errorf("exit code %d", agg.ExitCode())
			}
			golden(t, format+".golden", out.String())
			if summary != "" {
				b, err := os.ReadFile(summary)
				if err != nil {
					t.Fatal(err)
				}
				golden(t, "summary.md.golden", string(b))
			}
		})
	}
}

func TestTextClusters(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	agg := NewAggregator(newText(&out, Options{Deterministic: true}))
	feed(agg)
	agg.Close()
	got := out.String()
	for _, want := range []string{
		"5 calls, 1 cause: content-mismatch (crlf-only) · read · render",
		"samples: a.jsonl:10 call_1, a.jsonl:20 call_2, a.jsonl:30 call_3, … (2 more)",
		"7 calls, 1 cause: presenter-failed · bash · presentResult",
		"a.jsonl:60 call_6 grep",
		"FAIL a.jsonl (6 calls, 6 findings, 5 in clusters below)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

func TestGitHubCap(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	agg := NewAggregator(newGitHub(&out, Options{}))
	feed(agg)
	agg.Close()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	n := map[string]int{}
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, "::"); ok {
			lv, _, _ := strings.Cut(rest, " ")
			n[lv]++
		}
	}
	if n["error"] != AnnotationsPerLevel || n["warning"] != 2 || n["notice"] != 1 {
		t.Errorf("annotations per level = %v", n)
	}
	if !strings.Contains(out.String(), "10 errors more not annotated") {
		t.Errorf("no overflow notice:\n%s", out.String())
	}
	// Properties are escaped: the log name has a comma and a colon.
	if !strings.Contains(out.String(), "file=b%2Cc%3Ad.jsonl") || !strings.Contains(out.String(), "100%25 bad") {
		t.Errorf("escaping:\n%s", out.String())
	}
}

func TestEscape(t *testing.T) {
	t.Parallel()
	if got := attr("a\"<b>&\n\x01"); got != "a&quot;&lt;b&gt;&amp;&#xA;\uFFFD" {
		t.Errorf("attr = %q", got)
	}
	if got := text("x\ny\r\x1b"); got != "x\ny&#xD;\uFFFD" {
		t.Errorf("text = %q", got)
	}
	if got := escapeProp("a:b,c%\n"); got != "a%3Ab%2Cc%25%0A" {
		t.Errorf("escapeProp = %q", got)
	}
	if got := stripANSI("\x1b[31mred\x1b[0m"); got != "red" {
		t.Errorf("stripANSI = %q", got)
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

func TestSideRowsMarkTheDifference(t *testing.T) {
	t.Parallel()
	rows := sideRows([]string{"  <content>", "- 1: hellO", "- 2: x", "+ 1: hello", "… 3 more lines"})
	want := []htmlDiffRow{
		{LeftPre: "<content>", RightPre: "<content>", LeftKind: "same", RightKind: "same"},
		{LeftPre: "1: hell", LeftMark: "O", RightPre: "1: hell", RightMark: "o", LeftKind: "del", RightKind: "add"},
		{LeftMark: "2: x", LeftKind: "del", RightKind: "empty"},
		{Note: "… 3 more lines"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, rows[i], want[i])
		}
	}
	// Rune boundaries: a differing emoji is marked whole.
	a, am, _, b, bm, _ := markSpan("x😀y", "x😃y")
	if a != "x" || am != "😀" || b != "x" || bm != "😃" {
		t.Errorf("markSpan: %q %q %q %q", a, am, b, bm)
	}
}

// A cluster header counts what it holds: calls, logs, or findings in logs.
func TestClusterHeaders(t *testing.T) {
	t.Parallel()
	unreadable := func(file string) replay.Finding {
		return replay.Finding{Class: replay.Unreadable, Sev: replay.Fatal, File: file, Projector: "log", Message: "permission denied"}
	}
	gap := replay.Finding{Class: replay.LogCorrupt, SubKind: "seq-gap", Sev: replay.Warning, File: "g.jsonl", Projector: "log", Message: "seq gap"}
	call := func(file string, i int) *replay.CallResult {
		id := fmt.Sprint("c", i)
		return &replay.CallResult{File: file, Line: i, CallID: id, Tool: "bash", Status: replay.Diverged,
			Findings: []replay.Finding{{Class: replay.PresenterFailed, Sev: replay.Failure, File: file, Line: i, CallID: id,
				Tool: "bash", Projector: "presentResult", Message: "presentResult panicked"}}}
	}
	for _, c := range []struct {
		name string
		feed func(s replay.Sink)
		want string
	}{
		{"unreadable logs", func(s replay.Sink) {
			for _, f := range []string{"a.jsonl", "b.jsonl", "c.jsonl"} {
				s.BeginLog(f)
				s.EndLog(&replay.LogResult{File: f, Findings: []replay.Finding{unreadable(f)}})
			}
		}, "3 logs, 1 cause: unreadable · log"},
		{"seq gaps in one log", func(s replay.Sink) {
			s.BeginLog("g.jsonl")
			var fs []replay.Finding
			for i := range 100 {
				f := gap
				f.Line = i + 2
				fs = append(fs, f)
			}
			s.EndLog(&replay.LogResult{File: "g.jsonl", Findings: fs})
		}, "100 findings in 1 log, 1 cause: log-corrupt (seq-gap) · log"},
		{"calls", func(s replay.Sink) {
			s.BeginLog("a.jsonl")
			for i := range 3 {
				s.Call(call("a.jsonl", i+1))
			}
			s.EndLog(&replay.LogResult{File: "a.jsonl"})
		}, "3 calls, 1 cause: presenter-failed · bash · presentResult"},
		{"both", func(s replay.Sink) {
			s.BeginLog("a.jsonl")
			s.Call(call("a.jsonl", 1))
			s.Call(call("a.jsonl", 2))
			f := call("a.jsonl", 3).Findings[0]
			f.CallID, f.Line = "", 0
			s.EndLog(&replay.LogResult{File: "a.jsonl", Findings: []replay.Finding{f}})
		}, "3 findings (2 calls, 1 log finding in 1 log), 1 cause: presenter-failed · bash · presentResult"},
	} {
		var out bytes.Buffer
		s := newText(&out, Options{Deterministic: true})
		c.feed(s)
		if err := s.Close(&Totals{Findings: map[replay.Class]int{}, Tools: map[string]*ToolTally{}}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "\n"+c.want+"\n") {
			t.Errorf("%s: no header %q in\n%s", c.name, c.want, out.String())
		}
	}
}

// A log counts once it has ended as one: a file that is not a session log
// and the block of a log's card goldens are reported, but are no logs.
func TestAggregatorCountsLogs(t *testing.T) {
	t.Parallel()
	agg := NewAggregator()
	for _, l := range []*replay.LogResult{
		{File: "a.jsonl"},
		{File: "rpc.jsonl", NotALog: true},
		{File: "b.jsonl", Findings: []replay.Finding{{Class: replay.LogCorrupt, Sev: replay.Fatal}}},
		{File: "a.cards", CardGoldens: true, Findings: []replay.Finding{{Class: replay.CardMismatch, Sev: replay.Failure}}},
	} {
		agg.BeginLog(l.File)
		agg.EndLog(l)
	}
	if tt := agg.Totals; tt.Logs != 2 || tt.NotLogs != 1 || tt.Unreadable != 1 || tt.Findings[replay.CardMismatch] != 1 {
		t.Errorf("logs %d, not logs %d, unreadable %d, card mismatches %d; want 2, 1, 1, 1", tt.Logs, tt.NotLogs, tt.Unreadable, tt.Findings[replay.CardMismatch])
	}
}
