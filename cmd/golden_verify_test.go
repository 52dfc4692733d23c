package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/clitest"
	"github.com/dsh-replay/dsh-replay/internal/testtree"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// Tests of golden that need verify (which lives in this package).

func goldenCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	clitest.NoCI(t) // the tests write goldens in temporary directories
	return cli(t, nil, args...)
}

func goldenData(elem ...string) string {
	return filepath.Join(append([]string{"..", "testdata", "golden"}, elem...)...)
}

// TestGoldenMutatedLogsRoundTrip: every mutated log that update can fix is
// fixed so that check (and verify) pass, with no byte outside the
// re-recorded fields changed.
func TestGoldenMutatedLogsRoundTrip(t *testing.T) {
	src := filepath.Join("..", "testdata", "verify", "mutated")
	dir := t.TempDir()
	var logs []string
	for _, name := range []string{"content-byte", "content-replaced", "crlf-only", "meta-absent", "meta-key-added",
		"meta-key-removed", "meta-null", "spill-preview", "spill-preview-tampered", "subcall-meta",
		"trailing-newline", "whitespace-only", "sidecar-mismatch", "sidecar"} {
		for _, ext := range []string{".jsonl", ".values.jsonl"} {
			if b, err := os.ReadFile(filepath.Join(src, name+ext)); err == nil {
				os.WriteFile(filepath.Join(dir, name+ext), b, 0o644)
			}
		}
		logs = append(logs, filepath.Join(dir, name+".jsonl"))
	}
	before := snapshot(t, dir)
	if out, errOut, code := goldenCLI(t, "golden", "update", dir); code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if out, _, code := goldenCLI(t, "golden", "check", dir); code != cmdutil.ExitOK {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	var vout, verr bytes.Buffer
	if code := Run(append([]string{"verify"}, logs...), nil, &vout, &verr); code != cmdutil.ExitOK {
		t.Errorf("verify after update: exit %d\n%s", code, vout.String())
	}
	after := snapshot(t, dir)
	for _, l := range logs {
		k := filepath.Base(l)
		old, new := bytes.SplitAfter(before[k], []byte{'\n'}), bytes.SplitAfter(after[k], []byte{'\n'})
		if len(old) != len(new) {
			t.Fatalf("%s: line count changed", k)
		}
		for i := range old {
			if !bytes.Equal(old[i], new[i]) && strip(t, old[i]) != strip(t, new[i]) {
				t.Errorf("%s:%d: bytes outside content/meta changed", k, i+1)
			}
		}
	}
}

func TestVerifyGolden(t *testing.T) {
	dir := copyTree(t, goldenData("accepted"))
	// "." keeps the goldens next to the logs.
	out, errOut, code := goldenCLI(t, "verify", "--golden", ".", dir)
	if code != cmdutil.ExitOK {
		t.Fatalf("verify --golden . on the accepted goldens: exit %d\n%s%s", code, out, errOut)
	}
	// A mirror root, as update --out writes it.
	root := filepath.Join(t.TempDir(), "goldens")
	if _, _, code := goldenCLI(t, "golden", "update", "--out", root, dir); code != cmdutil.ExitOK {
		t.Fatalf("update --out: exit %d", code)
	}
	out, errOut, code = goldenCLI(t, "verify", "--golden", root, dir)
	if code != cmdutil.ExitOK {
		t.Fatalf("verify --golden on fresh goldens: exit %d\n%s%s", code, out, errOut)
	}
	mirror := filepath.Join(root, strings.TrimLeft(dir, "/"))
	os.Remove(filepath.Join(mirror, "legacy.cards.txt"))
	p := filepath.Join(mirror, "session.cards.ndjson")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte(`"Edit a.txt"`), []byte(`"Edit b.txt"`), 1), 0o644)
	os.WriteFile(filepath.Join(mirror, "frames.cards.txt.new"), []byte("x"), 0o644)
	out, _, code = goldenCLI(t, "verify", "--golden", root, dir)
	if code != cmdutil.ExitDivergence {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	mustContain(t, "verify --golden", out, "card-mismatch", "no card golden for this log",
		"the cards differ from the golden (regenerate: dsh-replay golden update --out "+root+" "+filepath.Join(dir, "session.jsonl")+")",
		"a pending golden is left behind", "3 logs")
}

func copyTree(t *testing.T, src string) string { return testtree.Copy(t, src) }

