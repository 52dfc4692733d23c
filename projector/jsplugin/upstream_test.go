package jsplugin_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/internal/upstreamtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
	"github.com/dsh-replay/dsh-replay/projector/hostdir"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
)

// upstreamConfig holds the deployment options upstream's plugins require
// (no defaults for these), the Go ports reading the same, pinned to the
// tree's host where the hosts differ (web_search's arguments, a background
// subagent's wording).
func upstreamConfig(host string) projector.Config {
	plugins := jsonv.MustParse(`{
  "tool-fs-search": {"sampleOverCapGlobResults": true},
  "tool-todo": {"allowParallelInProgress": true},
  "tool-subagent": {"provider": "spawn"},
  "plan-mode": {"section": "Plan first."},
  "tool-memory": {"mutationPolicy": "approval", "defaultResultLimit": 20, "pinnedContextMaxBytes": 4096, "pinnedContextMaxItems": 16}
}`)
	return projector.Config{Plugins: plugins, Host: host}
}

// portedPlugins are the upstream package directories that ship a tool the
// Go ports cover, by the plugin names the ports carry.
func portedPlugins(t testing.TB, tree string, reg *projector.Registry) []string {
	t.Helper()
	ported := map[string]bool{}
	for _, tool := range reg.Tools() {
		ported[tool.Plugin] = !scopedOnly[tool.Plugin]
	}
	var dirs []string
	filepath.WalkDir(filepath.Join(tree, "packages"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "tests" || d.Name() == "dist" || d.Name() == "src") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "package.json" && ported[filepath.Base(filepath.Dir(p))] {
			dirs = append(dirs, filepath.Dir(p))
		}
		return nil
	})
	sort.Strings(dirs)
	return dirs
}

// scopedOnly are plugins that register their tools only in an agent's
// scope at run time (tool-agent-team: in each Team member's, as a member is
// created): the sandbox creates no member, so they cannot load here. Their
// ports are held to the plugin's own definitions, run on the pinned tree, by
// the vectors recorder/driver/team-vectors.ts writes (projector/agent's
// TestTeamVectors).
var scopedOnly = map[string]bool{"tool-agent-team": true}

// loadUpstream loads one upstream package as the host would reach its
// tools (upstreamEntry).
func loadUpstream(t testing.TB, dir string, cfg projector.Config) (*jsplugin.Plugin, error) {
	t.Helper()
	return jsplugin.Load(upstreamEntry(t, dir), cfg)
}

