// Package cmdutil is what the commands share: exit codes and the errors
// that carry them, running a command tree with panics contained, the
// --include/--exclude expansion of log arguments, the projector flags
// (--config, --plugin, --no-sidecar, --jobs) and the registry they build,
// the one warning format for reader notices, the terminal decisions (is a
// stream a terminal, output width, --color and its colour profile, the
// pager), and small text helpers.
package cmdutil
