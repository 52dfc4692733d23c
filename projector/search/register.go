// Package search ports the tool-fs-search plugin: grep, glob.
package search

import "github.com/dsh-replay/dsh-replay/projector"

// Register adds this family's tools to r (reading options from r.Config).
func Register(r *projector.Registry) error {
	return nil
}
