package cards

import (
	"bufio"
	"fmt"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Mode is what a Printer writes for a call.
type Mode uint8

const (
	ModeCards   Mode = iota // the card (Render)
	ModeCompact             // one line (RenderCompact)
	ModeRaw                 // the model-facing content (RenderRaw)
	ModeJSON                // one NDJSON object of the presenters' views
)

// Printer draws calls as `dsh-replay show` does, running each call's
// presenters through Reg. Call is a logformat.ReadCalls callback.
type Printer struct {
	Reg  *projector.Registry
	W    *bufio.Writer
	Opts Options
	Mode Mode
	// Match selects calls (nil: all). A root call that does not match is
	// not drawn, but its sub-calls that match are, each on its own.
	Match func(*logformat.Call) bool
	// OnlyErrors keeps the calls whose status is not ok.
	OnlyErrors bool
	// Emit, when set, receives each selected call and its entry instead of
	// the call being written (withSubs: e.Subs are its sub-calls' entries).
	Emit func(c *logformat.Call, e *Entry, withSubs bool)

	Shown, Failed, Interrupted int

	declined     map[string]*Declined
	declineOrder []string
}

// Declined is the calls of one tool whose presenters declined the
// recorded arguments for the same reason (and variant hint).
type Declined struct {
	Tool, Why, Hint string
	// File, Line and CallID are the first such call's.
	File   string
	Line   int
	CallID string
	N      int
}

// WriteError is a failed write to the Printer's writer: it stops reading.
type WriteError struct{ Err error }

func (e *WriteError) Error() string { return e.Err.Error() }
func (e *WriteError) Unwrap() error { return e.Err }

// Call draws the root call when it matches, else any of its sub-calls that
// match on their own.
func (p *Printer) Call(c *logformat.Call) error {
	if p.matches(c) {
		return p.emit(c, true)
	}
	for _, sub := range c.SubCalls {
		if p.matches(sub) {
			if err := p.emit(sub, false); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *Printer) matches(c *logformat.Call) bool { return p.Match == nil || p.Match(c) }

func (p *Printer) emit(c *logformat.Call, withSubs bool) error {
	e := p.entry(c, withSubs)
	if p.OnlyErrors {
		if st := e.Status(); st.Kind == StatusOK {
			return nil
		}
	}
	if p.Emit != nil {
		p.count(e)
		p.Emit(c, e, withSubs)
		return nil
	}
	var err error
	switch p.Mode {
	case ModeJSON:
		err = p.writeJSON(c, withSubs)
	case ModeCompact:
		p.count(e)
		_, err = p.W.WriteString(RenderCompact(e, p.Opts))
	case ModeRaw:
		p.count(e)
		_, err = p.W.WriteString(RenderRaw(e, p.Opts) + "\n")
	default:
		p.count(e)
		_, err = p.W.WriteString(Render(e, p.Opts) + "\n")
	}
	if err != nil {
		return &WriteError{err}
	}
	return nil
}

func (p *Printer) count(e *Entry) {
	p.Shown++
	switch st := e.Status(); st.Kind {
	case StatusError:
		p.Failed++
	case StatusWarn:
		if !e.HasResult {
			p.Interrupted++
		}
	}
}

// Finish writes the count line that ends the cards (nothing for NDJSON).
func (p *Printer) Finish() {
	if p.Mode == ModeJSON {
		return
	}
	text := fmt.Sprintf("%d %s shown", p.Shown, plural(float64(p.Shown), "call", "calls"))
	// A call whose tool failed (an error result, a non-zero exit): the
	// tool's own failure, not dsh-replay's.
	if p.Failed > 0 {
		text += fmt.Sprintf(" · %d %s", p.Failed, plural(float64(p.Failed), "tool error", "tool errors"))
	}
	if p.Interrupted > 0 {
		text += fmt.Sprintf(" · %d without a result", p.Interrupted)
	}
	declined := 0
	for _, d := range p.declined {
		declined += d.N
	}
	if declined > 0 {
		text += fmt.Sprintf(" · %d generic (presenter declined)", declined)
	}
	if p.Opts.Styles.Color {
		text = p.Opts.Styles.Dim.Render(text)
	}
	fmt.Fprintln(p.W, text)
}

// Declined lists the declined calls by tool and hint, in the order first
// seen.
func (p *Printer) Declined() []*Declined {
	out := make([]*Declined, len(p.declineOrder))
	for i, k := range p.declineOrder {
		out[i] = p.declined[k]
	}
	return out
}

func (p *Printer) noteDeclined(c *logformat.Call, why, hint string) {
	if hint != "" {
		hint = "; " + hint
	}
	key := c.Name + "\x00" + hint
	d := p.declined[key]
	if d == nil {
		if p.declined == nil {
			p.declined = map[string]*Declined{}
		}
		d = &Declined{Tool: c.Name, Why: why, Hint: hint, File: c.File, Line: c.Line, CallID: c.CallID}
		p.declined[key] = d
		p.declineOrder = append(p.declineOrder, key)
	}
	d.N++
}

// views are the presenters' outputs for one call.
type views struct {
	call, result       jsonv.Value // undefined: no view
	callErr, resultErr error
}

func (p *Printer) present(c *logformat.Call) views {
	var v views
	rec := Recorded(c)
	check := p.Reg.CheckArgs(&rec)
	tool := check.Tool
	if tool == nil || c.ArgumentsError != "" || c.Arguments.IsUndefined() {
		return v
	}
	if len(check.Declined) > 0 {
		if !check.Expected {
			p.noteDeclined(c, check.Declined[0].Message, check.Hint)
		}
		return v // the generic card
	}
	v.call, v.callErr = tool.CallView(c.Arguments)
	if c.HasResult {
		v.result, v.resultErr = tool.ResultView(c.Arguments, projector.Result{Content: c.Content, IsError: c.IsError, Meta: c.Meta})
	}
	return v
}

// Recorded is what the registry judges a call's arguments by.
func Recorded(c *logformat.Call) projector.Recorded {
	return projector.Recorded{Name: c.Name, Host: c.Host, Release: c.Release, Team: c.Team, Variants: c.Variants(), Args: c.Arguments, ExecArgs: ExecArgs(c),
		HasResult: c.HasResult, IsError: c.IsError, Error: c.Error, Content: c.Content, Value: c.Value,
		Synthetic: c.Synthetic, SubCall: c.IsSubCall}
}

// ExecArgs are the arguments as execution saw them (projector.ExecArgs).
func ExecArgs(c *logformat.Call) jsonv.Value {
	return projector.ExecArgs(c.RawArguments, c.Arguments, c.IsSubCall)
}

// entry builds the renderer's view of a call, running its presenters.
func (p *Printer) entry(c *logformat.Call, withSubs bool) *Entry {
	v := p.present(c)
	e := FromCall(c, v.call, v.result, v.callErr, v.resultErr)
	if withSubs {
		for _, sub := range c.SubCalls {
			e.Subs = append(e.Subs, p.entry(sub, true))
		}
	}
	return e
}

// writeJSON prints the NDJSON object of a call, then of each sub-call.
func (p *Printer) writeJSON(c *logformat.Call, withSubs bool) error {
	v := p.present(c)
	ms := []jsonv.Member{
		jsonv.M("log", jsonv.Str(c.File)),
		jsonv.M("line", jsonv.Int(c.Line)),
		jsonv.M("callId", jsonv.Str(c.CallID)),
		jsonv.M("tool", jsonv.Str(c.Name)),
		jsonv.M("isError", jsonv.BoolValue(c.IsError)),
	}
	if v.callErr == nil && v.call.IsDefined() {
		ms = append(ms, jsonv.M("callView", v.call))
	}
	if v.resultErr == nil && v.result.IsDefined() {
		ms = append(ms, jsonv.M("resultView", v.result))
	}
	if _, err := p.W.WriteString(jsonv.Stringify(jsonv.Obj(ms...)) + "\n"); err != nil {
		return err
	}
	if withSubs {
		for _, sub := range c.SubCalls {
			if err := p.writeJSON(sub, true); err != nil {
				return err
			}
		}
	}
	return nil
}
