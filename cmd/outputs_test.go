package cmd

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/clitest"
)

// TestOutputIsAnInput: no command writes over one of its inputs, named
// directly or through a link; it refuses (exit 2, naming both) before it
// opens anything for writing.
func TestOutputIsAnInput(t *testing.T) {
	clitest.NoCI(t)
	for _, c := range []struct {
		name string
		args func(dir string) []string
		want []string // in stderr
	}{
		{"verify report is the log", func(d string) []string {
			return []string{"verify", "--report", "json=" + d + "/s.jsonl", d + "/s.jsonl"}
		}, []string{"--report json", "s.jsonl"}},
		{"verify report is a symlink to the log", func(d string) []string {
			os.Symlink("s.jsonl", d+"/link.jsonl")
			return []string{"verify", "--report", "text=" + d + "/link.jsonl", d + "/s.jsonl"}
		}, []string{"--report text", "link.jsonl", "is the input", "s.jsonl"}},
		{"verify report is a hard link to the log", func(d string) []string {
			os.Link(d+"/s.jsonl", d+"/hard.txt")
			return []string{"verify", "--report", "junit=" + d + "/hard.txt", d + "/s.jsonl"}
		}, []string{"--report junit", "hard.txt", "is the input"}},
		{"verify log named through a link, report the log", func(d string) []string {
			os.Symlink("s.jsonl", d+"/link.jsonl")
			return []string{"verify", "--report", "github=" + d + "/s.jsonl", d + "/link.jsonl"}
		}, []string{"--report github", "is the input", "link.jsonl"}},
		{"verify report is the sidecar", func(d string) []string {
			os.WriteFile(d+"/s.values.jsonl", nil, 0o644)
			return []string{"verify", "--report", "json=" + d + "/s.values.jsonl", d + "/s.jsonl"}
		}, []string{"s.values.jsonl", "is the input"}},
		{"verify report a log in the input directory", func(d string) []string {
			return []string{"verify", "--report", "json=" + d + "/new.jsonl", d}
		}, []string{"new.jsonl", "input directory"}},
		{"verify report is the step summary", func(d string) []string {
			t.Setenv("GITHUB_STEP_SUMMARY", d+"/s.jsonl")
			return []string{"verify", "--format", "github", d + "/s.jsonl"}
		}, []string{"$GITHUB_STEP_SUMMARY", "is the input"}},
		{"verify two reports one file", func(d string) []string {
			return []string{"verify", "--report", "json=" + d + "/r", "--report", "junit=" + d + "/r", d + "/s.jsonl"}
		}, []string{"same file"}},
		{"show html is the log", func(d string) []string {
			return []string{"show", "--html", d + "/s.jsonl", d + "/s.jsonl"}
		}, []string{"--html", "is the input", "s.jsonl"}},
		{"show html through a link", func(d string) []string {
			os.Symlink("s.jsonl", d+"/page.html")
			return []string{"show", "--html", d + "/page.html", d + "/s.jsonl"}
		}, []string{"--html", "page.html", "is the input"}},
		{"golden card golden is a link to another log", func(d string) []string {
			copyExample(t, d+"/b.jsonl")
			os.Symlink("b.jsonl", d+"/s.cards.txt")
			return []string{"golden", "update", "--no-review", d + "/s.jsonl", d + "/b.jsonl"}
		}, []string{"card golden", "s.cards.txt", "is the input", "b.jsonl"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := t.TempDir()
			copyExample(t, d+"/s.jsonl")
			args := c.args(d)
			before := snapshot(t, d)
			_, stderr, code := runBounded(t, args...)
			if code != cmdutil.ExitUsage {
				t.Errorf("%v: exit %d, want %d; stderr %q", args, code, cmdutil.ExitUsage, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("%v: stderr %q does not name %q", args, stderr, w)
				}
			}
			if after := snapshot(t, d); !cmp.Equal(after, before) {
				t.Errorf("%v: the directory changed: %s", args, cmp.Diff(before, after))
			}
		})
	}
	// The in-place re-recording of golden update is not a clash.
	d := t.TempDir()
	copyExample(t, d+"/s.jsonl")
	if _, stderr, code := runBounded(t, "golden", "update", "--no-review", d+"/s.jsonl"); code != 0 {
		t.Errorf("golden update in place: exit %d %s", code, stderr)
	}
}
