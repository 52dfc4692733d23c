package cmd

import (
	"bytes"
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
