//go:build !slim

package cmdutil

// Slim reports whether this is the slim build.
const Slim = false

// NeedFull: the full build has everything; nothing to do.
func NeedFull(what string) error { return nil }
