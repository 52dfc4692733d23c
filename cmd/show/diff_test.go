package show

import (
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// TestShowDiff: --diff prints both sides of a call, the value, a diff and
// the commands that accept the replayed side; nothing to accept when the
// sides agree or nothing was replayed.
func TestShowDiff(t *testing.T) {
	mutated := "../../testdata/verify/mutated/"
	tests := []struct {
		name     string
		args     []string
		code     int
		want     []string
		wantNone []string
	}{
		{"content moved", []string{mutated + "crlf-only.jsonl", "--call", "call_read_1"}, cmdutil.ExitOK,
			[]string{"── recorded content\n  <path>/abs/a.txt</path>␍\n", "── replayed content (render of the recorded value)\n  <path>/abs/a.txt</path>\n",
				"── value\n", "── diff (- recorded, + replayed)\n  - <path>/abs/a.txt</path>␍\n", "  + <path>/abs/a.txt</path>\n",
				"→ accept the replayed output: dsh-replay golden update " + mutated + "crlf-only.jsonl --call call_read_1\n",
				"→ then review: dsh-replay golden review " + mutated + "crlf-only.jsonl\n", "1 call shown"},
			[]string{"→ verified"}},
		{"meta moved", []string{mutated + "meta-absent.jsonl", "--diff"}, cmdutil.ExitOK,
			[]string{"── recorded presentationMeta\n  (none)\n", "→ accept the replayed output: "},
			[]string{"── diff"}},
		{"sides agree", []string{"../../testdata/verify/clean/bash.jsonl"}, cmdutil.ExitOK,
			[]string{"(the same)", "→ verified: the replayed side is the recorded one"}, []string{"golden update"}},
		{"no value", []string{"../../testdata/example/session.jsonl", "--call", "call_7_read"}, cmdutil.ExitOK,
			[]string{"the log recorded no value for this call: nothing to replay"}, []string{"golden update", "── value"}},
		{"with --raw", []string{mutated + "crlf-only.jsonl", "--raw"}, cmdutil.ExitUsage, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"show", "--diff", "--no-pager", "--color", "never"}, tt.args...)
			out, errOut, code := showCLI(t, args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.wantNone {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
		})
	}
}
