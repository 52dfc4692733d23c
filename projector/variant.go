package projector

import (
	"fmt"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Variant is another known deployment of some of the registry's tools: a
// plugin that registers a tool under the same name with other parameters
// (tool-bash-persistent's bash, say). When a presenter declines recorded
// arguments, a variant that accepts them tells the user which --config was
// probably in force.
type Variant struct {
	// Plugin is the plugin whose presence or absence selects the variant.
	Plugin string
	// Selects says how: the --config change that would select it.
	Selects string
	// tools are the variant's definitions by name, built the first time one
	// is asked for (most runs never ask).
	tools func() (map[string]*Tool, error)
	// Fork marks the other host's definition of a tool (DSH's web_search
	// beside LasmeX's): a log does not name its host, so a call whose
	// arguments this variant accepts and the registry's tool declines is
	// drawn by this variant, without a finding. Unset when --config pins
	// the host.
	Fork bool
}

// Declines reports the soft-validation violations for which the tool's
// presenters return no view on args (none when it has no presenters or
// they are not wrapped by defineTool).
func (t *Tool) Declines(args jsonv.Value) []Violation {
	if t.RawPresenters || (t.PresentCall == nil && t.PresentResult == nil) {
		return nil
	}
	return t.ValidateArgs(args)
}

// AcceptingVariant is the first variant whose tool of that name has
// presenters that accept args, or nil.
func (r *Registry) AcceptingVariant(name string, args jsonv.Value) *Variant {
	for i := range r.Variants {
		v := &r.Variants[i]
		if t := v.Tool(name); t != nil && (t.PresentCall != nil || t.PresentResult != nil) && len(t.Declines(args)) == 0 {
			return v
		}
	}
	return nil
}

// WithPlugin is the configuration with plugin set to opts (undefined: removed).
func (c Config) WithPlugin(plugin string, opts jsonv.Value) Config {
	p := c.Plugins
	if !p.IsObject() {
		p = jsonv.Obj()
	}
	return Config{Plugins: p.With(plugin, opts), Services: c.Services, Host: c.Host}
}

// WithHost is the configuration with Host set.
func (c Config) WithHost(host string) Config {
	c.Host = host
	return c
}

// NewVariant builds a variant; its tools' schemas compile on first use.
func NewVariant(plugin, selects string, tools []*Tool) (Variant, error) {
	return LazyVariant(plugin, selects, func() ([]*Tool, error) { return tools, nil }), nil
}

// LazyVariant is a variant whose tools build makes the first time one is
// asked for.
func LazyVariant(plugin, selects string, build func() ([]*Tool, error)) Variant {
	return Variant{Plugin: plugin, Selects: selects, tools: sync.OnceValues(func() (map[string]*Tool, error) {
		tools, err := build()
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", plugin, err)
		}
		m := make(map[string]*Tool, len(tools))
		for _, t := range tools {
			m[t.Name] = t
		}
		return m, nil
	})}
}

// Tool is the variant's definition of name, or nil (also when the
// variant's tools could not be built: Registry.CheckSchemas reports that).
func (v *Variant) Tool(name string) *Tool {
	if v.tools == nil {
		return nil
	}
	m, _ := v.tools()
	return m[name]
}
