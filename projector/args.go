package projector

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// What a recorded result says about the registry's verdict on a call's
// arguments. The registry validates arguments inside defineTool's execute
// (schema.ts: ToolArgsError, code INVALID_ARGS, message "invalid
// arguments: <v1>; <v2>…") and resolves the name at dispatch
// (index.ts: ToolNotFoundError, code UNKNOWN_TOOL, `unknown tool "<name>"`);
// toolErrorResult makes the content "Error: <message>".

// ArgsOutcome classifies a recorded result.
type ArgsOutcome uint8

const (
	// ArgsUntold: no result, or one that does not say whether the arguments
	// were validated (a policy denial, a hook block, a synthetic or an
	// aborted result, a sub-call error without a code).
	ArgsUntold ArgsOutcome = iota
	// ArgsAccepted: the tool's body ran, so its validation passed: a
	// success, or a failure whose code a body or a later stage raised.
	ArgsAccepted
	// ArgsRejected: the registry's "invalid arguments: …".
	ArgsRejected
	// ToolUnknown: the registry had no such tool ("unknown tool").
	ToolUnknown
	// ToolCollapsed: Code Mode denied a visible tool's direct call (the
	// tool exists; the message names the run_code route).
	ToolCollapsed
)

// Recorded is what replay knows of one call for judging its arguments.
type Recorded struct {
	Name, Host string
	// Release is the DSH release the log's format implies ("" when it
	// does not say; see Registry.LookupAt).
	Release string
	// Team: the calling agent is an Agent Teams member (its request
	// header carries tool-agent-team's policy), so the team's scoped tools
	// shadow global ones of the same name.
	Team bool
	// Variants are the scopes whose definitions the log's request header
	// declares (logformat.Call.Variants: AskTimedScope, PlanDetailsScope):
	// a definition of the call's name in one of them replays it.
	Variants []string
	// Args are the presenters' arguments (strict JSON.parse; undefined when
	// that failed), ExecArgs execution's (see replay.ExecArgs).
	Args, ExecArgs jsonv.Value
	HasResult      bool
	IsError        bool
	Error          jsonv.Value // {name, code}, undefined when not recorded
	Content        jsonv.Value
	Value          jsonv.Value // the recorded canonical value, if any
	Synthetic      string
	SubCall        bool
}

// ExecArgs are a call's arguments as execution sees them: `raw ?
// JSON.parse(raw) : {}`, the raw string when parsing failed (parsed is
// undefined then); a Code Mode sub-call's are already JSON (parsed).
func ExecArgs(raw string, parsed jsonv.Value, subCall bool) jsonv.Value {
	switch {
	case subCall:
		return parsed
	case raw == "":
		return jsonv.Obj()
	case parsed.IsUndefined():
		return jsonv.Str(raw)
	}
	return parsed
}

const invalidArgsPrefix = "Error: invalid arguments: "

// InvalidArgsText is the content text of ToolArgsError(violations).
func InvalidArgsText(vs []Violation) string { return invalidArgsPrefix + JoinViolations(vs) }

// UnknownToolText is the content text of ToolNotFoundError(name).
func UnknownToolText(name string) string { return `Error: unknown tool "` + name + `"` }

// CollapsedToolText is the content text of the Code Mode collapse denial.
func CollapsedToolText(name string) string {
	return UnknownToolText(name) + ": only `run_code` is callable directly — call `" + name + "` from inside a `run_code` program instead"
}

// Codes of results that say nothing about argument validation: raised
// before dispatch, synthesized by crash repair, or a cancellation whose
// timing the log does not pin.
var untoldCodes = map[string]bool{
	"ABORTED": true, "ABORTED_BEFORE_DISPATCH": true, "TOOL_OUTCOME_UNKNOWN": true, "TOOL_NOT_STARTED": true,
}

