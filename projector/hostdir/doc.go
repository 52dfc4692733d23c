// Package hostdir finds the first-party tool plugins of an installed DSH or
// LasmeX (--host DIR) and loads them through jsplugin, so that a run
// verifies with the installed host's own projectors instead of the Go
// ports; Drift holds each loaded tool to its port on worked examples.
//
// DIR is a source tree (package.json with workspaces, packages/*/*/), a
// node_modules directory (npm or pnpm, .pnpm's store included), or a
// package that has one, such as a global install of the host's CLI.
// Discovery reads only package.json files and the packages' own sources:
// it needs neither Node nor the sandbox. A first-party package is a tool
// plugin candidate when its code mentions defineTool or tools.register;
// loading tells the rest (a candidate that registers nothing is kept out
// of the run, and one that does not load fails the run: see Load).
package hostdir
