package web

import (
	"fmt"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Plugin is the upstream plugin name (without the dsh-/lasmex- prefix).
const Plugin = "tool-web"

// Shipped defaults (packages/web/tool-web/src/index.ts, search.ts).
const (
	DefaultSearchMaxResults    = 8
	DefaultSearchMaxQueries    = 4
	DefaultTimeoutMs           = 30000
	DefaultFetchMaxOutputChars = 200000
)

// Fork names accepted by the "fork" option.
const (
	ForkLasmeX = "lasmex"
	ForkDSH    = "dsh"
)

// Options are the resolved plugin options the projectors depend on.
type Options struct {
	Search, Fetch       bool
	Fork                string
	SearchMaxQueries    int
	FetchMaxOutputChars int
}

// ReadOptions resolves and checks plugins["tool-web"] as the plugin does at
// load; an invalid option is upstream's load failure.
func ReadOptions(cfg projector.Config) (Options, error) {
	o := Options{Fork: ForkLasmeX}
	if cfg.Host == ForkDSH {
		o.Fork = ForkDSH
	}
	var err error
	if o.Search, err = boolOption(cfg, "search", true); err != nil {
		return o, err
	}
	if o.Fetch, err = boolOption(cfg, "fetch", true); err != nil {
		return o, err
	}
	switch v := cfg.PluginOption(Plugin, "fork"); {
	case v.IsUndefined():
	case v.IsString() && (v.Str() == ForkLasmeX || v.Str() == ForkDSH):
		o.Fork = v.Str()
	default:
		return o, fmt.Errorf("%s: fork must be %q or %q, got %s", Plugin, ForkLasmeX, ForkDSH, jsonv.Short(v, 40))
	}
	for _, k := range []string{"searchMaxResults", "fetchTimeoutMs", "searchTimeoutMs"} {
		def := DefaultTimeoutMs
		if k == "searchMaxResults" {
			def = DefaultSearchMaxResults
		}
		if _, err := cfg.PluginPositiveInt(Plugin, k, def); err != nil {
			return o, err
		}
	}
	if o.FetchMaxOutputChars, err = cfg.PluginPositiveInt(Plugin, "fetchMaxOutputChars", DefaultFetchMaxOutputChars); err != nil {
		return o, err
	}
	o.SearchMaxQueries = DefaultSearchMaxQueries
	if o.Fork == ForkDSH {
		if o.SearchMaxQueries, err = cfg.PluginPositiveInt(Plugin, "searchMaxQueries", DefaultSearchMaxQueries); err != nil {
			return o, err
		}
	}
	return o, nil
}

func boolOption(cfg projector.Config, key string, def bool) (bool, error) {
	v := cfg.PluginOption(Plugin, key)
	switch {
	case v.IsUndefined():
		return def, nil
	case v.IsBool():
		return v.Bool(), nil
	}
	return false, fmt.Errorf("%s: %s must be a boolean, got %s", Plugin, key, jsonv.Short(v, 40))
}

// Tools builds the enabled tools for a configuration.
func Tools(cfg projector.Config) ([]*projector.Tool, error) {
	o, err := ReadOptions(cfg)
	if err != nil {
		return nil, err
	}
	var tools []*projector.Tool
	if o.Search {
		tools = append(tools, SearchTool(o))
	}
	if o.Fetch {
		tools = append(tools, FetchTool(o))
	}
	return tools, nil
}

// Register adds this family's tools to r (reading options from r.Config).
func Register(r *projector.Registry) error {
	tools, err := Tools(r.Config)
	if err != nil {
		return err
	}
	for _, t := range tools {
		if err := r.Add(t); err != nil {
			return err
		}
	}
	// Unless --config names the host, a log that names its host gets that
	// host's web_search, and in one that does not, a call in DSH's argument
	// shape is drawn by DSH's.
	if o, _ := ReadOptions(r.Config); o.Search && r.Config.Host == "" && r.Config.PluginOption(Plugin, "fork").IsUndefined() {
		dsh, err := ReadOptions(r.Config.WithHost(ForkDSH))
		if err != nil {
			return err
		}
		if err := r.AddHostTool(ForkDSH, SearchTool(dsh)); err != nil {
			return err
		}
		v, err := projector.NewVariant(Plugin, `--config '{"host":"dsh"}'`, []*projector.Tool{SearchTool(dsh)})
		if err != nil {
			return err
		}
		v.Fork = true
		r.Variants = append(r.Variants, v)
	}
	o, err := ReadOptions(r.Config)
	if err != nil {
		return err
	}
	return registerReleases(r, o)
}
