package projector

import (
	"fmt"

	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
)

// compiledSchemas holds what compile prepares once per tool.
type compiledSchemas struct{}

// compile prepares the parameter and output schemas for validation.
// TODO(contract): compile with github.com/kaptinlin/jsonschema.
func (t *Tool) compile() error {
	t.compiled = &compiledSchemas{}
	return nil
}

// Violation is one schema violation: a JSON pointer and upstream-style text.
type Violation struct {
	Pointer string
	Message string
}

// ValidateArgs checks arguments against the parameter schema.
// TODO(contract): real validation.
func (t *Tool) ValidateArgs(args jsonv.Value) []Violation { return nil }

// ValidateValue checks a canonical value against the output schema.
// TODO(contract): real validation.
func (t *Tool) ValidateValue(value jsonv.Value) []Violation { return nil }

// Failure is a contained projector or presenter failure.
type Failure struct {
	Tool      string
	Projector string // render, presentationMeta, presentCall, presentResult
	Message   string // upstream wording where upstream has one
	Panic     bool   // the port panicked (a bug in the port, not a thrown error)
}

func (f *Failure) Error() string { return f.Message }

// contain runs fn and turns a panic into a Failure.
func contain(tool, projector string, fn func() (jsonv.Value, error)) (v jsonv.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v = jsonv.Value{}
			err = &Failure{Tool: tool, Projector: projector, Message: fmt.Sprint(r), Panic: true}
		}
	}()
	return fn()
}

// RunRender runs output.render contained. A failure carries upstream's text
// `tool "T" returned invalid output: output.render failed: <msg>`.
func (t *Tool) RunRender(args, value jsonv.Value) (jsonv.Value, error) {
	if t.Output == nil || t.Output.Render == nil {
		return jsonv.Value{}, &Failure{Tool: t.Name, Projector: "render", Message: "no render projector"}
	}
	v, err := contain(t.Name, "render", func() (jsonv.Value, error) { return t.Output.Render(args, value) })
	return t.projection("render", v, err)
}

// RunPresentationMeta runs output.presentationMeta contained; ok is false when
// the tool declares none.
func (t *Tool) RunPresentationMeta(args, value jsonv.Value) (meta jsonv.Value, ok bool, err error) {
	if t.Output == nil || t.Output.PresentationMeta == nil {
		return jsonv.Value{}, false, nil
	}
	v, err := contain(t.Name, "presentationMeta", func() (jsonv.Value, error) { return t.Output.PresentationMeta(args, value) })
	v, err = t.projection("presentationMeta", v, err)
	return v, true, err
}

func (t *Tool) projection(name string, v jsonv.Value, err error) (jsonv.Value, error) {
	if err != nil {
		msg := err.Error()
		panicked := false
		if f, ok := err.(*Failure); ok {
			panicked = f.Panic
		}
		return jsonv.Value{}, &Failure{Tool: t.Name, Projector: name, Panic: panicked,
			Message: fmt.Sprintf("tool %q returned invalid output: output.%s failed: %s", t.Name, name, msg)}
	}
	if v.IsUndefined() {
		return jsonv.Value{}, &Failure{Tool: t.Name, Projector: name,
			Message: fmt.Sprintf("tool %q returned invalid output: output.%s returned non-lossless JSON", t.Name, name)}
	}
	return v, nil
}

// CallView runs presentCall as the host does: soft validation first, a
// panic contained. The undefined Value means no view.
func (t *Tool) CallView(args jsonv.Value) (jsonv.Value, error) {
	if t.PresentCall == nil {
		return jsonv.Value{}, nil
	}
	if !t.RawPresenters && len(t.ValidateArgs(args)) > 0 {
		return jsonv.Value{}, nil
	}
	return contain(t.Name, "presentCall", func() (jsonv.Value, error) { return t.PresentCall(args), nil })
}

// ResultView runs presentResult like CallView.
func (t *Tool) ResultView(args jsonv.Value, r Result) (jsonv.Value, error) {
	if t.PresentResult == nil {
		return jsonv.Value{}, nil
	}
	if !t.RawPresenters && len(t.ValidateArgs(args)) > 0 {
		return jsonv.Value{}, nil
	}
	return contain(t.Name, "presentResult", func() (jsonv.Value, error) { return t.PresentResult(args, r), nil })
}
