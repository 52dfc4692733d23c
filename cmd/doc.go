// Package cmd wires the cobra commands together: the root command, its
// profiling flags, and the commands that fit in one file (verify, calls,
// tools). Commands that grew past one file live in their own packages
// (cmd/show, cmd/golden); what they share is in cmd/cmdutil.
package cmd
