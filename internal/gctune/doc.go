// Package gctune owns the collector settings the CLI runs under, so that
// benchmarks of what the CLI does can run under the same ones, and the
// reservations beside the soft memory limit (Reserve) that the commands
// hand to the readers and the plugin engine.
package gctune