// Outcome classifies the recorded result of r.
func (r *Recorded) Outcome() ArgsOutcome {
	if !r.HasResult || r.Synthetic != "" {
		return ArgsUntold
	}
	if !r.IsError {
		return ArgsAccepted
	}
	text, single := singleText(r.Content)
	switch code := r.Error.Get("code").Str(); {
	case code == "INVALID_ARGS":
		return ArgsRejected
	case code == "UNKNOWN_TOOL":
		if single && text == CollapsedToolText(r.Name) {
			return ToolCollapsed
		}
		return ToolUnknown
	case code != "":
		if untoldCodes[code] {
			return ArgsUntold
		}
		return ArgsAccepted
	}
	// A log that records no error identity (older writers, sub-calls):
	// only the registry's own texts tell.
	switch {
	case !single:
	case strings.HasPrefix(text, invalidArgsPrefix):
		return ArgsRejected
	case text == UnknownToolText(r.Name):
		return ToolUnknown
	case text == CollapsedToolText(r.Name):
		return ToolCollapsed
	}
	return ArgsUntold
}

// singleText is the text of a content array holding one text block.
func singleText(content jsonv.Value) (string, bool) {
	if !content.IsArray() || content.Len() != 1 {
		return "", false
	}
	b := content.Elems()[0]
	if b.Get("type").Str() != "text" || !b.Get("text").IsString() {
		return "", false
	}
	return b.Get("text").Str(), true
}

// ArgsCheck is the verdict on a call's arguments: which definition draws
// it, and whether the port's parameter schema agrees with the host's.
type ArgsCheck struct {
	Outcome ArgsOutcome
	// Tool draws the call's cards; nil draws the generic card with no
	// views (no port, or a tool the host did not know).
	Tool *Tool
	// Declined are Tool's soft-validation violations of Args (its
	// presenters return no view: the generic card).
	Declined []Violation
	// Expected: the host's decline; no notice is due. Set when the host
	// rejected the arguments (or did not know the tool) and the port says
	// the same.
	Expected bool
	// Checked: the recorded rejection text was compared with the port's.
	Checked bool
	// Mismatch, when non-empty, says how the port's parameter schema
	// disagrees with the host's (a divergence); Want is the text the port
	// gives for a rejection it expected differently worded.
	Mismatch string
	Want     string
	// Hint names a variant that accepts arguments the port declines and
	// the host did not reject ("" when none or when the host rejected them).
	Hint string
}

// argsKnown reports whether t's parameter schema is the host's validation
// (a defineTool definition whose schema the port knows).
func argsKnown(t *Tool) bool { return t != nil && !t.RawPresenters && !t.ParametersUnknown }

// declines is t.Declines for presenter arguments (none when they did not
// parse: the presenters get no view then anyway).
func declines(t *Tool, args jsonv.Value) []Violation {
	if args.IsUndefined() {
		return nil
	}
	return t.Declines(args)
}

// candidates are the definitions that may have served a call: the one the
// registry resolves, then (when the log does not pin it) the other host's
// and a Team scope's definitions of the name.
// buf holds them (three at most: the array stays on the caller's stack).
func (r *Registry) candidates(rec *Recorded, buf *[3]*Tool) []*Tool {
	out := buf[:0]
	for _, v := range rec.Variants {
		if t := r.scoped[v][rec.Name]; t != nil {
			return append(out, t)
		}
	}
	if rec.Team {
		if t := r.scoped[TeamScope][rec.Name]; t != nil {
			return append(out, t)
		}
	}
	if t := r.LookupAt(rec.Name, rec.Host, rec.Release); t != nil {
		out = append(out, t)
	}
	if rec.Host == "" {
		for i := range r.Variants {
			if v := &r.Variants[i]; v.Fork {
				if t := v.Tool(rec.Name); t != nil && len(out) < len(buf) {
					out = append(out, t)
				}
			}
		}
	}
	if !rec.Team {
		if t := r.scoped[TeamScope][rec.Name]; t != nil && len(out) < len(buf) {
			out = append(out, t)
		}
	}
	return out
}

// Resolve is the definition whose projectors replay a call: the
// registry's, or an alternative candidate (see candidates) that accepts
// the arguments execution saw, and the recorded value, where the
// registry's does not.
func (r *Registry) Resolve(rec *Recorded) *Tool {
	var buf [3]*Tool
	cs := r.candidates(rec, &buf)
	if len(cs) == 0 {
		return nil
	}
	if len(cs) == 1 || fits(cs[0], rec) {
		return cs[0]
	}
	for _, t := range cs[1:] {
		if argsKnown(t) && fits(t, rec) {
			return t
		}
	}
	return cs[0]
}

