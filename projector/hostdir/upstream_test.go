package hostdir_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/internal/upstreamtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
	"github.com/dsh-replay/dsh-replay/projector/hostdir"
)

// TestUpstreamHost discovers and loads each prepared tree it is given
// (DSH_REPLAY_UPSTREAM, DSH_REPLAY_UPSTREAM_LASMEX; a subtest per host) as
// --host does,
// and holds every tool it loads to its port on the worked examples. It
// fails when a plugin the ports come from does not load, when nothing
// loads ("0 of N loaded"), and when a tool differs from its port.
func TestUpstreamHost(t *testing.T) {
	for _, h := range upstreamtest.Hosts {
		t.Run(h.Name, func(t *testing.T) {
			dir := h.Tree(t)
			in, err := hostdir.Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			root, err := os.ReadFile(filepath.Join(dir, "package.json"))
			if err != nil {
				t.Fatal(err)
			}
			rootPkg := jsonv.MustParse(string(root))
			host := h.Name
			if want := rootPkg.Get("version").Str(); in.Host != host || in.Version != want || in.Layout != hostdir.SourceTree {
				t.Errorf("found %s %s %s (%s), want %s %s source tree", in.Host, in.Version, in.Layout, in.VersionFrom, host, want)
			}
			ports, err := builtin.Registry(projector.Config{})
			if err != nil {
				t.Fatal(err)
			}
			ported := map[string]bool{}
			for _, tool := range ports.Tools() {
				ported[tool.Plugin] = true
			}
			l, err := hostdir.Load(in, projector.Config{}, func(p string) bool { return ported[p] })
			if err != nil {
				t.Fatal(err)
			}
			tools, dups := l.Tools()
			if len(dups) > 0 {
				t.Errorf("tools registered twice: %v", dups)
			}
			// Every ported plugin the tree has is loaded, with tools.
			loaded := map[string]bool{}
			for _, p := range l.Plugins {
				loaded[p.Plugin] = true
			}
			for _, p := range in.Packages {
				if ported[p.Plugin] && !loaded[p.Plugin] && p.Plugin != "subagent-in-process-driver" {
					t.Errorf("%s: the ports come from it, but it loaded no tools", p.Name)
				}
			}
			for _, f := range l.Failed {
				t.Logf("not loaded (no port comes from it): %v", f)
			}
			summary := fmt.Sprintf("%s: %d of %d candidates loaded, %d tools, %d without tools, %d not loaded",
				in, len(l.Plugins), len(in.Packages), len(tools), len(l.NoTools), len(l.Failed))
			t.Log(summary)
			if len(l.Plugins) < len(in.Packages)/2 {
				t.Errorf("too little loaded: %s", summary)
			}
			conf := sharedtest.Dir(t, "conformance")
			examples, err := hostdir.ReadExamples([]string{filepath.Join(conf, "fs-examples.jsonl"), filepath.Join(conf, "other-examples.jsonl")})
			if err != nil {
				t.Fatal(err)
			}
			rows, err := hostdir.Drift(l, builtin.Registry, examples)
			if err != nil {
				t.Fatal(err)
			}
			agree, compared := 0, 0
			for _, r := range rows {
				agree += r.Agree
				compared += r.Examples
				if r.Status() == "differ" {
					t.Errorf("%s: %d of %d examples differ; first: %s", r.Tool, r.Differ, r.Examples, r.First)
				}
			}
			t.Logf("drift: %d examples compared, %d agree", compared, agree)
			if agree == 0 {
				t.Errorf("no example compared: %s", summary)
			}
		})
	}
}
