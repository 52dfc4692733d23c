package logformat

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/gctune"
)

const walkHugeProbeEnv = "DSH_REPLAY_WALK_HUGEHEAP_PROBE"

// TestWalkAsksForHugeHeap: a walk that finds HugeHeapLogs logs asks for the
// huge heap before anything reads them, one that finds fewer does not. Each
// case walks in a fresh process (the ask is once a process).
func TestWalkAsksForHugeHeap(t *testing.T) {
	if dir := os.Getenv(walkHugeProbeEnv); dir != "" {
		s, err := ExpandStream(dir, PathFilter{})
		if err != nil {
			t.Fatal(err)
		}
		n := len(s.Inputs().Paths)
		fmt.Printf("found %d asked %v\n", n, gctune.HugeHeapAsked())
		return
	}
	for _, c := range []struct {
		logs int
		want bool
	}{{HugeHeapLogs - 1, false}, {HugeHeapLogs, true}} {
		dir := t.TempDir()
		for i := range c.logs {
			// Spread over subdirectories, as a tree of fixtures is.
			sub := filepath.Join(dir, fmt.Sprintf("d%d", i%3))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("l%d.jsonl", i)), []byte("{}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestWalkAsksForHugeHeap$", "-test.count=1")
		cmd.Env = append(os.Environ(), walkHugeProbeEnv+"="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%d logs: %v\n%s", c.logs, err, out)
		}
		want := fmt.Sprintf("found %d asked %v", c.logs, c.want)
		if !strings.Contains(string(out), want) {
			t.Errorf("%d logs: want %q in\n%s", c.logs, want, out)
		}
	}
}
