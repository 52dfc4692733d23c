package projector

import (
	"fmt"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Tool is one tool definition as the registry sees it.
type Tool struct {
	// Name is the tool name recorded in the log.
	Name string
	// Plugin is the upstream plugin that ships it, without the dsh-/lasmex- prefix
	// (e.g. "tool-fs"); config options are looked up under this name.
	Plugin string
	// Parameters is the compiled JSON schema of the arguments (an object root).
	Parameters jsonv.Value
	// Output is the canonical-value contract; nil when upstream declares none
	// that replay can check.
	Output *Output
	// PresentCall and PresentResult are the presenters; nil when upstream has none.
	// They receive arguments that already passed soft validation (unless
	// RawPresenters is set) and return the undefined Value for "no view".
	// A presenter emulates a JavaScript throw with panic(Throwf(...)): CallView
	// and ResultView report it as a thrown (not a panicking) failure.
	PresentCall   func(args jsonv.Value) jsonv.Value
	PresentResult func(args jsonv.Value, result Result) jsonv.Value
	// RawPresenters marks presenters not wrapped by defineTool: no soft
	// validation of arguments happens before they run.
	RawPresenters bool
	// ParametersUnknown marks a stand-in parameter schema (an MCP tool's,
	// structured_output's caller schema): the log does not carry the one
	// the host validated with, so arguments are not judged by it.
	ParametersUnknown bool
	// FinalizeContent is upstream's finalizeContent where replay can compute
	// it: the content the call records given the outcome before it (render's
	// content, and the meta). nil: none.
	FinalizeContent func(args, value jsonv.Value, outcome Result) jsonv.Value
	// MatchOwnSpill reports whether recorded content is the tool's own
	// post-execute spill of rendered content (grep, glob: the footer names a
	// stored file instead of saying it could not be saved). nil: no such step.
	MatchOwnSpill func(rendered, recorded jsonv.Value) bool
	// Cards lists the cards the presenters can emit, for `dsh-replay tools`.
	CallCards, ResultCards []string

	// The schemas are compiled on first use (see schemas): a registry holds
	// ~60 tools and a run touches a few.
	once       sync.Once
	compiled   *compiledSchemas
	compileErr error
}

// Output is ToolOutputDefinition: schema, render and optional presentationMeta.
type Output struct {
	Schema jsonv.Value
	// Render returns the content block array. An error is a thrown render.
	Render func(args, value jsonv.Value) (jsonv.Value, error)
	// PresentationMeta is nil when the tool declares none. Returning the
	// undefined Value is upstream's "returned non-lossless JSON" failure.
	PresentationMeta func(args, value jsonv.Value) (jsonv.Value, error)
}

// Result is the presenter input ToolResult {content, isError, meta?}.
type Result struct {
	Content jsonv.Value
	IsError bool
	Meta    jsonv.Value // undefined when absent; null is a value
}

// Throw is a JavaScript-style thrown error with a message, for ports.
type Throw struct {
	Message string
	At      string // file:line:col of a JavaScript plugin's throw, when known
}

func (t *Throw) Error() string { return t.Message }

// Throwf builds a Throw.
func Throwf(format string, args ...any) error { return &Throw{Message: fmt.Sprintf(format, args...)} }

// Text is a text content block {type:"text", text}.
func Text(s string) jsonv.Value {
	return jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Str(s)))
}

// TextContent is a one-block content array.
func TextContent(s string) jsonv.Value { return jsonv.Arr(Text(s)) }
