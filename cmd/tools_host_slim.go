//go:build slim

package cmd

import (
	"errors"
	"io"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// runToolsHost hands the command to the full build, which has the plugin
// engine.
func runToolsHost(_ *toolsOptions, _, _ io.Writer) error {
	if err := cmdutil.NeedFull("--host"); err != nil {
		return err
	}
	return cmdutil.Cannot(errors.New("--host: the plugin engine is not in this build"))
}
