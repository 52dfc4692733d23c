package replay

import (
	"fmt"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// Sides is one call's recorded content and meta beside what its projectors
// make of its recorded value (show --diff): both sides of a divergence.
type Sides struct {
	// Why is set when nothing was replayed: no value, no port, an
	// invalid value.
	Why string
	// Content is what the log should record as content (the projected
	// content, or the recorded one when verification accepts it: a spill
	// preview, a whitespace-equal text); ContentErr is render's failure.
	Content    jsonv.Value
	ContentErr error
	// MetaDeclared: presentationMeta ran (top-level calls of tools that
	// declare it).
	MetaDeclared bool
	Meta         jsonv.Value
	MetaErr      error
}

// Sides runs the projectors of c (not its sub-calls) on its recorded
// value as verify does.
func (e *Engine) Sides(c *logformat.Call) (s Sides) {
	t := e.resolve(c)
	switch {
	case c.Value.IsUndefined():
		return Sides{Why: "the log recorded no value for this call: nothing to replay (record values to check render and presentationMeta)"}
	case t == nil || t.Output == nil:
		return Sides{Why: fmt.Sprintf("no Go port of tool %q: nothing replayed", c.Name)}
	}
	p := e.project(t, c, ExecArgs(c))
	if len(p.Invalid) > 0 {
		return Sides{Why: "the recorded value violates the output schema (" + p.Invalid[0].Message + "): upstream never renders it"}
	}
	s = Sides{ContentErr: p.ContentErr, MetaDeclared: p.MetaDeclared, Meta: p.Meta, MetaErr: p.MetaErr}
	if p.ContentErr == nil {
		s.Content = e.recordedContent(t, c, p.Content)
	}
	return s
}