// fits reports whether t accepts the call's arguments and its recorded
// value (when there is one).
func fits(t *Tool, rec *Recorded) bool {
	if len(t.ValidateArgs(rec.ExecArgs)) > 0 {
		return false
	}
	return rec.Value.IsUndefined() || t.Output == nil || len(t.ValidateValue(rec.Value)) == 0
}

// CheckArgs judges a call's arguments against what the host recorded.
func (r *Registry) CheckArgs(rec *Recorded) ArgsCheck {
	out := ArgsCheck{Outcome: rec.Outcome()}
	var buf [3]*Tool
	cs := r.candidates(rec, &buf)
	text, _ := singleText(rec.Content)
	switch out.Outcome {
	case ToolUnknown:
		// The host resolved no definition: its presenters drew nothing.
		out.Expected, out.Checked = true, true
		if text != UnknownToolText(rec.Name) {
			out.Mismatch = "the recorded unknown-tool error is not the registry's message"
			out.Want = UnknownToolText(rec.Name)
		}
		return out
	case ToolCollapsed:
		out.Checked = true
		if text != CollapsedToolText(rec.Name) {
			out.Mismatch = "the recorded Code Mode denial is not the registry's message"
			out.Want = CollapsedToolText(rec.Name)
		}
	case ArgsRejected:
		return r.checkRejected(rec, cs, text)
	}
	if len(cs) == 0 {
		return out
	}
	// The definition that draws: the first candidate whose presenters
	// accept the arguments, else the registry's.
	out.Tool = cs[0]
	out.Declined = declines(cs[0], rec.Args)
	if len(out.Declined) > 0 {
		for _, t := range cs[1:] {
			if (t.PresentCall != nil || t.PresentResult != nil) && len(declines(t, rec.Args)) == 0 {
				out.Tool, out.Declined = t, nil
				break
			}
		}
	}
	if out.Outcome == ArgsAccepted && out.Mismatch == "" {
		// The host validated the arguments and ran the body.
		var viol []Violation
		for i, t := range cs {
			if !argsKnown(t) {
				viol = nil
				break
			}
			vs := t.ValidateArgs(rec.ExecArgs)
			if len(vs) == 0 {
				viol = nil
				break
			}
			if i == 0 {
				viol = vs
			}
		}
		// A known variant accepting them says the deployment's
		// configuration, not the port, differs: the notice below names it.
		if len(viol) > 0 && r.AcceptingVariant(rec.Name, rec.Args) == nil {
			out.Mismatch = "the host accepted and executed arguments the port's parameter schema rejects (" + viol[0].Message + ")"
		}
	}
	if len(out.Declined) > 0 || out.Mismatch != "" {
		if alt := r.AcceptingVariant(rec.Name, rec.Args); alt != nil {
			out.Hint = "the " + alt.Plugin + " variant of " + rec.Name + " accepts them: run with " + alt.Selects
		}
	}
	return out
}

// checkRejected judges a recorded "invalid arguments" rejection: it
// verifies when a candidate's own validation rejects the same arguments
// with the same text, and that candidate draws the (generic) card.
func (r *Registry) checkRejected(rec *Recorded, cs []*Tool, text string) ArgsCheck {
	out := ArgsCheck{Outcome: ArgsRejected}
	var first *Tool
	var firstText string
	for _, t := range cs {
		if !argsKnown(t) {
			continue
		}
		vs := t.ValidateArgs(rec.ExecArgs)
		if len(vs) == 0 {
			continue
		}
		if want := InvalidArgsText(vs); want == text {
			out.Tool, out.Checked, out.Expected = t, true, true
			out.Declined = declines(t, rec.Args)
			return out
		} else if first == nil {
			first, firstText = t, want
		}
	}
	if len(cs) == 0 {
		return out // no port: no-projector
	}
	out.Tool = cs[0]
	if !argsKnown(cs[0]) && first == nil {
		// The port cannot say what the host's validation was.
		out.Declined = declines(cs[0], rec.Args)
		out.Expected = true
		return out
	}
	out.Checked = true
	if first == nil {
		out.Mismatch = "the host rejected the arguments but the port's parameter schema accepts them"
		return out
	}
	out.Tool, out.Want = first, firstText
	out.Declined = declines(first, rec.Args)
	out.Expected = true // the card is generic either way
	out.Mismatch = "the host rejected the arguments with another message than the port's validation gives"
	return out
}
