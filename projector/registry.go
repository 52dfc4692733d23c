package projector

import (
	"fmt"
	"sort"
	"sync"
)

// Family builds the tools of one upstream plugin from the configuration.
type Family func(cfg Config) []*Tool

// Matcher resolves dynamic tool names (mcp__server__tool, configured subagent
// names); it returns nil when the name is not its own.
type Matcher func(name string) *Tool

// Registry maps recorded tool names to definitions.
type Registry struct {
	Config Config
	// Variants are other known deployments of some tools (see Variant).
	Variants []Variant
	tools    map[string]*Tool
	matchers []Matcher

	// dynamic caches matcher results (nil = no match) so a dynamic tool is
	// compiled once and lookups are safe from parallel replay workers.
	mu      sync.Mutex
	dynamic map[string]*Tool
}

// NewRegistry builds a registry from families; a duplicate name is an error.
func NewRegistry(cfg Config, families ...Family) (*Registry, error) {
	r := &Registry{Config: cfg, tools: map[string]*Tool{}}
	for _, f := range families {
		for _, t := range f(cfg) {
			if err := r.Add(t); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}

// Add registers one tool, compiling its schemas.
func (r *Registry) Add(t *Tool) error {
	if t == nil || t.Name == "" {
		return fmt.Errorf("tool without a name")
	}
	if _, dup := r.tools[t.Name]; dup {
		return fmt.Errorf("tool %q registered twice", t.Name)
	}
	if err := t.compile(); err != nil {
		return fmt.Errorf("tool %q: %w", t.Name, err)
	}
	r.tools[t.Name] = t
	return nil
}

// AddMatcher registers a resolver for dynamic names.
func (r *Registry) AddMatcher(m Matcher) { r.matchers = append(r.matchers, m) }

// Lookup finds the definition for a recorded tool name, or nil. It is safe
// for concurrent use once the registry is built (Add and AddMatcher are
// build-time only).
func (r *Registry) Lookup(name string) *Tool {
	if t, ok := r.tools[name]; ok {
		return t
	}
	if len(r.matchers) == 0 {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.dynamic[name]; ok {
		return t
	}
	var found *Tool
	for _, m := range r.matchers {
		if t := m(name); t != nil {
			if t.compiled == nil {
				if err := t.compile(); err != nil {
					continue
				}
			}
			found = t
			break
		}
	}
	if r.dynamic == nil {
		r.dynamic = map[string]*Tool{}
	}
	r.dynamic[name] = found
	return found
}

// Tools lists the static definitions by name.
func (r *Registry) Tools() []*Tool {
	out := make([]*Tool, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Replace registers t in place of a tool of the same name (a plugin's own
// definition beating a Go port for a run); it reports whether one was
// replaced.
func (r *Registry) Replace(t *Tool) (bool, error) {
	if t == nil || t.Name == "" {
		return false, fmt.Errorf("tool without a name")
	}
	if err := t.compile(); err != nil {
		return false, fmt.Errorf("tool %q: %w", t.Name, err)
	}
	_, had := r.tools[t.Name]
	if !had && len(r.matchers) > 0 {
		for _, m := range r.matchers {
			if m(t.Name) != nil {
				had = true
				break
			}
		}
	}
	r.tools[t.Name] = t
	r.mu.Lock()
	delete(r.dynamic, t.Name)
	r.mu.Unlock()
	return had, nil
}
