package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// upstreamTree is a prepared upstream tree (../shared/upstream/prepare.sh:
// sources plus node_modules) and the Node 22 beside it, or a skip.
func upstreamTree(t *testing.T, name string) (tree, path string) {
	t.Helper()
	tree = os.Getenv("DSH_REPLAY_UPSTREAM_TREE")
	if tree == "" {
		home, _ := os.UserHomeDir()
		tree = filepath.Join(home, ".cache", "dsh-replay", "upstream", name)
	}
	if _, err := os.Stat(filepath.Join(tree, "node_modules", "tsx")); err != nil {
		t.Skipf("skipped: no prepared upstream tree at %s (run ../shared/upstream/prepare.sh deepseek-harness, or set DSH_REPLAY_UPSTREAM_TREE)", tree)
	}
	path = os.Getenv("PATH")
	if bin := filepath.Join(filepath.Dir(tree), "node22", "node_modules", ".bin"); fileExists(filepath.Join(bin, "node")) {
		path = bin + string(os.PathListSeparator) + path
	}
	return tree, path
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func node(t *testing.T, tree, path string, args ...string) string {
	t.Helper()
	bin := "node"
	if nb := filepath.Join(strings.SplitN(path, string(os.PathListSeparator), 2)[0], "node"); fileExists(nb) {
		bin = nb // exec.Command looks a name up in this process's PATH, not cmd.Env's
	}
	cmd := exec.Command(bin, append([]string{"--no-warnings", "--import", "tsx/esm"}, args...)...)
	cmd.Dir = tree
	cmd.Env = append(os.Environ(), "PATH="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestRecorderPlugin runs the recorder plugin in the real DSH host: its own
// checks, then a scripted session whose sidecar verify must accept.
func TestRecorderPlugin(t *testing.T) {
	tree, path := upstreamTree(t, "deepseek-harness-b150a551b8")
	driver, err := filepath.Abs("../recorder/driver")
	if err != nil {
		t.Fatal(err)
	}
	if out := node(t, tree, path, filepath.Join(driver, "selftest.ts")); !strings.Contains(out, "selftest ok") {
		t.Fatalf("selftest: %s", out)
	}
	out := t.TempDir()
	node(t, tree, path, filepath.Join(driver, "record.ts"), "--host", "dsh", "--tree", tree, "--out", out,
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
// its value. It needs the host libraries built (pnpm run build:lib:host).
func TestRecorderInProfile(t *testing.T) {
	for _, h := range []struct{ host, tree string }{
		{"dsh", "deepseek-harness-b150a551b8"},
		{"lasmex", "lasmex-bdc153371d"},
	} {
		t.Run(h.host, func(t *testing.T) {
			tree, path := upstreamTree(t, h.tree)
			if !fileExists(filepath.Join(tree, "packages", "goal", "goal", "lib", "typert.host.js")) {
				t.Skipf("skipped: the %s tree's host libraries are not built (cd %s && pnpm run build:lib:host)", h.host, tree)
			}
			out := t.TempDir()
			cmd := exec.Command("bash", "../scripts/recorder-profile.sh", h.host, tree, out)
			cmd.Env = append(os.Environ(), "PATH="+path)
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
