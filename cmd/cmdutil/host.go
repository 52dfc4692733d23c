package cmdutil

import (
	"errors"
	"fmt"

	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/hostdir"
	"github.com/dsh-replay/dsh-replay/report"
)

// LoadHost discovers and loads the host installed at dir with cfg; ported
// tells Load which plugins the ports of reg come from. Its errors are the
// command's: a directory that is not an install is a usage error, a
// plugin that does not load could-not-verify.
func LoadHost(reg *projector.Registry, cfg projector.Config, dir string) (*hostdir.Loaded, error) {
	in, err := hostdir.Discover(dir)
	if err != nil {
		return nil, UsageErr("--host %v", err)
	}
	ported := map[string]bool{}
	for _, t := range reg.Tools() {
		ported[t.Plugin] = true
	}
	l, err := hostdir.Load(in, cfg, func(p string) bool { return ported[p] })
	if err != nil {
		var le *hostdir.LoadError
		if errors.As(err, &le) {
			return nil, Cannot(fmt.Errorf("--host %s: %w; the ports cover its tools, so the run cannot say it verified them with this host", dir, err))
		}
		return nil, Cannot(fmt.Errorf("--host %w", err))
	}
	return l, nil
}

// addHost loads the installed host's tool plugins and puts their tools in
// place of the ports; cfg comes back with the options it filled.
func addHost(reg *projector.Registry, cfg projector.Config, dir string) (*report.Host, projector.Config, error) {
	l, err := LoadHost(reg, cfg, dir)
	if err != nil {
		return nil, cfg, err
	}
	h := &report.Host{Product: l.Product, Version: l.Version, Dir: l.Dir, Layout: l.Layout, Filled: l.Filled}
	tools, _ := l.Tools()
	from := map[string]hostdir.Package{}
	for _, p := range l.Plugins {
		for _, t := range p.Tools {
			if _, ok := from[t.Name]; !ok {
				from[t.Name] = p.Package
			}
		}
	}
	for _, t := range tools {
		replaced, err := reg.Replace(t)
		if err != nil {
			return nil, cfg, Cannot(fmt.Errorf("--host %s: tool %s of %s: %w", dir, t.Name, from[t.Name].Name, err))
		}
		h.Tools = append(h.Tools, report.HostTool{Tool: t.Name, Plugin: from[t.Name].Name, Version: from[t.Name].Version, ReplacesPort: replaced})
	}
	for _, f := range l.Failed {
		h.NotLoaded = append(h.NotLoaded, fmt.Sprintf("%s: %v", f.Package.Name, f.Err))
	}
	return h, l.Config, nil
}
