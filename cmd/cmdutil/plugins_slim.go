//go:build slim

package cmdutil

import (
	"errors"

	"github.com/dsh-replay/dsh-replay/projector"
)

// addPlugins is never reached with plugins in the slim build: Registry
// hands the command to the full build first.
func addPlugins(_ *projector.Registry, _ projector.Config, plugins []string) ([]PluginTool, error) {
	if len(plugins) > 0 {
		return nil, Cannot(errors.New("--plugin: the plugin engine is not in this build"))
	}
	return nil, nil
}
