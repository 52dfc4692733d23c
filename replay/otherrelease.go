package replay

import (
	"fmt"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
)

// A log's format names the oldest DSH release that writes it, so a log may
// come from a later (or, pinned, an earlier) release than the one whose
// definition replayed it. When a call's value or outputs diverge and the
// definition of another release reproduces what the log recorded, the
// findings name that release and the --config that selects it: the cause
// is then which release wrote the log, not the port. Only a diverging call
// looks.

// releaseHint is that note for c, or "".
func (e *Engine) releaseHint(c *logformat.Call, used *projector.Tool, args jsonv.Value) string {
	defs := e.reg.Definitions(c.Name, c.Host)
	if len(defs) < 2 {
		return ""
	}
	for _, d := range defs {
		if d.Tool != used && e.reproduces(d.Tool, c, args) {
			return fmt.Sprintf(" (%s as DSH %s shipped it reproduces what the log recorded: if that release wrote this log, pass --config '{\"release\": %q}')", c.Name, releaseName(d.Release), releaseName(d.Release))
		}
	}
	if rel := e.reg.NewerAccepting(c.Name, c.Host, c.Release, c.Value); rel != "" && len(e.validateValue(used, c.Value)) > 0 {
		return fmt.Sprintf(" (%s as DSH %s shipped it accepts this value; if that or a later DSH wrote this log, pass --config '{\"release\": %q}')", c.Name, rel, rel)
	}
	return ""
}

func releaseName(r string) string {
	if r == "" {
		return projector.PinnedRelease
	}
	return r
}

// reproduces reports whether t's projectors give back what the log
// recorded for c: a valid value, content verify accepts, the same meta.
func (e *Engine) reproduces(t *projector.Tool, c *logformat.Call, args jsonv.Value) bool {
	if !c.HasResult || c.IsError || c.Value.IsUndefined() || t.Output == nil {
		return false
	}
	p := e.project(t, c, args)
	if len(p.Invalid) > 0 || p.ContentErr != nil || p.MetaErr != nil || !e.judgeContent(t, c, p.Content).accepted() {
		return false
	}
	switch {
	case c.IsSubCall || !p.MetaDeclared:
		// A sub-call never has meta; nor does a tool without presentationMeta.
		return c.Meta.IsUndefined()
	case c.Meta.IsUndefined():
		return false
	}
	return SameText(c.Meta, p.Meta) || Same(c.Meta, p.Meta)
}

// hintRelease appends releaseHint to the call's findings about its value
// and outputs.
func (e *Engine) hintRelease(c *logformat.Call, used *projector.Tool, args jsonv.Value, fs []Finding) {
	hint, looked := "", false
	for i := range fs {
		switch fs[i].Class {
		case SchemaInvalid, ContentMismatch, MetaMismatch, MetaMissing, MetaUnexpected:
		default:
			continue
		}
		if fs[i].Sev < Failure {
			continue
		}
		if !looked {
			hint, looked = e.releaseHint(c, used, args), true
		}
		if hint == "" {
			return
		}
		fs[i].Message += hint
	}
}
