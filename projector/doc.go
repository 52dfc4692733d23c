// Package projector owns the upstream tool output contract: what a tool
// definition is (parameter schema, output schema, render, presentationMeta,
// presentCall, presentResult), the registry keyed by recorded tool name and
// built from the deployment configuration, output-schema validation, and the
// containment that turns a failing projector into a reported failure.
//
// Ports of the first-party tools live in subpackages, one per tool family;
// projector/builtin assembles them. A port mirrors its TypeScript original:
// arguments, values, content and views are jsonv.Values, and a presenter
// returns the undefined Value for "no view".
//
// The ports follow DSH 0.1.1-rc.2; a definition a later release shipped is
// registered with AddReleaseTool and chosen by LookupAt from the log's
// release (docs/releases.md), as a host's own definition is by LookupFor.
package projector
