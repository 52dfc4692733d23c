package cards

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Entry is one call as the renderer sees it: provenance, the presenters'
// views (typed), and the recorded result. The caller runs the presenters.
type Entry struct {
	Tool     string
	CallID   string
	Location string // "file:line"

	// Args is JSON.parse(RawArgs), undefined when the text does not parse.
	Args    jsonv.Value
	RawArgs string

	// CallView is nil when there is no presenter, it returned no view, it
	// failed (CallFailure says why) or the arguments did not parse.
	CallView    CallView
	CallFailure string

	HasResult     bool
	Content       jsonv.Value // the result's content block array
	IsError       bool
	ErrorName     string // the recorded error {name, code}, "" when none
	ErrorCode     string
	Synthetic     string // "aborted", "aborted-before-dispatch", "outcome-unknown", "not-started"
	ResultView    ResultView
	ResultFailure string

	// Subs are the Code Mode sub-calls of a run_code call, in order.
	Subs []*Entry
}

// StatusKind classifies a card's outcome.
type StatusKind uint8

const (
	StatusOK StatusKind = iota
	StatusError
	StatusWarn // interrupted, outcome unknown, not started
)

// Status is the card's pill.
type Status struct {
	Kind StatusKind
	Text string
}

// Status decides the pill: a missing result is an interruption; a failed
// command, signal or HTTP status is a failure even when the result itself
// is not marked isError.
func (e *Entry) Status() Status {
	switch {
	case !e.HasResult:
		return Status{StatusWarn, "… interrupted"}
	case e.Synthetic == "outcome-unknown":
		return Status{StatusWarn, "? outcome unknown"}
	case e.Synthetic == "not-started":
		return Status{StatusWarn, "⊘ not started"}
	case e.Synthetic == "aborted" || e.Synthetic == "aborted-before-dispatch":
		return Status{StatusError, "⊘ aborted"}
	}
	switch v := e.ResultView.(type) {
	case *TerminalResult:
		if v.Signal != nil {
			return Status{StatusError, "✗ signal " + firstLine(*v.Signal)}
		}
		if v.ExitCode != nil && *v.ExitCode != 0 {
			return Status{StatusError, "✗ exit " + numStr(*v.ExitCode)}
		}
	case *WebFetch:
		if v.StatusCode >= 400 {
			return Status{StatusError, "✗ HTTP " + numStr(v.StatusCode)}
		}
	}
	if e.IsError {
		if e.ErrorCode != "" {
			return Status{StatusError, "✗ " + firstLine(e.ErrorCode)}
		}
		return Status{StatusError, "✗ error"}
	}
	return Status{StatusOK, "✓ ok"}
}

// Card is the card that decides the icon: the result's when it has a view,
// else the call's, else generic.
// A generic result keeps a specific call card (a failed or backgrounded
// command is still a command).
func (e *Entry) Card() string {
	call := CardGeneric
	if e.CallView != nil {
		call = e.CallView.Card()
	}
	switch r := e.ResultView.(type) {
	case nil, *GenericResult:
		return call
	case *Unknown:
		if r.Name == "" {
			return call
		}
	}
	return e.ResultView.Card()
}

// Icons per card.
var icons = map[string]string{
	CardGeneric:  "●",
	CardTerminal: "$",
	CardDiff:     "±",
	CardRead:     "≡",
	CardSearch:   "⌕",
	CardWeb:      "◎",
}

// Icon is the card's icon; "?" for a card this build does not know.
func (e *Entry) Icon() string {
	if i, ok := icons[e.Card()]; ok {
		return i
	}
	return "?"
}

func callTitle(v CallView) string {
	switch v := v.(type) {
	case *GenericCall:
		return v.Title
	case *TerminalCall:
		return v.Title
	case *DiffCall:
		return v.Title
	case *Unknown:
		return v.Title
	}
	return ""
}

func resultTitle(v ResultView) string {
	var t *string
	switch v := v.(type) {
	case *GenericResult:
		t = v.Title
	case *TerminalResult:
		t = v.Title
	case *DiffResult:
		t = v.Title
	case *SearchMatches:
		t = v.Title
	case *SearchPaths:
		t = v.Title
	case *ReadResult:
		t = v.Title
	case *WebSearch:
		t = v.Title
	case *WebFetch:
		t = v.Title
	case *Unknown:
		return v.Title
	}
	if t == nil {
		return ""
	}
	return *t
}

