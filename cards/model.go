package cards

import (
	"strconv"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// Sections are a card's body as lines, uncollapsed, with diff context (as
// show --full draws it): the call section and the result section. Other
// media (the HTML report) draw cards from them, so every medium shows the
// same information.
func (e *Entry) Sections() (call, result []Line) {
	return e.callLines(true), e.resultLines(true)
}

// FromCall builds the entry of a recorded call from its presenters'
// outputs (undefined: no view; an error: the presenter failed). Sub-calls
// are not included.
func FromCall(c *logformat.Call, callView, resultView jsonv.Value, callErr, resultErr error) *Entry {
	return FromView(c, callView, resultView, errText(callErr), errText(resultErr))
}

// FromView is FromCall with the presenters' failures as text (as
// replay.View carries them).
func FromView(c *logformat.Call, callView, resultView jsonv.Value, callFailure, resultFailure string) *Entry {
	e := &Entry{
		Tool:          c.Name,
		CallID:        c.CallID,
		Location:      where(c.File, c.Line),
		Args:          c.Arguments,
		RawArgs:       c.RawArguments,
		CallView:      DecodeCallView(callView),
		CallFailure:   callFailure,
		HasResult:     c.HasResult,
		Content:       c.Content,
		IsError:       c.IsError,
		Synthetic:     c.Synthetic,
		ResultView:    DecodeResultView(resultView),
		ResultFailure: resultFailure,
	}
	if c.Error.IsObject() {
		if n := c.Error.Get("name"); n.IsString() {
			e.ErrorName = n.Str()
		}
		if code := c.Error.Get("code"); code.IsString() {
			e.ErrorCode = code.Str()
		}
	}
	return e
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func where(file string, line int) string {
	if line > 0 {
		return file + ":" + strconv.Itoa(line)
	}
	return file
}
