package projector_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

func TestParseConfig(t *testing.T) {
	cases := []struct {
		in      string
		plugins string // Stringify of the normalised plugins, or the error text
		err     bool
	}{
		{`{}`, `{}`, false},
		{`{"plugins":{"dsh-tool-fs":{"readLimit":5},"lasmex-tool-fs-search":{"grepMaxMatches":3},"tool-web":{}}}`,
			`{"tool-fs":{"readLimit":5},"tool-fs-search":{"grepMaxMatches":3},"tool-web":{}}`, false},
		{`{"services":{"shell":{"sandboxMode":"read-only"}}}`, `{}`, false},
		{`[]`, `configuration must be a JSON object`, true},
		{`{"plugins":[]}`, `configuration "plugins" must be an object`, true},
		{`{"plugin":{}}`, `configuration has unknown key "plugin" (want plugins, services, host, release)`, true},
		{`{"host":"other"}`, `configuration "host" must be "dsh" or "lasmex", got "other"`, true},
		{`{"plugins":`, `unexpected`, true},
	}
	for _, c := range cases {
		cfg, err := projector.ParseConfig([]byte(c.in))
		if c.err {
			if err == nil || !strings.Contains(err.Error(), c.plugins) {
				t.Errorf("%s: got %v, want error %q", c.in, err, c.plugins)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := jsonv.Stringify(cfg.Plugins); got != c.plugins {
			t.Errorf("%s: plugins %s, want %s", c.in, got, c.plugins)
		}
	}
}

func TestConfigOptions(t *testing.T) {
	cfg, err := projector.ParseConfig([]byte(`{"plugins":{"tool-fs":{"readLimit":7,"readMaxBytes":1.0,"zero":0,"frac":1.5,"str":"5","neg":-3,"flag":true,"name":"x"}},"services":{"fs":{"sandboxMode":"read-only"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	ints := []struct {
		key     string
		want    int
		wantErr bool
	}{
		{"readLimit", 7, false},
		{"readMaxBytes", 1, false},
		{"absent", 2000, false},
		{"zero", 0, true},
		{"frac", 0, true},
		{"str", 0, true},
		{"neg", 0, true},
	}
	for _, c := range ints {
		got, err := cfg.PluginPositiveInt("tool-fs", c.key, 2000)
		if c.wantErr {
			if err == nil || err.Error() != "tool-fs: "+c.key+" must be a positive integer" {
				t.Errorf("%s: got %d %v", c.key, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: got %d %v, want %d", c.key, got, err, c.want)
		}
	}
	if !cfg.PluginBool("tool-fs", "flag", false) || cfg.PluginBool("tool-fs", "absent", false) {
		t.Error("PluginBool")
	}
	if cfg.PluginString("tool-fs", "name", "d") != "x" || cfg.PluginString("tool-fs", "absent", "d") != "d" {
		t.Error("PluginString")
	}
	if cfg.Service("fs").Get("sandboxMode").Str() != "read-only" {
		t.Error("Service")
	}
}

func TestLoadConfig(t *testing.T) {
	if cfg, err := projector.LoadConfig(""); err != nil || cfg.Plugins.IsDefined() {
		t.Errorf("defaults: %v %v", cfg, err)
	}
	p := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(p, []byte(`{"plugins":5}`), 0o644)
	if _, err := projector.LoadConfig(p); err == nil || !strings.HasPrefix(err.Error(), p+": ") {
		t.Errorf("error should name the file: %v", err)
	}
	if _, err := projector.LoadConfig(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
}

// --config is read with a bound: a file (or device, or pipe) larger than
// MaxConfigBytes fails after reading just past it; one of exactly that
// size is read.
func TestLoadConfigBounded(t *testing.T) {
	dir := t.TempDir()
	exact := filepath.Join(dir, "exact.json")
	body := `{"plugins":{"tool-fs-search":{"grepMaxMatches":3}}}`
	os.WriteFile(exact, []byte(body+strings.Repeat(" ", projector.MaxConfigBytes-len(body))), 0o644)
	if cfg, err := projector.LoadConfig(exact); err != nil || cfg.PluginInt("tool-fs-search", "grepMaxMatches", 0) != 3 {
		t.Errorf("%d bytes: %v", projector.MaxConfigBytes, err)
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, []byte(body+strings.Repeat(" ", projector.MaxConfigBytes+1-len(body))), 0o644)
	if _, err := projector.LoadConfig(big); err == nil || err.Error() != big+": larger than 1 MiB: not a configuration" {
		t.Errorf("%d bytes: %v", projector.MaxConfigBytes+1, err)
	}
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		if _, err := os.Stat(dev); err != nil {
			continue
		}
		if _, err := projector.LoadConfig(dev); err == nil || !strings.Contains(err.Error(), "larger than 1 MiB") {
			t.Errorf("%s: %v", dev, err)
		}
	}
}

func TestLoadConfigInline(t *testing.T) {
	c, err := projector.LoadConfig(` {"host":"dsh","plugins":{"tool-fs-search":{"grepMaxMatches":3}}}`)
	if err != nil || c.Host != "dsh" || c.PluginOption("tool-fs-search", "grepMaxMatches").Num() != 3 {
		t.Fatalf("inline config: %+v %v", c, err)
	}
	if _, err := projector.LoadConfig(`{"host":`); err == nil || !strings.Contains(err.Error(), "inline configuration") {
		t.Errorf("broken inline config: %v", err)
	}
}

func TestConfigRelease(t *testing.T) {
	c, err := projector.LoadConfig(`{"release":"0.1.7-alpha.1"}`)
	if err != nil || c.Release != "0.1.7-alpha.1" {
		t.Fatalf("release: %+v %v", c, err)
	}
	for _, bad := range []string{`"0.1"`, `"v0.1.5"`, `"0.1.5-"`, `5`, `"0.1.x"`} {
		if _, err := projector.LoadConfig(`{"release":` + bad + `}`); err == nil {
			t.Errorf("release %s accepted", bad)
		}
	}
}
