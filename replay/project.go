package replay

import (
	"fmt"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Projection is what a call's projectors make of its recorded value, run
// as upstream runs them: what the log should record as the call's content
// and meta. Verification compares the log with it and golden update
// re-records it, so the two cannot disagree.
type Projection struct {
	// Invalid are the value's schema violations; then nothing ran
	// (upstream never renders an invalid value).
	Invalid []projector.Violation
	// Content is render's output after finalizeContent (which runs after
	// render on every outcome); ContentErr is either's failure.
	Content    jsonv.Value
	ContentErr error
	// MetaDeclared: presentationMeta ran, which it does for top-level
	// calls of tools that declare it only (sub-calls never get meta).
	MetaDeclared bool
	Meta         jsonv.Value // null is a value, not absence
	MetaErr      error
}

// project validates the value of c and runs its projectors.
func (e *Engine) project(t *projector.Tool, c *logformat.Call, args jsonv.Value) Projection {
	if vs := e.validateValue(t, c.Value); len(vs) > 0 {
		return Projection{Invalid: vs}
	}
	return runProjectors(t, c, args)
}

// runProjectors is render, finalizeContent and presentationMeta on a valid
// value (shake mode runs them again without validating again).
func runProjectors(t *projector.Tool, c *logformat.Call, args jsonv.Value) (p Projection) {
	p.Content, p.ContentErr = t.RunRender(args, c.Value)
	if p.ContentErr == nil {
		// The log records finalizeContent's result (byte caps of the
		// terminal and job tools).
		p.Content, p.ContentErr = t.RunFinalizeContent(args, c.Value, projector.Result{Content: p.Content, Meta: c.Meta})
	}
	if c.IsSubCall {
		return p
	}
	p.Meta, p.MetaDeclared, p.MetaErr = t.RunPresentationMeta(args, c.Value)
	return p
}

// contentVerdict is how recorded content relates to the projected one.
type contentVerdict uint8

const (
	contentSameText contentVerdict = iota // byte for byte
	contentSame                           // the same value
	contentOwnSpill                       // the tool's own spill of it (grep, glob)
	contentSpilled                        // the spill preview of it
	contentBadSpill                       // a spill preview, but not of it
	contentDiffers
)

func (v contentVerdict) accepted() bool { return v < contentBadSpill }

// judgeContent compares the recorded content of c with content projected
// by its tool t.
func (e *Engine) judgeContent(t *projector.Tool, c *logformat.Call, content jsonv.Value) contentVerdict {
	rec := c.Content
	switch {
	case SameText(rec, content):
		return contentSameText
	case Same(rec, content):
		return contentSame
	case t.IsOwnSpill(content, rec):
		// grep and glob spill their complete result themselves: the footer
		// then names the stored file instead of saying it could not be saved.
		return contentOwnSpill
	case c.Name == "read" && !c.IsSubCall:
		// The model-facing spill arm never spills read; the dispatch-log arm does.
		return contentDiffers
	}
	switch isSpill, ok := checkSpill(rec, content, e.opts.SpillCap); {
	case ok:
		return contentSpilled
	case isSpill:
		return contentBadSpill
	}
	return contentDiffers
}

// recordedContent is the content a log should record for c when its
// projected content is content: the recorded content when verification
// accepts it, else content itself, unless the log recorded a spill preview
// (then the spill transform of content, with the recorded locator, when one
// fits; upstream keeps the full text when none does).
func (e *Engine) recordedContent(t *projector.Tool, c *logformat.Call, content jsonv.Value) jsonv.Value {
	switch v := e.judgeContent(t, c, content); {
	case v.accepted():
		return c.Content
	case v == contentBadSpill:
		if text, ok := spillExpected(c.Content, content, e.opts.SpillCap); ok {
			return jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Str(text))))
		}
	}
	return content
}

// ReRecorded is what `dsh-replay golden update` writes into one call's
// result: a field is set only when it changes.
type ReRecorded struct {
	SetContent bool
	Content    jsonv.Value
	SetMeta    bool
	Meta       jsonv.Value // undefined: remove the recorded meta
}

// Problem is why a call's fields cannot be re-recorded: a failure (the value
// or a projector must change) or, when Fail is false, a warning.
type Problem struct {
	Fail bool
	Msg  string
}

// ReRecord decides the content and meta a log should record for one call
// (not its sub-calls) from the projection verification compares with, so a
// re-recorded call verifies. Calls without a value are left alone; a
// content a policy or finalizeContent replaced (contentReplaced) is never
// re-rendered.
func (e *Engine) ReRecord(c *logformat.Call) (r ReRecorded, problems []Problem) {
	if !c.HasResult || c.IsError || c.Value.IsUndefined() {
		return r, nil
	}
	t := e.resolve(c)
	if t == nil || t.Output == nil {
		return r, []Problem{{Msg: fmt.Sprintf("no Go port of tool %q: not re-recorded", c.Name)}}
	}
	p := e.project(t, c, ExecArgs(c))
	if len(p.Invalid) > 0 {
		return r, []Problem{{Fail: true, Msg: fmt.Sprintf("the recorded value violates the output schema (%s): not re-recorded", p.Invalid[0].Message)}}
	}
	if !c.ContentReplaced {
		if p.ContentErr != nil {
			// Upstream never runs presentationMeta after a failed render.
			return r, []Problem{{Fail: true, Msg: "render failed: " + firstLine(p.ContentErr.Error())}}
		}
		if want := e.recordedContent(t, c, p.Content); !Same(c.Content, want) {
			r.SetContent, r.Content = true, want
		}
	}
	switch {
	case p.MetaErr != nil:
		problems = append(problems, Problem{Fail: true, Msg: "presentationMeta failed: " + firstLine(p.MetaErr.Error())})
	case !p.MetaDeclared:
		r.SetMeta = c.Meta.IsDefined()
	case c.Meta.IsUndefined() || !Same(c.Meta, p.Meta):
		r.SetMeta, r.Meta = true, p.Meta
	}
	return r, problems
}
