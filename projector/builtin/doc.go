// Package builtin assembles the registry of every first-party tool port.
package builtin
