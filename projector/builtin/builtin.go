package builtin

import (
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/agent"
	"github.com/dsh-replay/dsh-replay/projector/code"
	"github.com/dsh-replay/dsh-replay/projector/fs"
	"github.com/dsh-replay/dsh-replay/projector/search"
	"github.com/dsh-replay/dsh-replay/projector/shell"
	"github.com/dsh-replay/dsh-replay/projector/web"
)

// Registry builds the registry of all ports for a deployment configuration.
func Registry(cfg projector.Config) (*projector.Registry, error) {
	r, err := projector.NewRegistry(cfg)
	if err != nil {
		return nil, err
	}
	for _, register := range []func(*projector.Registry) error{
		fs.Register, search.Register, shell.Register, web.Register, agent.Register, code.Register,
	} {
		if err := register(r); err != nil {
			return nil, err
		}
	}
	variants, err := shell.Variants(cfg)
	if err != nil {
		return nil, err
	}
	r.Variants = append(r.Variants, variants...)
	return r, nil
}
