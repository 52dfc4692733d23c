package cmdutil

import (
	"fmt"

	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
	"github.com/dsh-replay/dsh-replay/report"
)

// PluginTool is a tool a --plugin added.
type PluginTool struct {
	Tool, Plugin, Path string
	// Replaces: a Go port of the same name is replaced for this run.
	Replaces bool
	// StandIn: why the stand-in answered for the harness packages installed
	// beside the plugin (empty: they were used).
	StandIn string
}

func (p PluginTool) String() string {
	s := fmt.Sprintf("%s from plugin %s (%s)", p.Tool, p.Plugin, p.Path)
	if p.Replaces {
		s += ", replacing the Go port"
	}
	if p.StandIn != "" {
		s += "; its installed harness packages did not load in the sandbox (" + p.StandIn + "), the stand-in answered for them"
	}
	return s
}

// Registry builds the registry of the Go ports for --config, then adds the
// tools of each --plugin (a plugin tool with a port's name replaces it).
func Registry(config string, plugins []string, lim jsplugin.Limits) (*projector.Registry, []PluginTool, error) {
	reg, added, _, err := registry(config, "", plugins, lim)
	return reg, added, err
}

// registry is Registry with the tools of the host installed at hostDir
// (when set) in place of the ports, before the plugins'.
func registry(config, hostDir string, plugins []string, lim jsplugin.Limits) (*projector.Registry, []PluginTool, *report.Host, error) {
	cfg, err := projector.LoadConfig(config)
	if err != nil {
		return nil, nil, nil, UsageErr("--config: %v", err)
	}
	reg, err := builtin.Registry(cfg)
	if err != nil {
		// The ports refuse an option as upstream's plugins do at load
		// ("grepMaxMatches must be a positive integer"): when the shipped
		// defaults build, the configuration is at fault, not this build.
		if config != "" {
			if _, derr := builtin.Registry(projector.Config{}); derr == nil {
				return nil, nil, nil, UsageErr("--config: %s: %v", config, err)
			}
		}
		return nil, nil, nil, Cannot(fmt.Errorf("building the tool registry: %w", err))
	}
	var host *report.Host
	if hostDir != "" {
		if host, cfg, err = addHost(reg, cfg, hostDir); err != nil {
			return nil, nil, nil, err
		}
	}
	added, err := addPlugins(reg, cfg, plugins, lim)
	if err != nil {
		return nil, nil, nil, err
	}
	return reg, added, host, nil
}
