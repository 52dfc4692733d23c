package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
)

// golden update re-records a drifted log of formats 2, 3 and 4 in its own
// format: the drifted content of a top-level result and of a Code Mode
// sub-call (code-dispatch in v2, ptc-dispatch from v3; a tool-role message
// in v4) is put back byte for byte as upstream's migration wrote it, and
// nothing else changes.
func TestGoldenUpdateFormats(t *testing.T) {
	root := sharedtest.Dir(t, "fixtures", "formats", "migrated", "dsh", "code-mode")
	for _, v := range []string{"2", "3", "4"} {
		t.Run("v"+v, func(t *testing.T) {
			name := "session.v" + v + ".jsonl"
			orig, err := os.ReadFile(filepath.Join(root, name))
			if err != nil {
				t.Fatal(err)
			}
			values, err := os.ReadFile(filepath.Join(root, "session.v"+v+".values.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(string(orig), "\n")
			drifted := 0
			for i, l := range lines {
				sub := strings.Contains(l, `"subCallId":"rc-1:code:1"`) && strings.Contains(l, `"content":`)
				top := strings.HasPrefix(l, `{"type":"tool/result"`) && strings.Contains(l, `"callId":"rc-3"`)
				if sub || top {
					if sub {
						lines[i] = strings.Replace(l, `1: alpha`, `1: ALPHA`, 1)
					} else {
						lines[i] = strings.Replace(l, `nope.txt`, `NOPE.txt`, 1)
					}
					if lines[i] == l {
						t.Fatalf("line %d: nothing to drift", i+1)
					}
					drifted++
				}
			}
			if drifted != 2 {
				t.Fatalf("%d lines drifted, want 2", drifted)
			}
			dir := t.TempDir()
			log := filepath.Join(dir, name)
			if err := os.WriteFile(log, []byte(strings.Join(lines, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "session.v"+v+".values.jsonl"), values, 0o644); err != nil {
				t.Fatal(err)
			}
			out, errOut, code := goldenCLI(t, "golden", "update", dir)
			if code != cmdutil.ExitOK || !strings.Contains(out, name+": 2 calls re-recorded") {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
			got, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, orig) {
				t.Errorf("the updated log is not the twin as migrated:\n%s", firstDiff(string(got), string(orig)))
			}
			for _, g := range []string{"session.v" + v + ".cards.txt", "session.v" + v + ".cards.ndjson"} {
				if _, err := os.Stat(filepath.Join(dir, g)); err != nil {
					t.Errorf("no card golden %s: %v", g, err)
				}
			}
			if out, _, code := goldenCLI(t, "golden", "check", dir); code != cmdutil.ExitOK {
				t.Errorf("check after update: exit %d\n%s", code, out)
			}
		})
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return al[i] + "\n---\n" + bl[i]
		}
	}
	return "lengths differ"
}