// Title is the headline: the result's title, else the call's (an empty
// result title keeps the call's), else the tool name.
func (e *Entry) Title() string {
	if t := resultTitle(e.ResultView); t != "" {
		return t
	}
	if t := callTitle(e.CallView); t != "" {
		return t
	}
	return e.Tool
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// callLines is the call section: what the call asked for.
func (e *Entry) callLines(full bool) []Line {
	var out []Line
	if e.CallFailure != "" {
		out = append(out, Line{Kind: LineNote, Text: "presentCall failed: " + e.CallFailure})
	}
	switch v := e.CallView.(type) {
	case nil:
		if e.Args.IsUndefined() {
			if strings.TrimSpace(e.RawArgs) != "" {
				out = append(out, Line{Kind: LineNote, Text: "arguments are not valid JSON:"})
				out = append(out, textLines(e.RawArgs, LineDim)...)
			}
			return out
		}
		return append(out, rawInputLines(e.Args, e.Tool)...)
	case *GenericCall:
		out = append(out, blockLines(v.Content, LineDim)...)
		out = append(out, rawInputLines(v.RawInput, v.Title)...)
	case *TerminalCall:
		if v.Description != nil && *v.Description != "" {
			out = append(out, trimBlank(textLines(*v.Description, LineDim))...)
		}
		if v.Cwd != nil && *v.Cwd != "" {
			out = append(out, Line{Kind: LineDim, Text: "cwd: " + *v.Cwd})
		}
	case *DiffCall:
		// The applied hunks come with the result; the proposal is drawn only
		// when the result has none (a failed or interrupted edit).
		if _, ok := e.ResultView.(*DiffResult); !ok {
			out = append(out, Line{Kind: LineNote, Text: "proposed change:"})
			out = append(out, diffLines(v.Diffs, full)...)
		}
	case *Unknown:
		// said once: the result's note covers a call of the same unknown card
		if r, ok := e.ResultView.(*Unknown); !ok || r.Name != v.Name || r.Problem != "" || v.Problem != "" {
			out = append(out, unknownNote(v))
		}
	}
	return out
}

func unknownNote(u *Unknown) Line {
	if u.Problem != "" {
		name := u.Name
		if name == "" {
			name = "?"
		}
		return Line{Kind: LineNote, Text: "malformed " + name + " card (" + u.Problem + "): raw text shown"}
	}
	if u.Name == "" {
		return Line{Kind: LineNote, Text: "view without a card: raw text shown"}
	}
	return Line{Kind: LineNote, Text: "unknown card " + jsonv.Quote(u.Name) + ": raw text shown"}
}

// resultLines is the result section.
func (e *Entry) resultLines(full bool) []Line {
	if !e.HasResult {
		return []Line{{Kind: LineNote, Text: "no result was recorded (interrupted)", Summary: true}}
	}
	var out []Line
	if e.ResultFailure != "" {
		out = append(out, Line{Kind: LineNote, Text: "presentResult failed: " + e.ResultFailure})
	}
	rawKind := LineOutput
	if e.IsError {
		rawKind = LineError
	}
	raw := func() []Line { return blockLines(e.Content, rawKind) }
	switch v := e.ResultView.(type) {
	case nil:
		out = append(out, raw()...)
	case *GenericResult:
		if v.Content.IsDefined() {
			out = append(out, blockLines(v.Content, rawKind)...)
		} else {
			out = append(out, raw()...)
		}
	case *TerminalResult:
		if v.Output != nil {
			out = append(out, textLines(*v.Output, rawKind)...)
		}
		// A zero exit says only what the absence of a failure already says.
		if v.Signal != nil {
			out = append(out, Line{Kind: LineFailure, Summary: true, Text: "signal " + *v.Signal})
		} else if v.ExitCode != nil && *v.ExitCode != 0 {
			out = append(out, Line{Kind: LineFailure, Summary: true, Text: "exit " + numStr(*v.ExitCode)})
		}
	case *DiffResult:
		out = append(out, diffLines(v.Diffs, full)...)
	case *ReadResult:
		out = append(out, readLines(v)...)
	case *SearchMatches:
		out = append(out, searchMatchLines(v)...)
	case *SearchPaths:
		out = append(out, searchPathLines(v)...)
	case *WebFetch:
		out = append(out, webFetchLines(v, callTitle(e.CallView))...)
	case *WebSearch:
		out = append(out, webSearchLines(v)...)
	case *Unknown:
		out = append(out, unknownNote(v))
		out = append(out, raw()...)
	}
	if e.ErrorName != "" || e.ErrorCode != "" {
		out = append(out, Line{Kind: LineDim, Summary: true, Text: "error: " + strings.Trim(e.ErrorName+" "+e.ErrorCode, " ")})
	}
	return out
}