func snapshot(t *testing.T, dir string) map[string][]byte { return testtree.Snapshot(t, dir) }

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	testtree.MustContain(t, what, got, wants...)
}

func strip(t *testing.T, line []byte) string { return testtree.Strip(t, line) }

// finalizedLog is a session log of two terminal calls whose recorded
// fields are stale: a job_output of a background terminal send, whose
// output finalizeContent cuts to tool-terminal's maxResultBytes, and a
// terminal_send whose meta is out of date.
func finalizedLog(output string) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	call := func(seq int, id, name, args, content, meta, value string) string {
		res := `{"source":{"kind":"tool","callId":"` + id + `"},"content":[{"type":"tool-result","toolCallId":"` + id +
			`","content":[{"type":"text","text":` + q(content) + `}],"isError":false}],"role":"user","id":"result-` + id + `"}`
		if meta != "" {
			meta = `,"meta":` + meta
		}
		return fmt.Sprintf(`{"type":"tool/call","seq":%d,"time":0,"data":{"turn":1,"step":1,"callId":%q,"name":%q,"arguments":%s}}`+"\n"+
			`{"type":"tool/result","seq":%d,"time":0,"data":{"turn":1,"step":1,"message":%s%s,"value":%s},"sourceEventSeqs":[%d],"surfaceOp":"append"}`+"\n",
			seq, id, name, q(args), seq+1, res, meta, value, seq)
	}
	return `{"type":"session","version":0,"id":"finalized","createdAt":0,"cwd":"/repo","delegationDepth":0}` + "\n" +
		`{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}` + "\n" +
		`{"type":"step/start","seq":1,"time":0,"data":{"turn":1,"step":1}}` + "\n" +
		call(2, "call_job_1", "job_output", `{"job_id":"pty-send-1"}`, "stale", "",
			`{"text":`+q(output)+`,"job":{"id":"pty-send-1","kind":"pty","label":"make","status":"running","startedAt":0}}`) +
		call(4, "call_send_1", "terminal_send", `{"sessionId":"pty-1","text":"x"}`, "out\n[wait: timeout]\n[session: running]",
			`{"viewport":"stale","waitReason":"timeout","sessionStatus":{"kind":"running"},"truncated":false}`,
			`{"kind":"foreground","viewport":"out","waitReason":"timeout","sessionStatus":{"kind":"running"},"truncated":false}`) +
		`{"type":"step/end","seq":6,"time":0,"data":{"turn":1,"step":1}}` + "\n" +
		`{"type":"turn/end","seq":7,"time":0,"data":{"turn":1,"reason":{"kind":"completed"}}}` + "\n"
}

// TestGoldenUpdateFinalizedContent: update re-records the content a
// shell tool's finalizeContent leaves (here: cut to maxResultBytes), not
// render's, so that verify accepts the re-recorded log.
func TestGoldenUpdateFinalizedContent(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	os.WriteFile(cfg, []byte(`{"plugins":{"tool-terminal":{"maxResultBytes":64}}}`), 0o644)
	logs := filepath.Join(dir, "logs")
	os.Mkdir(logs, 0o755)
	log := filepath.Join(logs, "finalized.jsonl")
	output := strings.Repeat("compiling module\n", 20)
	os.WriteFile(log, []byte(finalizedLog(output)), 0o644)
	if out, _, code := goldenCLI(t, "verify", "--config", cfg, log); code != cmdutil.ExitDivergence {
		t.Fatalf("verify of the stale log: exit %d, want 1\n%s", code, out)
	}
	out, errOut, code := goldenCLI(t, "golden", "update", "--no-review", "--config", cfg, logs)
	if code != cmdutil.ExitOK {
		t.Fatalf("update: exit %d\n%s%s", code, out, errOut)
	}
	mustContain(t, "update", out, "2 calls re-recorded", "call_job_1 content", "call_send_1 meta")
	if out, _, code := goldenCLI(t, "verify", "--config", cfg, log); code != cmdutil.ExitOK {
		t.Errorf("verify after update: exit %d, want 0\n%s", code, out)
	}
	if out, _, code := goldenCLI(t, "golden", "check", "--config", cfg, logs); code != cmdutil.ExitOK {
		t.Errorf("check after update: exit %d, want 0\n%s", code, out)
	}
	b, _ := os.ReadFile(log)
	if strings.Contains(string(b), "stale") || strings.Count(string(b), "compiling module") >= 2*20 {
		t.Errorf("the re-recorded log keeps a stale field or the uncut output:\n%s", b)
	}
}
