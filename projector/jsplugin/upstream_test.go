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
		ported[tool.Plugin] = true
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
	show := func(v jsonv.Value, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		if !v.IsDefined() {
			return "undefined"
		}
		return jsonv.Encode(v)
	}
	check := func(what string, a jsonv.Value, ea error, b jsonv.Value, eb error, want string) {
		if (ea == nil) == (eb == nil) && jsonv.Encode(a) == jsonv.Encode(b) && a.IsDefined() == b.IsDefined() {
			return
		}
		d := fmt.Sprintf("  %s:\n    upstream JS: %s\n    Go port:     %s", what, show(a, ea), show(b, eb))
		if want != "" {
			d += "\n    record:      " + want
		}
		diffs = append(diffs, d)
	}
	field := func(k string) string {
		if !rec.Has(k) {
			return ""
		}
		return jsonv.Encode(rec.Get(k))
	}
	args, value := rec.Get("args"), rec.Get("value")
	if value.IsDefined() && !value.IsNull() && js.Output != nil && port.Output != nil {
		a, ea := js.RunRender(args, value)
		b, eb := port.RunRender(args, value)
		check("render", a, ea, b, eb, field("content"))
		am, _, ea := js.RunPresentationMeta(args, value)
		bm, _, eb := port.RunPresentationMeta(args, value)
		check("presentationMeta", am, ea, bm, eb, field("meta"))
	}
	a, ea := js.CallView(args)
	b, eb := port.CallView(args)
	check("presentCall", a, ea, b, eb, field("callView"))
	// presentResult on the record's result: resultInput, else its content
	// (text when a string), isError and meta.
	in := rec.Get("resultInput")
	if !in.IsObject() {
		content := rec.Get("content")
		if content.IsString() {
			content = jsonv.Arr(projector.Text(content.Str()))
		}
		in = jsonv.Obj(jsonv.M("content", content), jsonv.M("isError", jsonv.BoolValue(rec.Get("isError").IsBool() && rec.Get("isError").Bool())))
		if rec.Has("meta") {
			in = in.With("meta", rec.Get("meta"))
		}
	}
	if in.Get("content").IsArray() {
		r := projector.Result{Content: in.Get("content"), IsError: in.Get("isError").IsBool() && in.Get("isError").Bool(), Meta: in.Get("meta")}
		a, ea := js.ResultView(args, r)
		b, eb := port.ResultView(args, r)
		check("presentResult", a, ea, b, eb, field("resultView"))
	}
	return diffs
}

func rel(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil {
		return r
	}
	return p
}
