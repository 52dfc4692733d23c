package projector

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Failure is a contained projector or presenter failure.
type Failure struct {
	Tool      string
	Projector string // render, presentationMeta, presentCall, presentResult
	Message   string // upstream wording where upstream has one
	Panic     bool   // the port panicked (a bug in the port, not a thrown error)
	Stack     string // where the port panicked (Panic only); never in goldens
	// Class is a finding class the failure asks for instead of the
	// projector's own (a JavaScript plugin's impure or timed-out call).
	Class string
	// At is where a JavaScript plugin's projector threw (file:line:col of
	// its source), when known; never part of Message, which is upstream's.
	At string
}

// Classified is an error that names the finding class it should be
// reported under.
type Classified interface {
	error
	FindingClass() string
}

func (f *Failure) Error() string { return f.Message }

// contain runs fn and turns a panic into a Failure. A port emulates a JS
// throw from a presenter with panic(Throwf(...)): that is a thrown error,
// not a port bug, so Panic stays false.
func contain(tool, projector string, fn func() (jsonv.Value, error)) (v jsonv.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v = jsonv.Value{}
			var th *Throw
			if e, ok := r.(error); ok && errors.As(e, &th) {
				err = &Failure{Tool: tool, Projector: projector, Message: th.Message, At: th.At}
				return
			}
			var cl Classified
			if e, ok := r.(error); ok && errors.As(e, &cl) {
				err = &Failure{Tool: tool, Projector: projector, Message: cl.Error(), Class: cl.FindingClass()}
				return
			}
			buf := make([]byte, 8<<10)
			buf = buf[:runtime.Stack(buf, false)]
			err = &Failure{Tool: tool, Projector: projector, Message: fmt.Sprint(r), Panic: true, Stack: string(buf)}
		}
	}()
	return fn()
}

// RunRender runs output.render contained. A failure carries upstream's text
// `tool "T" returned invalid output: output.render failed: <msg>`, or
// `... output.render returned non-lossless JSON` when the content is not
// lossless JSON (an undefined anywhere, a non-finite number, -0).
func (t *Tool) RunRender(args, value jsonv.Value) (jsonv.Value, error) {
	if t.Output == nil || t.Output.Render == nil {
		return jsonv.Value{}, &Failure{Tool: t.Name, Projector: "render", Message: "no render projector"}
	}
	v, err := contain(t.Name, "render", func() (jsonv.Value, error) { return t.Output.Render(args, value) })
	return t.projection("render", v, err)
}

// RunPresentationMeta runs output.presentationMeta contained; ok is false when
// the tool declares none. Returning undefined is upstream's non-lossless failure.
func (t *Tool) RunPresentationMeta(args, value jsonv.Value) (meta jsonv.Value, ok bool, err error) {
	if t.Output == nil || t.Output.PresentationMeta == nil {
		return jsonv.Value{}, false, nil
	}
	v, err := contain(t.Name, "presentationMeta", func() (jsonv.Value, error) { return t.Output.PresentationMeta(args, value) })
	v, err = t.projection("presentationMeta", v, err)
	return v, true, err
}

// projection is upstream snapshotProjection (index.ts:529-541).
func (t *Tool) projection(name string, v jsonv.Value, err error) (jsonv.Value, error) {
	if err != nil {
		f := &Failure{Tool: t.Name, Projector: name}
		var inner *Failure
		var th *Throw
		switch {
		case errors.As(err, &inner):
			f.Panic, f.Stack, f.Class, f.At = inner.Panic, inner.Stack, inner.Class, inner.At
		case errors.As(err, &th):
			f.At = th.At
		}
		var cl Classified
		if errors.As(err, &cl) {
			f.Class = cl.FindingClass()
		}
		f.Message = fmt.Sprintf("tool %q returned invalid output: output.%s failed: %s", t.Name, name, err.Error())
		return jsonv.Value{}, f
	}
	if !IsLossless(v) {
		return jsonv.Value{}, &Failure{Tool: t.Name, Projector: name,
			Message: fmt.Sprintf("tool %q returned invalid output: output.%s returned non-lossless JSON", t.Name, name)}
	}
	return v, nil
}

// CallView runs presentCall as the host does: soft validation first (a
// violation is "no view", not a failure), a panic contained. The undefined
// Value means no view. Unparseable arguments arrive as undefined and fail
// soft validation.
func (t *Tool) CallView(args jsonv.Value) (jsonv.Value, error) {
	if t.PresentCall == nil {
		return jsonv.Value{}, nil
	}
	if !t.RawPresenters && len(t.ValidateArgs(args)) > 0 {
		return jsonv.Value{}, nil
	}
	return t.RunPresentCall(args)
}

// RunPresentCall runs presentCall contained, without soft validation (for
// a caller that already asked Declines).
func (t *Tool) RunPresentCall(args jsonv.Value) (jsonv.Value, error) {
	if t.PresentCall == nil {
		return jsonv.Value{}, nil
	}
	return contain(t.Name, "presentCall", func() (jsonv.Value, error) { return t.PresentCall(args), nil })
}

// RunPresentResult is RunPresentCall for presentResult.
func (t *Tool) RunPresentResult(args jsonv.Value, r Result) (jsonv.Value, error) {
	if t.PresentResult == nil {
		return jsonv.Value{}, nil
	}
	return contain(t.Name, "presentResult", func() (jsonv.Value, error) { return t.PresentResult(args, r), nil })
}

// ResultView runs presentResult like CallView.
func (t *Tool) ResultView(args jsonv.Value, r Result) (jsonv.Value, error) {
	if t.PresentResult == nil {
		return jsonv.Value{}, nil
	}
	if !t.RawPresenters && len(t.ValidateArgs(args)) > 0 {
		return jsonv.Value{}, nil
	}
	return t.RunPresentResult(args, r)
}

// Projectors lists the projectors a tool has, in upstream order, for
// `dsh-replay tools`.
func (t *Tool) Projectors() []string {
	var out []string
	if t.Output != nil && t.Output.Render != nil {
		out = append(out, "render")
	}
	if t.Output != nil && t.Output.PresentationMeta != nil {
		out = append(out, "presentationMeta")
	}
	if t.PresentCall != nil {
		out = append(out, "presentCall")
	}
	if t.PresentResult != nil {
		out = append(out, "presentResult")
	}
	if t.FinalizeContent != nil {
		out = append(out, "finalizeContent")
	}
	return out
}

// RunFinalizeContent applies FinalizeContent (contained); without one the
// content is returned unchanged.
func (t *Tool) RunFinalizeContent(args, value jsonv.Value, r Result) (jsonv.Value, error) {
	if t.FinalizeContent == nil {
		return r.Content, nil
	}
	return contain(t.Name, "finalizeContent", func() (jsonv.Value, error) {
		return t.FinalizeContent(args, value, r), nil
	})
}

// IsOwnSpill reports whether recorded is the tool's own spill of rendered
// (a panic in the matcher counts as no).
func (t *Tool) IsOwnSpill(rendered, recorded jsonv.Value) (ok bool) {
	if t.MatchOwnSpill == nil {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return t.MatchOwnSpill(rendered, recorded)
}
