package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/dsh-replay/dsh-replay/replay"
)

// TestReportsKeepBoundedMemory: the text, github and junit reports do not
// keep what they have been given: after many diverging calls (about 60 MB
// of findings) the heap still in use before Close stays small. They kept
// every finding (text and github) or a whole log's suite (junit) before.
func TestReportsKeepBoundedMemory(t *testing.T) {
	const calls = 30000
	diff := make([]string, 40)
	for i := range diff {
		diff[i] = "- " + strings.Repeat("x", 40)
	}
	const limit = 16 << 20
	for _, format := range []string{"text", "github", "junit"} {
		t.Run(format, func(t *testing.T) {
			o := Options{Deterministic: true}
			if format == "github" {
				o.StepSummary = filepath.Join(t.TempDir(), "summary.md")
			}
			s, err := New(format, io.Discard, o)
			if err != nil {
				t.Fatal(err)
			}
			agg := NewAggregator(s)
			base := inUse()
			agg.BeginLog("big.jsonl")
			for i := range calls {
				f := replay.Finding{Class: replay.MetaMismatch, Sev: replay.Failure, File: "big.jsonl", Line: i + 1,
					CallID: fmt.Sprintf("call_%d", i), Tool: "read", Projector: "presentationMeta",
					Message: "presentationMeta(args, value) differs from the recorded meta", Diff: cloned(diff)}
				agg.Call(&replay.CallResult{File: "big.jsonl", Line: i + 1, CallID: f.CallID, Tool: "read",
					Status: replay.Diverged, HasValue: true, Checked: []string{"content", "meta"}, Findings: []replay.Finding{f}})
			}
			agg.EndLog(&replay.LogResult{File: "big.jsonl"})
			if grew := inUse() - base; grew > limit {
				t.Errorf("%s: %d MB still in use after %d diverging calls (at most %d MB)", format, grew>>20, calls, limit>>20)
			}
			if err := agg.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// cloned copies the lines, as each finding's diff is its own.
func cloned(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.Clone(l)
	}
	return out
}

func inUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// FuzzFindingCodec: a spooled finding reads back as it was written, and no
// input makes the decoder panic.
func FuzzFindingCodec(f *testing.F) {
	f.Add("content-mismatch", "crlf-only", "a.jsonl", "call_1", "read", "render", "msg", "/0", "- a\x00+ b", 3, 2, 7)
	f.Add("", "", "", "", "", "", "", "", "", 0, 0, 0)
	f.Fuzz(func(t *testing.T, class, sub, file, call, tool, proj, msg, ptr, diff string, line, sev, cluster int) {
		in := replay.Finding{Class: replay.Class(class), SubKind: sub, Sev: replay.Severity(sev), File: file, Line: line,
			CallID: call, Tool: tool, Projector: proj, Message: msg, Pointer: ptr}
		if diff != "" {
			in.Diff = strings.Split(diff, "\x00")
		}
		cluster &= 1<<30 - 1
		b, _ := encodeFinding(nil, nil, &in, in.Diff, cluster)
		// Twice over: the first passed over, the second read.
		b = append(b, b...)
		r := bufio.NewReader(bytes.NewReader(b))
		var out replay.Finding
		c, skipped, err := decodeFinding(r, &out, func(int) bool { return true })
		if err != nil || c != cluster || !skipped {
			t.Fatalf("pass over: %v, cluster %d → %d, skipped %v", err, cluster, c, skipped)
		}
		c, skipped, err = decodeFinding(r, &out, func(int) bool { return false })
		if err != nil || c != cluster || skipped || !cmp.Equal(in, out, cmpopts.IgnoreUnexported(replay.Finding{})) {
			t.Fatalf("round trip: %v, cluster %d → %d\n%s", err, cluster, c, cmp.Diff(in, out, cmpopts.IgnoreUnexported(replay.Finding{})))
		}
		if _, err := r.ReadByte(); err != io.EOF {
			t.Fatalf("left over after two records: %v", err)
		}
		// Any bytes: an error or a finding, never a panic.
		decodeFinding(bufio.NewReader(bytes.NewReader([]byte(msg+diff))), &out, nil)
		decodeFinding(bufio.NewReader(bytes.NewReader([]byte(msg+diff))), &out, func(int) bool { return true })
	})
}
