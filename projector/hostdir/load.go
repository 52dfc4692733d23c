package hostdir

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
)

// Loaded is an install's tool plugins, loaded.
type Loaded struct {
	*Install
	// Plugins are the candidates that registered tools, by name.
	Plugins []Plugin
	// NoTools are the candidates that registered no tool, or are not a
	// Cordis plugin (a library of the tools).
	NoTools []Package
	// Failed are the candidates that did not load and whose plugin no port
	// claims (a plugin that needs a live service at apply, or a library the
	// sandbox cannot bundle): their tools, if any, are not verified with
	// the host's code, and the report names them.
	Failed []*LoadError
	// Filled are the options a plugin requires that --config did not give,
	// set to what the host ships ("tool-todo.allowParallelInProgress=true").
	Filled []string
	// Config is the configuration the plugins were loaded with (--config
	// with Filled).
	Config projector.Config
}

// Plugin is one loaded tool plugin.
type Plugin struct {
	Package
	JS    *jsplugin.Plugin
	Tools []*projector.Tool
}

// LoadError is a candidate that did not load.
type LoadError struct {
	Install *Install
	Package Package
	Err     error
}

func (e *LoadError) Error() string {
	// Err starts with the package's directory (jsplugin's errors do).
	return fmt.Sprintf("%s %s: plugin %s did not load: %v", e.Install.Product, e.Install.Version, e.Package.Name, e.Err)
}

func (e *LoadError) Unwrap() error { return e.Err }

// required are the options upstream's plugins require (their Config has
// no default) with the values both hosts' shipped base bundle gives them,
// and tool-memory's, which no bundle sets, as upstream's tests do. They
// decide nothing a projector draws; without them the plugin does not load.
var required = map[string]string{
	"tool-fs-search": `{"sampleOverCapGlobResults": false}`,
	"tool-todo":      `{"allowParallelInProgress": true}`,
	"tool-subagent":  `{"provider": "spawn"}`,
	"plan-mode":      `{"section": "You are in plan mode."}`,
	"tool-memory":    `{"mutationPolicy": "approval", "defaultResultLimit": 20, "pinnedContextMaxBytes": 4096, "pinnedContextMaxItems": 16}`,
}

// WithRequired is cfg with each candidate's required options that cfg
// lacks set as the host ships them, and what was set.
func WithRequired(in *Install, cfg projector.Config) (projector.Config, []string) {
	var filled []string
	for _, p := range in.Packages {
		def, ok := required[p.Plugin]
		if !ok {
			continue
		}
		opts := cfg.Plugin(p.Plugin)
		if opts.IsDefined() && !opts.IsObject() {
			continue // an array of instances, or a mistake the plugin reports
		}
		if !opts.IsDefined() {
			opts = jsonv.Obj()
		}
		changed := false
		for _, m := range jsonv.MustParse(def).Members() {
			if !opts.Has(m.Key) {
				opts = opts.With(m.Key, m.Value)
				filled = append(filled, p.Plugin+"."+m.Key+"="+jsonv.Encode(m.Value))
				changed = true
			}
		}
		if changed {
			cfg = cfg.WithPlugin(p.Plugin, opts)
		}
	}
	sort.Strings(filled)
	return cfg, filled
}

// Load loads every candidate of in with cfg (WithRequired applied), a few
// at a time. A candidate that does not load, or loads only with the
// stand-in for the host's own packages, is an error naming it when ported
// says a Go port comes from that plugin: a run that says it verified those
// tools with the installed host must not quietly use the ports. Any other
// candidate that does not load is reported in Failed, and the run goes on:
// some first-party packages cannot be applied outside a running host at
// all (they need its terminals or its agents at apply), and failing the
// run for them would make every install unusable. Nothing loaded at all
// is an error.
func Load(in *Install, cfg projector.Config, ported func(plugin string) bool) (*Loaded, error) {
	cfg, filled := WithRequired(in, cfg)
	l := &Loaded{Install: in, Filled: filled, Config: cfg}
	type res struct {
		p   *jsplugin.Plugin
		err error
	}
	out := make([]res, len(in.Packages))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for i, pkg := range in.Packages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			p, err := jsplugin.Load(pkg.Dir, cfg)
			out[i] = res{p, err}
		}()
	}
	wg.Wait()
	for i, pkg := range in.Packages {
		r := out[i]
		var err error
		switch {
		case r.err != nil && noTools(r.err):
			l.NoTools = append(l.NoTools, pkg)
			continue
		case r.err != nil:
			err = hint(pkg, r.err)
		case r.p.StandIn != "":
			err = fmt.Errorf("the host's own packages it imports did not load in the sandbox: %s", r.p.StandIn)
		}
		if err != nil {
			le := &LoadError{in, pkg, err}
			if ported != nil && ported(pkg.Plugin) {
				return nil, le
			}
			l.Failed = append(l.Failed, le)
			continue
		}
		tools := r.p.Tools(cfg)
		if len(tools) == 0 {
			l.NoTools = append(l.NoTools, pkg)
			continue
		}
		l.Plugins = append(l.Plugins, Plugin{Package: pkg, JS: r.p, Tools: tools})
	}
	if len(l.Plugins) == 0 {
		msg := fmt.Sprintf("%s: 0 of %d tool plugin candidates loaded", in, len(in.Packages))
		if len(l.Failed) > 0 {
			msg += "; first: " + l.Failed[0].Error()
		}
		return nil, fmt.Errorf("%s", msg)
	}
	return l, nil
}

// noTools reports a load that failed only because the package defines no
// tool or is not a plugin (jsplugin's wording for both).
func noTools(err error) bool {
	s := err.Error()
	return strings.Contains(s, "the plugin defines no tools") || strings.Contains(s, "the module exports no Cordis plugin")
}

// hint adds how to give a plugin the options it rejected.
func hint(pkg Package, err error) error {
	if strings.Contains(err.Error(), "invalid config") {
		return fmt.Errorf("%w (give its options with --config '{\"plugins\": {%q: {...}}}')", err, pkg.Plugin)
	}
	return err
}

// Tools is every loaded tool by name; where two plugins register one name
// the first by package name is kept and the other reported in dups.
func (l *Loaded) Tools() (tools []*projector.Tool, dups []string) {
	seen := map[string]string{}
	for _, p := range l.Plugins {
		for _, t := range p.Tools {
			if prev, ok := seen[t.Name]; ok {
				dups = append(dups, fmt.Sprintf("%s (%s, also %s)", t.Name, prev, p.Name))
				continue
			}
			seen[t.Name] = p.Name
			tools = append(tools, t)
		}
	}
	sort.Slice(tools, func(i, j int) bool { return tools[i].Name < tools[j].Name })
	return tools, dups
}
