package cmdutil

import "github.com/dsh-replay/dsh-replay/projector/jsplugin"

// Factory is what every command is built with (gh's NewCmdX(f, runF)), in
// place of package state: the CLI builds one, tests their own. The
// streams are cobra's, given to Execute.
type Factory struct {
	// ChildEnv is added to the environment of the processes a command
	// starts (verify --shake's perturbed runs re-execute the binary): a
	// test sets what makes its test binary act as the CLI.
	ChildEnv []string
	// PluginLimits bound the code of each --plugin (zero fields:
	// jsplugin.DefaultLimits).
	PluginLimits jsplugin.Limits
}
