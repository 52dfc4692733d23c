// Package fs ports the tool-fs plugin: read, read_image, write, edit.
package fs

import "github.com/dsh-replay/dsh-replay/projector"

// Register adds this family's tools to r (reading options from r.Config).
func Register(r *projector.Registry) error {
	return nil
}
