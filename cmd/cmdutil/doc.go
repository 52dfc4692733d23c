// Package cmdutil is what the commands share: exit codes and the errors
// that carry them, running a command tree with panics contained, the
// --include/--exclude expansion of log arguments, the one warning format
// for reader notices, and small text helpers.
package cmdutil
