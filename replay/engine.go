package replay

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Options configure verification.
type Options struct {
	// Strict makes unverified calls and logs (no projector, unknown events,
	// torn tails) failures.
	Strict bool
	// Shake re-runs every projector and presenter this many more times in
	// this process and reports outputs that move.
	Shake int
	// Fingerprint fills CallResult.Fingerprint (for comparing with a run in
	// a perturbed environment).
	Fingerprint bool
	// SpillCap is the spill policy's maxInlineBytes; negative when the
	// deployment configuration does not say (then it is inferred).
	SpillCap int
	// Views fills CallResult.View (what a sink needs to draw the call's
	// card: the recorded call and its presenters' views).
	Views bool
	// Kaptinlin validates values with kaptinlin/jsonschema before the
	// upstream walk (verify --kaptinlin; see projector.Tool.ValidateValue).
	Kaptinlin bool
}

// Engine verifies calls against a registry. It is safe for concurrent use.
type Engine struct {
	reg  *projector.Registry
	opts Options
}

// NewEngine builds an engine. The spill cap comes from the registry's
// configuration (plugins["spill-policy"].maxInlineBytes) unless set.
func NewEngine(reg *projector.Registry, opts Options) *Engine {
	if opts.SpillCap == 0 {
		opts.SpillCap = reg.Config.PluginInt("spill-policy", "maxInlineBytes", -1)
	}
	return &Engine{reg: reg, opts: opts}
}

func (e *Engine) validateValue(t *projector.Tool, value jsonv.Value) []projector.Violation {
	if e.opts.Kaptinlin {
		return t.ValidateValueWithKaptinlin(value)
	}
	return t.ValidateValue(value)
}

// Recorded is what the registry judges a call's arguments by.
func Recorded(c *logformat.Call) projector.Recorded {
	return projector.Recorded{Name: c.Name, Host: c.Host, Release: c.Release, Team: c.Team, Variants: c.Variants(), Args: c.Arguments, ExecArgs: ExecArgs(c),
		HasResult: c.HasResult, IsError: c.IsError, Error: c.Error, Content: c.Content, Value: c.Value,
		Synthetic: c.Synthetic, SubCall: c.IsSubCall}
}

// VerifyCall verifies one call and then each of its sub-calls, returning
// one result per call in that order. Nothing escapes it: a panic in the
// engine itself becomes an internal-error finding.
func (e *Engine) VerifyCall(c *logformat.Call) []CallResult {
	out := make([]CallResult, 0, 1+len(c.SubCalls))
	out = append(out, e.verifyOne(c))
	for _, s := range c.SubCalls {
		out = append(out, e.VerifyCall(s)...)
	}
	return out
}

func (e *Engine) verifyOne(c *logformat.Call) (res CallResult) {
	res = CallResult{File: c.File, Line: c.Line, CallID: c.CallID, Tool: c.Name, SubCall: c.IsSubCall}
	defer func() {
		if r := recover(); r != nil {
			res.Findings = append(res.Findings, Finding{Class: InternalError, Sev: Fatal, Projector: "-",
				Message: fmt.Sprintf("internal error (this is a bug, please report it): %v", r),
				Diff:    strings.Split(strings.TrimSpace(string(debug.Stack())), "\n")})
		}
		res.finish(c)
	}()
	rec := Recorded(c)
	tool := e.reg.Resolve(&rec)
	check := e.reg.CheckArgs(&rec)
	if tool == nil {
		if check.Outcome == projector.ToolUnknown || check.Outcome == projector.ToolCollapsed {
			// The host did not know the tool either: its generic card is
			// what the host drew, and the recorded error is checked.
			res.Checked = append(res.Checked, checkedName(check))
			if f, ok := mismatchFinding(c, check); ok {
				res.Findings = append(res.Findings, f)
			}
			if e.opts.Views {
				res.View = newView(c, jsonv.Value{}, jsonv.Value{}, nil, nil)
			}
			return res
		}
		sev := Warning
		if e.opts.Strict {
			sev = Failure
		}
		res.Status = Unverified
		res.Findings = append(res.Findings, Finding{Class: NoProjector, Sev: sev, Projector: "-",
			Message: fmt.Sprintf("no Go port of tool %q: generic card, not verified", c.Name)})
		if e.opts.Views {
			res.View = newView(c, jsonv.Value{}, jsonv.Value{}, nil, nil)
		}
		return res
	}
	v := &callRun{e: e, tool: tool, c: c, res: &res, check: check}
	v.run()
	e.hintRelease(c, tool, v.args, res.Findings)
	hintDeclared(c, tool, res.Findings)
	if e.opts.Views {
		res.View = newView(c, v.callView, v.resultView, v.callErr, v.resultErr)
	}
	if e.opts.Fingerprint {
		res.Fingerprint = v.first.fingerprint()
	}
	if e.opts.Shake > 0 {
		v.shake()
	}
	return res
}

