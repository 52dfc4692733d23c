package upstreamtest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Host is one pinned upstream and the variable naming its prepared tree.
type Host struct {
	Name   string // "dsh" or "lasmex", as the recorder and --config name it
	Env    string // the environment variable naming the tree
	Root   string // the name in the tree's root package.json
	Commit string // the commit the ports follow
}

// Hosts are the two upstreams, DSH first.
var Hosts = []Host{
	{"dsh", "DSH_REPLAY_UPSTREAM", "@deepseek-ai/dsh-root", "b150a551b8d465e31e418e1b2eaf5e79bbb7d28e"},
	{"lasmex", "DSH_REPLAY_UPSTREAM_LASMEX", "lasmex-root", "bdc153371dfe9dcd2917760f79c7c057ebbfb1fa"},
}

// Lookup is the host called name; it panics on a name not in Hosts (a
// mistake in a test, not in input).
func Lookup(name string) Host {
	for _, h := range Hosts {
		if h.Name == name {
			return h
		}
	}
	panic("upstreamtest: no host " + name)
}

// BuiltMarker is a file the host-library build writes (tsdown's output of
// the goal package), relative to the tree: its presence says the build ran.
const BuiltMarker = "packages/goal/goal/lib/typert.host.js"

// Tree is h's prepared tree: the test is skipped when h.Env is unset and
// fails when it names something that is not a prepared tree of h.
func (h Host) Tree(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(h.Env)
	if dir == "" {
		t.Skipf("%s is not set: it names a prepared %s tree (commit %.10s, workspace installed; docs/upstream.md)", h.Env, h.Name, h.Commit)
	}
	if problem := h.Check(dir); problem != "" {
		t.Fatalf("%s=%s: %s (docs/upstream.md)", h.Env, dir, problem)
	}
	return dir
}

// RequireBuilt fails the test unless tree's host libraries are built.
func (h Host) RequireBuilt(t testing.TB, tree string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(tree, filepath.FromSlash(BuiltMarker))); err != nil {
		t.Fatalf("%s=%s: the host libraries are not built (no %s): this test boots the %s CLI, which needs them (docs/upstream.md)", h.Env, tree, BuiltMarker, h.Name)
	}
}

// Check says what dir lacks to be a prepared tree of h, or "" when
// nothing: the sources (package.json naming h's workspace root, packages/)
// and the installed workspace (node_modules with tsx).
func (h Host) Check(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return fmt.Sprintf("not an upstream tree: %v", err)
	}
	var root struct{ Name string }
	if err := json.Unmarshal(b, &root); err != nil {
		return fmt.Sprintf("package.json: %v", err)
	}
	if root.Name != h.Root {
		for _, o := range Hosts {
			if o.Root == root.Name {
				return fmt.Sprintf("this is a %s tree (%s), not a %s one: it goes in %s", o.Name, root.Name, h.Name, o.Env)
			}
		}
		return fmt.Sprintf("package.json names %q, not %s's workspace root %q", root.Name, h.Name, h.Root)
	}
	if st, err := os.Stat(filepath.Join(dir, "packages")); err != nil || !st.IsDir() {
		return "no packages/ directory: not an upstream tree"
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "tsx", "package.json")); err != nil {
		return "the workspace is not installed (no node_modules/tsx)"
	}
	return ""
}

// MinNode is the oldest Node upstream's engines accept.
var MinNode = [3]int{22, 19, 0}

// Node is the path of the node first on PATH, failing the test unless it
// is at least MinNode (a tree was given, so a wrong Node is a failure).
func Node(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("no node on PATH: the upstream trees need Node >= %d.%d first on PATH (docs/upstream.md)", MinNode[0], MinNode[1])
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", bin, err)
	}
	v := strings.TrimSpace(string(out))
	if !AtLeast(v, MinNode) {
		t.Fatalf("%s is Node %s: the upstream trees need Node >= %d.%d first on PATH (docs/upstream.md)", bin, v, MinNode[0], MinNode[1])
	}
	return bin
}

// AtLeast reports whether a Node version string ("v22.23.3") is at least
// min; a string it cannot read is not.
func AtLeast(version string, min [3]int) bool {
	parts := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	if len(parts) != 3 {
		return false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return false
		}
		if n != min[i] {
			return n > min[i]
		}
	}
	return true
}
