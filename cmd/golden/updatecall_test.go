package golden

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/clitest"
)

// TestGoldenUpdateCall: update --call re-records only the calls named (the
// command a divergence's hint prints); a call no log has is a usage error
// before anything is written.
func TestGoldenUpdateCall(t *testing.T) {
	clitest.NoCI(t)
	tests := []struct {
		name  string
		calls []string
		code  int
		want  []string
	}{
		{"one call", []string{"call_read_1"}, cmdutil.ExitOK, []string{": 1 call re-recorded (call_read_1 "}},
		{"two calls", []string{"call_read_1", "call_grep_1"}, cmdutil.ExitOK, []string{": 2 calls re-recorded (", "call_read_1", "call_grep_1"}},
		{"unknown call", []string{"call_nope"}, cmdutil.ExitUsage, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyTree(t, goldenData("drift"))
			before := snapshot(t, dir)
			args := []string{"golden", "update", "--no-review", filepath.Join(dir, "session.jsonl")}
			for _, c := range tt.calls {
				args = append(args, "--call", c)
			}
			out, errOut, code := goldenCLI(t, args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, out, errOut)
			}
			mustContain(t, tt.name, out, tt.want...)
			after := snapshot(t, dir)
			if tt.code != cmdutil.ExitOK {
				for k := range before {
					if !bytes.Equal(before[k], after[k]) || len(after) != len(before) {
						t.Errorf("a refused update changed %s", k)
					}
				}
			}
		})
	}
}
