// Package toolkit holds the helpers the agent and code tool ports share:
// the upstream schema DSL compiler, the catalog of compiled parameter
// schemas, JavaScript String() conversion and the generic call view.
package toolkit
