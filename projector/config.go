package projector

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Config is the deployment configuration the projectors read (it is not in
// the log): {"plugins": {"tool-fs-search": {...}}, "services": {"shell": {...}}}.
// Plugin names carry no dsh-/lasmex- prefix; option names are upstream's.
type Config struct {
	Plugins  jsonv.Value
	Services jsonv.Value
	// Host pins the harness whose tool definitions apply where the two hosts
	// differ ("dsh", "lasmex"); "" lets each log say (logformat.Call.Host).
	Host string
	// Release pins the DSH release whose projectors apply where releases
	// differ ("0.1.5"); "" lets each log say (logformat.Call.Release).
	Release string
}

// IsRelease reports whether s is a DSH release: 0.1.5, 0.1.7-alpha.1,
// 0.1.1-rc.2 (three numbers, then an optional "-" and a pre-release tag).
func IsRelease(s string) bool {
	core, pre, hasPre := strings.Cut(s, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 || hasPre && pre == "" {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return strings.Trim(pre, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.") == ""
}

// Hosts are the values of Config.Host.
var Hosts = []string{"dsh", "lasmex"}

// Plugin is the option object of one plugin (undefined when not configured).
func (c Config) Plugin(name string) jsonv.Value { return c.Plugins.Get(name) }

// Service is the option object of one service.
func (c Config) Service(name string) jsonv.Value { return c.Services.Get(name) }

// PluginOption is one option of a plugin, undefined when not set.
func (c Config) PluginOption(plugin, key string) jsonv.Value { return c.Plugins.Get(plugin).Get(key) }

// PluginInt reads an integer option with its shipped default.
func (c Config) PluginInt(plugin, key string, def int) int {
	v := c.PluginOption(plugin, key)
	if v.IsNumber() && v.IsInteger() {
		return int(v.Num())
	}
	return def
}

// PluginBool reads a boolean option with its shipped default.
func (c Config) PluginBool(plugin, key string, def bool) bool {
	v := c.PluginOption(plugin, key)
	if v.IsBool() {
		return v.Bool()
	}
	return def
}

// PluginString reads a string option with its shipped default.
func (c Config) PluginString(plugin, key string, def string) string {
	v := c.PluginOption(plugin, key)
	if v.IsString() {
		return v.Str()
	}
	return def
}

// ParseConfig parses a configuration document.
func ParseConfig(data []byte) (Config, error) {
	v, err := jsonv.Parse(data)
	if err != nil {
		return Config{}, err
	}
	if !v.IsObject() {
		return Config{}, fmt.Errorf("configuration must be a JSON object")
	}
	for _, m := range v.Members() {
		switch m.Key {
		case "plugins", "services":
			if !m.Value.IsObject() {
				return Config{}, fmt.Errorf("configuration %q must be an object", m.Key)
			}
		case "host":
			if !m.Value.IsString() || (m.Value.Str() != "dsh" && m.Value.Str() != "lasmex") {
				return Config{}, fmt.Errorf(`configuration "host" must be "dsh" or "lasmex", got %s`, jsonv.Short(m.Value, 40))
			}
		case "release":
			if !m.Value.IsString() || !IsRelease(m.Value.Str()) {
				return Config{}, fmt.Errorf(`configuration "release" must be a DSH release such as "0.1.5", got %s`, jsonv.Short(m.Value, 40))
			}
		default:
			return Config{}, fmt.Errorf("configuration has unknown key %q (want plugins, services, host, release)", m.Key)
		}
	}
	plugins := jsonv.Obj()
	for _, m := range v.Get("plugins").Members() {
		name := strings.TrimPrefix(strings.TrimPrefix(m.Key, "dsh-"), "lasmex-")
		plugins = plugins.With(name, m.Value)
	}
	return Config{Plugins: plugins, Services: v.Get("services"), Host: v.Get("host").Str(), Release: v.Get("release").Str()}, nil
}

// MaxConfigBytes bounds --config: a real configuration is a few hundred
// bytes, and /dev/zero or a runaway pipe must fail fast, not fill memory.
const MaxConfigBytes = 1 << 20

// LoadConfig reads --config FILE (a pipe too, as <(...) gives) or inline
// JSON (an argument starting with "{"); an empty path is the shipped
// defaults.
func LoadConfig(path string) (Config, error) {
	if path == "" {
		return Config{}, nil
	}
	// Inline JSON ('{"host":"dsh"}'): no configuration file is named "{...".
	if strings.HasPrefix(strings.TrimSpace(path), "{") {
		if len(path) > MaxConfigBytes {
			return Config{}, fmt.Errorf("inline configuration larger than %d MiB", MaxConfigBytes>>20)
		}
		c, err := ParseConfig([]byte(path))
		if err != nil {
			return Config{}, fmt.Errorf("inline configuration: %w", err)
		}
		return c, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return Config{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxConfigBytes+1))
	if err != nil {
		return Config{}, err
	}
	if len(data) > MaxConfigBytes {
		return Config{}, fmt.Errorf("%s: larger than %d MiB: not a configuration", path, MaxConfigBytes>>20)
	}
	c, err := ParseConfig(data)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// PluginPositiveInt reads an option that upstream requires to be an integer
// ≥ 1, with its shipped default; anything else is upstream's load failure
// "<plugin>: <key> must be a positive integer".
func (c Config) PluginPositiveInt(plugin, key string, def int) (int, error) {
	v := c.PluginOption(plugin, key)
	if v.IsUndefined() {
		return def, nil
	}
	if !v.IsNumber() || !v.IsInteger() || v.Num() < 1 || v.Num() > 1<<53 {
		return 0, fmt.Errorf("%s: %s must be a positive integer", plugin, key)
	}
	return int(v.Num()), nil
}
