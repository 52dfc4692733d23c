package builtin_test

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

// TestSchemasCompile: registries compile schemas on first use, so this is
// where a port's unsupported schema is caught, for every tool, host
// definition and variant of the default and host-pinned configurations.
func TestSchemasCompile(t *testing.T) {
	cfgs := []projector.Config{{}}
	for _, h := range projector.Hosts {
		cfgs = append(cfgs, projector.Config{Host: h})
	}
	for _, cfg := range cfgs {
		r, err := builtin.Registry(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Tools()) < 20 {
			t.Fatalf("host %q: only %d tools registered", cfg.Host, len(r.Tools()))
		}
		if err := r.CheckSchemas(); err != nil {
			t.Errorf("host %q: %v", cfg.Host, err)
		}
	}
}
