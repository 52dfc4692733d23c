package shell

import (
	"fmt"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Register adds this family's tools to r (reading options from r.Config).
func Register(r *projector.Registry) error {
	tools, err := Tools(r.Config)
	if err != nil {
		return err
	}
	for _, t := range tools {
		if err := r.Add(withFinalizer(r.Config, t)); err != nil {
			return err
		}
	}
	return registerReleases(r)
}

// withFinalizer gives t the content finalizer its tool has, if any.
func withFinalizer(cfg projector.Config, t *projector.Tool) *projector.Tool {
	if HasFinalizer(t.Name) {
		name := t.Name
		t.FinalizeContent = func(args, value jsonv.Value, r projector.Result) jsonv.Value {
			return FinalizeContent(cfg, name, args, value, r)
		}
	}
	return t
}

// Tools builds the family's definitions for a deployment configuration.
func Tools(cfg projector.Config) ([]*projector.Tool, error) {
	escalation, err := sandboxConfined(cfg)
	if err != nil {
		return nil, err
	}
	var tools []*projector.Tool
	for _, s := range []struct {
		name, plugin, persistent, commandDesc, descriptionDesc, persistentDesc string
	}{
		{"bash", "tool-bash", "tool-bash-persistent", bashCommandDesc, bashDescriptionDesc, persistentCommandDesc},
		{"pwsh", "tool-pwsh", "tool-pwsh-persistent", pwshCommandDesc, pwshDescriptionDesc, pwshPersistentCmdDesc},
	} {
		if p := cfg.Plugin(s.persistent); p.IsDefined() {
			if !p.IsObject() {
				return nil, fmt.Errorf("plugins[%q] must be an object", s.persistent)
			}
			tools = append(tools, newPersistentShell(s.name, s.persistent, s.persistentDesc))
			continue
		}
		bg, err := boolOption(cfg, s.plugin, "enableRunInBackground", true)
		if err != nil {
			return nil, err
		}
		o := shellOptions{background: bg, escalation: escalation}
		tools = append(tools, newShellTool(s.name, s.plugin, shellParameters(s.commandDesc, s.descriptionDesc, bg, escalation), o))
	}
	tools = append(tools, jobTools()...)
	to, err := terminalConfig(cfg)
	if err != nil {
		return nil, err
	}
	return append(tools, terminalTools(to)...), nil
}

// sandboxConfined reports whether services.shell.sandboxMode is set.
func sandboxConfined(cfg projector.Config) (bool, error) {
	m := cfg.Service("shell").Get("sandboxMode")
	switch {
	case m.IsUndefined() || m.IsNull():
		return false, nil
	case m.IsString():
		return true, nil
	}
	return false, fmt.Errorf("services.shell.sandboxMode must be a string, got %s", jsonv.Short(m, 40))
}

func boolOption(cfg projector.Config, plugin, key string, def bool) (bool, error) {
	v := cfg.PluginOption(plugin, key)
	switch {
	case v.IsUndefined():
		return def, nil
	case v.IsBool():
		return v.Bool(), nil
	}
	return false, fmt.Errorf("%s: %s must be a boolean, got %s", plugin, key, jsonv.Short(v, 40))
}

// terminalConfig reads and checks tool-terminal's options as the plugin
// does at load.
func terminalConfig(cfg projector.Config) (terminalOptions, error) {
	bg, err := boolOption(cfg, "tool-terminal", "enableRunInBackground", true)
	if err != nil {
		return terminalOptions{}, err
	}
	o := terminalOptions{background: bg, maxResultBytes: DefaultMaxResultBytes}
	if v := cfg.PluginOption("tool-terminal", "maxResultBytes"); v.IsDefined() {
		if !v.IsInteger() || v.Num() < MinMaxResultBytes || v.Num() > maxSafeInteger {
			return terminalOptions{}, fmt.Errorf("tool-terminal: maxResultBytes must be a safe integer of at least %d, got %s", MinMaxResultBytes, jsonv.Short(v, 40))
		}
		o.maxResultBytes = int(v.Num())
	}
	return o, nil
}

// Variants are the other shell deployments of cfg: the persistent-PTY bash
// and pwsh when cfg does not select them, and the plain ones when it does.
// Their presenters accept other arguments (no description, say), so a
// presenter that declines recorded arguments can name the --config that
// would accept them.
func Variants(cfg projector.Config) ([]projector.Variant, error) {
	var out []projector.Variant
	for _, s := range []struct{ name, persistent string }{{"bash", "tool-bash-persistent"}, {"pwsh", "tool-pwsh-persistent"}} {
		var alt projector.Config
		var selects string
		if cfg.Plugin(s.persistent).IsDefined() {
			alt = cfg.WithPlugin(s.persistent, jsonv.Value{})
			selects = fmt.Sprintf(`a --config FILE without plugins[%q]`, s.persistent)
		} else {
			alt = cfg.WithPlugin(s.persistent, jsonv.Obj())
			selects = fmt.Sprintf(`a --config FILE holding {"plugins": {%q: {}}}`, s.persistent)
		}
		name := s.name
		out = append(out, projector.LazyVariant(s.persistent, selects, func() ([]*projector.Tool, error) {
			tools, err := Tools(alt)
			if err != nil {
				return nil, err
			}
			var mine []*projector.Tool
			for _, t := range tools {
				if t.Name == name {
					mine = append(mine, t)
				}
			}
			return mine, nil
		}))
	}
	return out, nil
}
