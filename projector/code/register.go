// Package code ports run_code, the cordis_* tools, str_replace_editor, lsp and MCP tools.
package code

import "github.com/dsh-replay/dsh-replay/projector"

// Register adds this family's tools to r (reading options from r.Config).
func Register(r *projector.Registry) error {
	return nil
}
