package jsplugin_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/gctune"
	"github.com/dsh-replay/dsh-replay/internal/upstreamtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
)

// BenchmarkUpstreamLoad: loading each upstream plugin that ships a ported
// tool (bundle, compile, the first runtime with apply) and its first
// projector call, with the bundle cache off (cold) and warm (cached), and
// all of them in turn, from each prepared tree it is given
// (DSH_REPLAY_UPSTREAM=TREE go test -run '^$' -bench UpstreamLoad
// -benchtime 5x ./projector/jsplugin), under the CLI's collector settings.
func BenchmarkUpstreamLoad(b *testing.B) {
	for _, h := range upstreamtest.Hosts {
		b.Run(h.Name, func(b *testing.B) { benchmarkUpstreamLoad(b, h.Tree(b), h.Name) })
	}
}

func benchmarkUpstreamLoad(b *testing.B, tree, host string) {
	defer gctune.Apply()() // the collector as the CLI runs it
	cfg := upstreamConfig(host)
	reg, err := builtin.Registry(cfg)
	if err != nil {
		b.Fatal(err)
	}
	// Entries made once: a wrapper made anew each time would be a new
	// entry, never found in the cache.
	type plugin struct{ name, entry string }
	var plugins []plugin
	for _, d := range portedPlugins(b, tree, reg) {
		plugins = append(plugins, plugin{filepath.Base(d), upstreamEntry(b, d)})
	}
	once := func(b *testing.B, d string) {
		p, err := jsplugin.Load(d, cfg)
		if err != nil {
			b.Fatal(err)
		}
		tool := p.Tools(cfg)[0]
		if tool.Output != nil {
			tool.RunRender(jsonv.Obj(), jsonv.NullValue()) // the first call, whatever it answers
		} else {
			tool.RunPresentCall(jsonv.Obj())
		}
	}
	for _, mode := range []string{"cold", "cached"} {
		cache := "off"
		if mode == "cached" {
			cache = b.TempDir()
		}
		b.Run(mode, func(b *testing.B) {
			old := os.Getenv("DSH_REPLAY_CACHE_DIR")
			os.Setenv("DSH_REPLAY_CACHE_DIR", cache)
			defer os.Setenv("DSH_REPLAY_CACHE_DIR", old)
			for _, p := range plugins {
				if mode == "cached" {
					once(b, p.entry) // warm the cache
				}
				b.Run(p.name, func(b *testing.B) {
					for b.Loop() {
						once(b, p.entry)
					}
				})
			}
			b.Run("all", func(b *testing.B) {
				for b.Loop() {
					for _, p := range plugins {
						once(b, p.entry)
					}
				}
			})
		})
	}
}