// upstreamEntry is what to load for one upstream package: the package
// itself, except the in-process subagent driver, a library, not a plugin:
// the spawn provider runs it, and in a child's creation window it
// registers structured_output on the child's tools
// (attachStructuredRuntime, its public src/ subpath) when the start
// request carries an output schema. A two-line plugin, in a directory of
// t's, does what that window does, importing it from the tree through a
// node_modules link.
func upstreamEntry(t testing.TB, dir string) string {
	t.Helper()
	if filepath.Base(dir) != "subagent-in-process-driver" {
		return dir
	}
	pkg, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	name := jsonv.MustParse(string(pkg)).Get("name").Str()
	w := t.TempDir()
	link := filepath.Join(w, "node_modules", filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	src := "import { attachStructuredRuntime } from '" + name + "/src/structured.ts'\n" +
		"export const name = 'subagent-in-process-driver'\n" +
		"export function apply(ctx) { attachStructuredRuntime(ctx, { type: 'object', properties: {} }) }\n"
	if err := os.WriteFile(filepath.Join(w, "index.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestUpstreamCrossCheck loads every upstream first-party plugin that
// ships a ported tool from each prepared upstream tree it is given
// (DSH_REPLAY_UPSTREAM, DSH_REPLAY_UPSTREAM_LASMEX; a subtest per host) and
// holds its projectors and presenters to the Go ports on the worked
// conformance examples. It fails when one of those plugins does not load
// (or loads only with the stand-in), when any example disagrees, and when
// nothing was compared.
func TestUpstreamCrossCheck(t *testing.T) {
	for _, h := range upstreamtest.Hosts {
		t.Run(h.Name, func(t *testing.T) { crossCheck(t, h.Tree(t), h.Name) })
	}
}

func crossCheck(t *testing.T, tree, host string) {
	conf := sharedtest.Dir(t, "conformance")
	cfg := upstreamConfig(host)
	reg, err := builtin.Registry(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dirs := portedPlugins(t, tree, reg)
	jsTools := map[string]*projector.Tool{}
	pluginDir := map[string]string{} // tool -> its package
	loaded := 0
	for _, d := range dirs {
		p, err := loadUpstream(t, d, cfg)
		if err != nil {
			t.Errorf("%s: not loaded: %v", rel(tree, d), err)
			continue
		}
		if p.StandIn != "" {
			t.Errorf("%s: loaded only with the stand-in for its harness packages: %s", rel(tree, d), p.StandIn)
			continue
		}
		loaded++
		for _, tool := range p.Tools(cfg) {
			jsTools[tool.Name] = tool
			pluginDir[tool.Name] = d
		}
	}
	for _, tool := range reg.Tools() {
		if jsTools[tool.Name] == nil {
			t.Logf("ported tool %s (%s): no upstream plugin here registers it", tool.Name, tool.Plugin)
		}
	}
	// A record with its own options runs against both sides built with them.
	type sides struct{ js, port *projector.Tool }
	configured := map[string]sides{}
	withConfig := func(name string, opts jsonv.Value) (sides, error) {
		port := reg.Lookup(name)
		key := name + "\x00" + jsonv.Encode(opts)
		if s, ok := configured[key]; ok {
			return s, nil
		}
		merged := cfg.Plugin(port.Plugin)
		if !merged.IsObject() {
			merged = jsonv.Obj()
		}
		for _, m := range opts.Members() {
			merged = merged.With(m.Key, m.Value)
		}
		c := cfg.WithPlugin(port.Plugin, merged)
		r, err := builtin.Registry(c)
		if err != nil {
			return sides{}, err
		}
		p, err := loadUpstream(t, pluginDir[name], c)
		if err != nil {
			return sides{}, err
		}
		s := sides{port: r.Lookup(name)}
		for _, tool := range p.Tools(c) {
			if tool.Name == name {
				s.js = tool
			}
		}
		configured[key] = s
		return s, nil
	}
	agree, differ := 0, 0
	for _, file := range []string{"fs-examples.jsonl", "other-examples.jsonl"} {
		f, err := os.Open(filepath.Join(conf, file))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		line := 0
		for sc.Scan() {
			line++
			rec := jsonv.MustParse(sc.Text())
			name := rec.Get("tool").Str()
			s := sides{js: jsTools[name], port: reg.Lookup(name)}
			if s.js == nil || s.port == nil {
				continue
			}
			if rec.Has("config") {
				if s, err = withConfig(name, rec.Get("config")); err != nil || s.js == nil {
					t.Errorf("%s:%d: %s with %s: %v", file, line, name, jsonv.Encode(rec.Get("config")), err)
					differ++
					continue
				}
			}
			if diffs := compareExample(rec, s.js, s.port); len(diffs) > 0 {
				differ++
				t.Errorf("%s:%d (%s): the upstream plugin and the Go port differ:\n%s", file, line, name, strings.Join(diffs, "\n"))
			} else {
				agree++
			}
		}
		f.Close()
	}
	summary := fmt.Sprintf("upstream plugins: %d of %d loaded, %d tools; conformance examples: %d agree, %d differ", loaded, len(dirs), len(jsTools), agree, differ)
	t.Log(summary)
	fmt.Println(summary)
	if len(dirs) == 0 || agree == 0 {
		t.Errorf("nothing to check in %s: %s", tree, summary)
	}
}

// compareExample runs every projector the record exercises on both sides
// and describes each disagreement (with the record's own answer, when it
// has one, to tell which side is wrong).
func compareExample(rec jsonv.Value, js, port *projector.Tool) []string {
	var diffs []string
	for _, d := range hostdir.ExampleDiffs(rec, js, port) {
		s := fmt.Sprintf("  %s:\n    upstream JS: %s\n    Go port:     %s", d.What, d.Host, d.Port)
		if d.Want != "" {
			s += "\n    record:      " + d.Want
		}
		diffs = append(diffs, s)
	}
	return diffs
}

func rel(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil {
		return r
	}
	return p
}
