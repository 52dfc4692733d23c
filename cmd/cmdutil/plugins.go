package cmdutil

import (
	"fmt"

	"github.com/dsh-replay/dsh-replay/internal/gctune"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
)

// addPlugins loads each --plugin into the sandbox and adds its tools.
func addPlugins(reg *projector.Registry, cfg projector.Config, plugins []string, lim jsplugin.Limits) ([]PluginTool, error) {
	var added []PluginTool
	for _, path := range plugins {
		p, err := jsplugin.LoadWith(path, cfg, jsplugin.LoadOptions{Reserve: gctune.Reserve, Limits: lim})
		if err != nil {
			// The error starts with the plugin's path.
			return nil, Cannot(fmt.Errorf("--plugin %w", err))
		}
		for _, t := range p.Tools(cfg) {
			replaced, err := reg.Replace(t)
			if err != nil {
				return nil, Cannot(fmt.Errorf("--plugin %s: %w", path, err))
			}
			added = append(added, PluginTool{Tool: t.Name, Plugin: p.Name, Path: path, Replaces: replaced, StandIn: p.StandIn})
		}
	}
	return added, nil
}