// finish fills provenance into findings and computes the status.
func (r *CallResult) finish(c *logformat.Call) {
	for i := range r.Findings {
		f := &r.Findings[i]
		f.File, f.Line, f.CallID, f.Tool = c.File, c.Line, c.CallID, c.Name
	}
	switch w := worst(r.Findings); {
	case w >= Failure:
		r.Status = Diverged
	case r.Status == Unverified:
	default:
		r.Status = Verified
	}
}

// resolve is the definition whose projectors replay c (Registry.Resolve).
func (e *Engine) resolve(c *logformat.Call) *projector.Tool {
	rec := Recorded(c)
	return e.reg.Resolve(&rec)
}

// ExecArgs are the arguments as execution saw them (projector.ExecArgs).
func ExecArgs(c *logformat.Call) jsonv.Value {
	return projector.ExecArgs(c.RawArguments, c.Arguments, c.IsSubCall)
}

// outputs are what one run of the projectors and presenters produced, for
// the shake comparison.
type outputs struct {
	content, meta, callView, resultView string
}

type callRun struct {
	e    *Engine
	tool *projector.Tool
	// check is the verdict on the arguments: which definition draws the
	// cards, and whether the port's parameter schema agrees with the host.
	check projector.ArgsCheck
	c     *logformat.Call
	res   *CallResult
	args  jsonv.Value // execution semantics
	// projectorsRun: render (and meta) ran in the first pass.
	renderRun, metaRun bool
	first              outputs
	// content and meta are what the presenters get: the recorded ones, or
	// the replayed ones when those are byte for byte the recorded text (the
	// same value, already decoded: the recorded side is never parsed).
	content, meta jsonv.Value
	// views are the presenters' outputs of the first run (Options.Views).
	callView, resultView jsonv.Value
	callErr, resultErr   error
}

func (v *callRun) add(f Finding) {
	if f.Class == SandboxUnsupported {
		// Not checked, rather than diverged: the engine, not the plugin,
		// lacks what it used.
		v.res.Status = Unverified
		if !v.e.opts.Strict {
			f.Sev = Warning
		}
	}
	v.res.Findings = append(v.res.Findings, f)
}

func (v *callRun) checked(what string) { v.res.Checked = append(v.res.Checked, what) }

func (v *callRun) run() {
	c, t := v.c, v.tool
	v.args = ExecArgs(c)
	v.content, v.meta = c.Content, c.Meta
	if c.HasResult && !c.IsError && c.Value.IsDefined() && t.Output != nil {
		v.res.HasValue = true
		v.projectors()
	} else if c.Meta.IsDefined() && (c.IsSubCall ||
		c.HasResult && !c.IsError && t.Output != nil && t.Output.PresentationMeta == nil) {
		// Even without a value: this tool can never have produced meta.
		v.metaUnexpected()
	}
	v.presenters(&v.first)
}

func (v *callRun) metaUnexpected() {
	msg := "the log recorded meta but the tool declares no presentationMeta"
	if v.c.IsSubCall {
		msg = "a Code Mode sub-call recorded meta (sub-calls never have any)"
	}
	v.add(Finding{Class: MetaUnexpected, Sev: Failure, Projector: "presentationMeta", Message: msg})
}

func (v *callRun) projectors() {
	c := v.c
	p := v.e.project(v.tool, c, v.args)
	if vs := p.Invalid; len(vs) > 0 {
		msgs := make([]string, len(vs))
		for i, x := range vs {
			msgs[i] = x.Message
		}
		ptr := vs[0].Pointer
		v.add(Finding{Class: SchemaInvalid, Sev: Failure, Projector: "schema", Pointer: ptr,
			Message: "the recorded value violates the output schema: " + strings.Join(msgs, "; ")})
		// Upstream never renders an invalid value (it becomes INVALID_TOOL_OUTPUT).
		if c.Meta.IsDefined() && c.IsSubCall {
			v.metaUnexpected()
		}
		return
	}
	v.renderRun = true
	v.fingerprint(&v.first.content, p.Content, p.ContentErr)
	switch {
	case p.ContentErr != nil:
		v.add(failed(RenderFailed, "render", p.ContentErr))
	case c.ContentReplaced:
		// A policy or finalizeContent replaced the content: nothing to compare.
	default:
		v.checked("content")
		v.compareContent(p.Content)
	}
	// presentationMeta: top-level calls only; null is a value, not absence.
	if !p.MetaDeclared {
		if c.Meta.IsDefined() {
			v.metaUnexpected()
		}
		return
	}
	meta := p.Meta
	v.metaRun = true
	v.checked("meta")
	v.fingerprint(&v.first.meta, meta, p.MetaErr)
	switch {
	case p.MetaErr != nil:
		v.add(failed(MetaFailed, "presentationMeta", p.MetaErr))
	case c.Meta.IsUndefined():
		f := Finding{Class: MetaMissing, Sev: Failure, Projector: "presentationMeta",
			Message: "presentationMeta produced " + kindName(meta) + " but the log recorded no meta"}
		f.deferDiff(func() []string { return TextDiff("(absent)", indent(meta), DiffLimit) })
		v.add(f)
	case SameText(c.Meta, meta):
		v.meta = meta
	default:
		if !Same(c.Meta, meta) {
			ptr, _ := FirstDiff(c.Meta, meta)
			f := Finding{Class: MetaMismatch, Sev: Failure, Projector: "presentationMeta", Pointer: ptr,
				Message: "presentationMeta(args, value) differs from the recorded meta" + at(ptr)}
			rec := c.Meta
			f.deferDiff(func() []string { return jsonDiff(rec, meta, ptr) })
			v.add(f)
		}
	}
}

