package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/upstreamtest"
)

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// node runs a TypeScript file with tsx from the tree's root, on the Node
// first on PATH.
func node(t *testing.T, tree string, args ...string) string {
	t.Helper()
	cmd := exec.Command(upstreamtest.Node(t), append([]string{"--no-warnings", "--import", "tsx/esm"}, args...)...)
	cmd.Dir = tree
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestRecorderPlugin runs the recorder plugin in the real DSH host (the
// prepared tree DSH_REPLAY_UPSTREAM names): its own checks, then a scripted
// session whose sidecar verify must accept.
func TestRecorderPlugin(t *testing.T) {
	tree := upstreamtest.Lookup("dsh").Tree(t)
	driver, err := filepath.Abs("../recorder/driver")
	if err != nil {
		t.Fatal(err)
	}
	if out := node(t, tree, filepath.Join(driver, "selftest.ts")); !strings.Contains(out, "selftest ok") {
		t.Fatalf("selftest: %s", out)
	}
	out := t.TempDir()
	node(t, tree, filepath.Join(driver, "record.ts"), "--host", "dsh", "--tree", tree, "--out", out,
		"--base", t.TempDir(), "--port", "0", "--only", "code-mode")
	log := filepath.Join(out, "dsh", "code-mode", "session.jsonl")
	if !fileExists(filepath.Join(out, "dsh", "code-mode", "session.values.jsonl")) {
		t.Fatal("the plugin wrote no sidecar")
	}
	stdout, errOut, code := verifyCLI(t, "", "--strict", "--format", "json", "--deterministic", log)
	if code != cmdutil.ExitOK {
		t.Fatalf("verify exit %d\n%s%s", code, stdout, errOut)
	}
	s := parseNDJSON(t, stdout).summary
	// One sub-call (rc-3's read of a missing file) fails on purpose: a
	// failure has no value.
	if calls := s["calls"].(float64); calls < 10 || s["checkedWithValues"].(float64) != calls-1 {
		t.Errorf("want every successful call checked with its recorded value: %v", s["verdict"])
	}
}

// TestRecorderInProfile boots each host's real CLI with the recorder
// installed as the README says (scripts/recorder-profile.sh): the sidecar it
// writes beside the host's own log is private and verify checks the call with
// its value. It needs each tree's host libraries built, and fails when a
// tree it is given has none.
func TestRecorderInProfile(t *testing.T) {
	for _, h := range upstreamtest.Hosts {
		t.Run(h.Name, func(t *testing.T) {
			tree := h.Tree(t)
			h.RequireBuilt(t, tree)
			upstreamtest.Node(t)
			out := t.TempDir()
			cmd := exec.Command("bash", "../scripts/recorder-profile.sh", h.Name, out)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("recorder-profile.sh: %v\n%s", err, b)
			}
			st, err := os.Stat(filepath.Join(out, "session.values.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != 0o600 {
				t.Errorf("sidecar mode %v, want 0600 like the log", st.Mode().Perm())
			}
			stdout, errOut, code := verifyCLI(t, "", "--strict", "--format", "json", "--deterministic", out)
			if code != cmdutil.ExitOK {
				t.Fatalf("verify exit %d\n%s%s", code, stdout, errOut)
			}
			if s := parseNDJSON(t, stdout).summary; s["calls"].(float64) != 1 || s["checkedWithValues"].(float64) != 1 {
				t.Errorf("want the read call checked with its value: %v", s["verdict"])
			}
		})
	}
}
