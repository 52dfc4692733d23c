// Package shell ports the shell, job and terminal tools: bash (tool-bash and the persistent PTY variant), pwsh, job_output, job_list, job_kill, terminal_*.
package shell

import "github.com/dsh-replay/dsh-replay/projector"

// Register adds this family's tools to r (reading options from r.Config).
func Register(r *projector.Registry) error {
	return nil
}