func kindName(v jsonv.Value) string {
	switch v.Kind() {
	case jsonv.Null:
		return "null"
	case jsonv.Object:
		return "an object"
	case jsonv.Array:
		return "an array"
	}
	return "a " + v.Kind().String()
}

func at(ptr string) string {
	if ptr == "" {
		return ""
	}
	return " at " + ptr
}

func (v *callRun) compareContent(content jsonv.Value) {
	rec := v.c.Content
	switch v.e.judgeContent(v.tool, v.c, content) {
	case contentSameText:
		v.content = content
	case contentSame, contentOwnSpill, contentSpilled:
	case contentBadSpill:
		f := Finding{Class: ContentMismatch, SubKind: SubSpillPreview, Sev: Failure, Projector: "render",
			Message: "the recorded spill preview is not the spill transform of render(args, value)"}
		spillCap := v.e.opts.SpillCap
		f.deferDiff(func() []string { return spillDiff(rec, content, spillCap) })
		v.add(f)
	default:
		ptr, _ := FirstDiff(rec, content)
		f := Finding{Class: ContentMismatch, SubKind: contentSubKind(rec, content), Sev: Failure, Projector: "render",
			Pointer: ptr, Message: "render(args, value) differs from the recorded content" + at(ptr)}
		f.deferDiff(func() []string { return jsonDiff(rec, content, ptr) })
		v.add(f)
	}
}

// spillDiff compares the recorded preview with the replacement the spill
// transform gives for the rendered text (or with the rendered text itself
// when no replacement fits).
func spillDiff(rec, content jsonv.Value, cap int) []string {
	r, _ := textOf(rec)
	if want, ok := spillExpected(rec, content, cap); ok {
		return TextDiff(r, want, DiffLimit)
	}
	if p, ok := textOf(content); ok {
		return TextDiff(r, p, DiffLimit)
	}
	return TextDiff(r, indent(content), DiffLimit)
}

func failed(class Class, projector string, err error) Finding {
	msg := err.Error()
	if f, ok := err.(*projectorFailure); ok && f.Panic {
		msg = projector + " panicked: " + f.Message
	}
	if f, ok := err.(*projectorFailure); ok && f.Class != "" {
		class, msg = Class(f.Class), f.Message
		if i := strings.Index(msg, "failed: "); i >= 0 && strings.HasPrefix(msg, "tool ") {
			msg = msg[i+len("failed: "):]
		}
	}
	msg = firstLine(msg)
	if f, ok := err.(*projectorFailure); ok && f.At != "" && f.Class == "" {
		msg += " (thrown at " + f.At + ")"
	}
	return Finding{Class: class, Sev: Failure, Projector: projector, Message: msg}
}

type projectorFailure = projector.Failure

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

