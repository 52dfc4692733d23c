// Package web ports the tool-web plugin: web_search, web_fetch.
package web

import "github.com/dsh-replay/dsh-replay/projector"

// Register adds this family's tools to r (reading options from r.Config).
func Register(r *projector.Registry) error {
	return nil
}
