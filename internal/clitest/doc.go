// Package clitest runs a command tree in-process, with explicit streams, for
// the CLI's tests.
package clitest