func (v *callRun) presenters(o *outputs) {
	c, t := v.c, v.check.Tool
	if o == &v.first {
		v.argsFindings()
	}
	// Presenters get strict JSON.parse arguments: no view when that failed,
	// nor for a tool the host did not know.
	if c.Arguments.IsUndefined() || t == nil {
		return
	}
	// A soft-validation violation is "no view" (the generic card), as
	// upstream draws it.
	declined := len(v.check.Declined) > 0
	present := func(run func() (jsonv.Value, error)) (jsonv.Value, error) {
		if declined {
			return jsonv.Value{}, nil
		}
		return run()
	}
	if t.PresentCall != nil {
		if o == &v.first {
			v.checked("presentCall")
		}
		view, err := present(func() (jsonv.Value, error) { return t.RunPresentCall(c.Arguments) })
		if o == &v.first {
			v.callView, v.callErr = view, err
		}
		v.fingerprint(&o.callView, view, err)
		if err != nil && o == &v.first {
			v.add(presenterFailed("presentCall", err))
		}
	}
	if t.PresentResult != nil && c.HasResult {
		if o == &v.first {
			v.checked("presentResult")
		}
		view, err := present(func() (jsonv.Value, error) {
			return t.RunPresentResult(c.Arguments, projector.Result{Content: v.content, IsError: c.IsError, Meta: v.meta})
		})
		if o == &v.first {
			v.resultView, v.resultErr = view, err
		}
		v.fingerprint(&o.resultView, view, err)
		if err != nil && o == &v.first {
			v.add(presenterFailed("presentResult", err))
		}
		// A pruned replacement copy of the result gets its own result view
		// from the host (same meta, smaller content).
		if o == &v.first {
			for _, pv := range c.Views {
				if _, err := t.ResultView(c.Arguments, projector.Result{Content: pv.Content, IsError: c.IsError, Meta: v.meta}); err != nil {
					f := presenterFailed("presentResult", err)
					f.Message = fmt.Sprintf("on the pruned copy at line %d: %s", pv.Line, f.Message)
					v.add(f)
				}
			}
		}
	}
}

// argsFindings reports what the arguments verdict found: a parameter
// schema that disagrees with the host's, or presenters declining arguments
// the log does not say the host judged.
func (v *callRun) argsFindings() {
	if v.check.Checked {
		v.checked(checkedName(v.check))
	}
	if f, ok := mismatchFinding(v.c, v.check); ok {
		v.add(f)
		return
	}
	if len(v.check.Declined) > 0 && !v.check.Expected && v.c.Arguments.IsDefined() {
		v.add(v.declinedFinding(v.check.Declined))
	}
}

// checkedName is what a checked arguments verdict compared: the registry's
// rejection of the arguments, or its unknown-tool error.
func checkedName(check projector.ArgsCheck) string {
	if check.Outcome == projector.ToolUnknown || check.Outcome == projector.ToolCollapsed {
		return "unknown-tool"
	}
	return "arguments"
}

// mismatchFinding is the params-mismatch divergence of a check, if any.
func mismatchFinding(c *logformat.Call, check projector.ArgsCheck) (Finding, bool) {
	if check.Mismatch == "" {
		return Finding{}, false
	}
	msg := check.Mismatch
	if check.Hint != "" {
		msg += "; " + check.Hint
	}
	f := Finding{Class: ParamsMismatch, Sev: Failure, Projector: "parameters", Message: msg}
	if rec, ok := textOf(c.Content); ok && check.Want != "" {
		f.Diff = TextDiff(rec, check.Want, DiffLimit)
	}
	return f, true
}

// declinedFinding is the presenter-declined notice, naming a known plugin
// variant whose presenters would accept the arguments.
func (v *callRun) declinedFinding(viol []projector.Violation) Finding {
	t := v.check.Tool
	which := "presentCall and presentResult"
	switch {
	case t.PresentCall == nil:
		which = "presentResult"
	case t.PresentResult == nil:
		which = "presentCall"
	}
	// Upstream draws the generic card too only if this port's definition is
	// the one the log's host had, which the log does not say.
	msg := fmt.Sprintf("%s declined the recorded arguments (%s): drawn as a generic card; upstream does the same if its %s has these parameters", which, viol[0].Message, v.c.Name)
	if v.check.Hint != "" {
		msg += "; " + v.check.Hint
	}
	sev := Warning
	if v.e.opts.Strict {
		sev = Failure
	}
	return Finding{Class: PresenterDeclined, Sev: sev, Projector: "presentCall", Message: msg}
}

func presenterFailed(name string, err error) Finding {
	msg := err.Error()
	if f, ok := err.(*projectorFailure); ok && f.Panic {
		msg = name + " panicked: " + f.Message
	}
	class := PresenterFailed
	if f, ok := err.(*projectorFailure); ok && f.Class != "" {
		class = Class(f.Class)
	}
	return Finding{Class: class, Sev: Failure, Projector: name, Message: firstLine(msg)}
}

// fingerprint records an output for the shake comparison (only in shake
// mode: encoding every output would cost the ordinary run).
func (v *callRun) fingerprint(dst *string, out jsonv.Value, err error) {
	if v.e.opts.Shake > 0 || v.e.opts.Fingerprint {
		*dst = encodeOut(out, err)
	}
}

// encodeOut is a byte-exact fingerprint of one output (key order counts:
// the output is serialised with JSON.stringify downstream).
func encodeOut(v jsonv.Value, err error) string {
	if err != nil {
		return "(failed) " + err.Error()
	}
	if v.IsUndefined() {
		return "(undefined)"
	}
	return jsonv.Encode(v)
}
