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
	// hostTools are each host's own definitions of the tools the two hosts
	// define differently, used for a log that names its host when the
	// configuration does not pin one (Config.Host).
	hostTools    map[string]map[string]*Tool
	hostMatchers map[string][]Matcher
	// releaseTools are the definitions DSH shipped from a later release
	// than the ports' baseline, newest first (see LookupAt).
	releaseTools map[string][]releaseTool
	// scoped are tools a plugin registers in an agent's scope, shadowing
	// global ones of the same name for that agent (tool-agent-team's, for
	// Team members), by scope.
	scoped map[string]map[string]*Tool

	// dynamic caches matcher results (nil = no match) so a dynamic tool is
	// compiled once and lookups are safe from parallel replay workers.
	mu      sync.Mutex
	dynamic map[dynKey]*Tool
}

// NewRegistry builds a registry from families; a duplicate name is an error.
func NewRegistry(cfg Config, families ...Family) (*Registry, error) {
	// Sized for the built-in ports (about 70), so the map does not grow
	// step by step while they are added.
	r := &Registry{Config: cfg, tools: make(map[string]*Tool, 80)}
	for _, f := range families {
		for _, t := range f(cfg) {
			if err := r.Add(t); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}

// Add registers one tool. Its schemas are compiled on first use (or by
// CheckSchemas), not here: building a registry is start-up cost of every
// command.
func (r *Registry) Add(t *Tool) error {
	if t == nil || t.Name == "" {
		return fmt.Errorf("tool without a name")
	}
	if _, dup := r.tools[t.Name]; dup {
		return fmt.Errorf("tool %q registered twice", t.Name)
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
	return r.matched("", name, r.matchers)
}

// matched resolves a dynamic name through matchers, caching the answer (nil
// included) under host and name, so a dynamic tool is compiled once.
//
// Locking rule: r.mu is taken only by matched and forget, and neither calls
// another method of the registry while holding it (matchers are plain
// functions of the name), so no path takes it twice.
func (r *Registry) matched(host, name string, matchers []Matcher) *Tool {
	if len(matchers) == 0 {
		return nil
	}
	key := dynKey{host, name}
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.dynamic[key]; ok {
		return t
	}
	var found *Tool
	for _, m := range matchers {
		if t := m(name); t != nil && t.SchemaErr() == nil {
			found = t
			break
		}
	}
	if r.dynamic == nil {
		r.dynamic = map[dynKey]*Tool{}
	}
	r.dynamic[key] = found
	return found
}

type dynKey struct{ host, name string }

func (r *Registry) forget(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k := range r.dynamic {
		if k.name == name {
			delete(r.dynamic, k)
		}
	}
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
	// A plugin's definition is checked here, where the user can be told.
	if err := t.SchemaErr(); err != nil {
		return false, err
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
	for _, m := range r.hostTools {
		delete(m, t.Name) // a plugin's definition is the deployment's, whatever the host
	}
	delete(r.releaseTools, t.Name) // and whatever the release
	r.forget(t.Name)
	return had, nil
}

// AddHostTool registers host's own definition of a tool whose definition
// differs between the hosts (see LookupFor).
func (r *Registry) AddHostTool(host string, t *Tool) error {
	if r.hostTools == nil {
		r.hostTools = map[string]map[string]*Tool{}
	}
	if r.hostTools[host] == nil {
		r.hostTools[host] = map[string]*Tool{}
	}
	r.hostTools[host][t.Name] = t
	return nil
}

// LookupFor is Lookup for a call from a log written by host ("" when the
// log does not say): that host's own definition where the hosts differ,
// unless the configuration pins the host.
func (r *Registry) LookupFor(name, host string) *Tool {
	if host != "" && r.Config.Host == "" {
		if t := r.hostTools[host][name]; t != nil {
			return t
		}
		if _, static := r.tools[name]; !static {
			if t := r.matched(host, name, r.hostMatchers[host]); t != nil {
				return t
			}
		}
	}
	return r.Lookup(name)
}

// CheckSchemas compiles the schemas of every static, host and variant tool
// and returns the first that cannot be compiled (the registry's own test of
// its ports; commands compile only what they use).
func (r *Registry) CheckSchemas() error {
	check := func(m map[string]*Tool) error {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if err := m[n].SchemaErr(); err != nil {
				return err
			}
		}
		return nil
	}
	if err := check(r.tools); err != nil {
		return err
	}
	hosts := make([]string, 0, len(r.hostTools))
	for h := range r.hostTools {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	for _, h := range hosts {
		if err := check(r.hostTools[h]); err != nil {
			return fmt.Errorf("%s: %w", h, err)
		}
	}
	names := make([]string, 0, len(r.releaseTools))
	for n := range r.releaseTools {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, rt := range r.releaseTools[n] {
			if err := rt.tool.SchemaErr(); err != nil {
				return fmt.Errorf("release %s: %w", rt.since, err)
			}
		}
	}
	scopes := make([]string, 0, len(r.scoped))
	for s := range r.scoped {
		scopes = append(scopes, s)
	}
	sort.Strings(scopes)
	for _, s := range scopes {
		if err := check(r.scoped[s]); err != nil {
			return fmt.Errorf("scope %s: %w", s, err)
		}
	}
	for _, v := range r.Variants {
		if v.tools == nil {
			continue
		}
		tools, err := v.tools()
		if err != nil {
			return err
		}
		if err := check(tools); err != nil {
			return fmt.Errorf("variant %s: %w", v.Plugin, err)
		}
	}
	return nil
}

// AddHostMatcher is AddMatcher for host's own definitions of dynamic names.
func (r *Registry) AddHostMatcher(host string, m Matcher) {
	if r.hostMatchers == nil {
		r.hostMatchers = map[string][]Matcher{}
	}
	r.hostMatchers[host] = append(r.hostMatchers[host], m)
}

// TeamScope is the scope of DSH's Agent Teams tools (tool-agent-team
// registers them in each Team member's agent scope).
const TeamScope = "team"

// Scopes of definitions a log's request header shows (Recorded.Variants;
// the names are logformat's Variant constants): tool-ask-user's opt-in
// timed ask_user_question, and exit_plan_mode with its details annex.
const (
	AskTimedScope    = "ask-timed"
	PlanDetailsScope = "plan-details"
)

// AddScopedTool registers a tool a plugin registers in an agent scope
// (scope "team": tool-agent-team's). A call resolves to it when the log
// shows the calling agent in that scope (see Recorded.Team), or when the
// log does not say and only it accepts the arguments (see Resolve).
func (r *Registry) AddScopedTool(scope string, t *Tool) error {
	if t == nil || t.Name == "" {
		return fmt.Errorf("tool without a name")
	}
	if r.scoped == nil {
		r.scoped = map[string]map[string]*Tool{}
	}
	if r.scoped[scope] == nil {
		r.scoped[scope] = map[string]*Tool{}
	}
	if _, dup := r.scoped[scope][t.Name]; dup {
		return fmt.Errorf("tool %q registered twice in scope %s", t.Name, scope)
	}
	r.scoped[scope][t.Name] = t
	return nil
}

// ScopedTools lists the tools registered in scope, by name.
func (r *Registry) ScopedTools(scope string) []*Tool {
	out := make([]*Tool, 0, len(r.scoped[scope]))
	for _, t := range r.scoped[scope] {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
