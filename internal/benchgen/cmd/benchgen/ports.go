//go:build !noports

package main

import (
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

func init() {
	registry = func() (*projector.Registry, error) { return builtin.Registry(projector.Config{}) }
}
