package replay

import (
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
)

// RecordedContent is the content a log should record for a call whose
// render produced rendered, as `dsh-replay golden update` re-records it:
// rendered itself, unless the log recorded a spill preview (then the spill
// transform of rendered, with the recorded locator, when one fits; upstream
// keeps the full text when none does). It agrees with what VerifyCall
// accepts: content equal to the result never diverges.
func (e *Engine) RecordedContent(c *logformat.Call, rendered jsonv.Value) jsonv.Value {
	rec := c.Content
	if Same(rec, rendered) {
		return rec
	}
	// The model-facing spill arm never spills read; the dispatch-log arm does.
	if c.Name == "read" && !c.IsSubCall {
		return rendered
	}
	isSpill, ok := checkSpill(rec, rendered, e.opts.SpillCap)
	switch {
	case !isSpill:
		return rendered
	case ok:
		return rec
	}
	if text, ok := spillExpected(rec, rendered, e.opts.SpillCap); ok {
		return jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Str(text))))
	}
	return rendered
}
