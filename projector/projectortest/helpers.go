package projectortest

import (
	"errors"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// NewRegistry builds a registry of one family from a configuration document
// ("" is the shipped defaults), failing the test on any error.
func NewRegistry(t testing.TB, cfg string, register func(*projector.Registry) error) *projector.Registry {
	t.Helper()
	c := projector.Config{}
	if cfg != "" {
		var err error
		if c, err = projector.ParseConfig([]byte(cfg)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := projector.NewRegistry(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := register(r); err != nil {
		t.Fatal(err)
	}
	return r
}

// Tool looks a tool up, failing the test when it is not registered.
func Tool(t testing.TB, r *projector.Registry, name string) *projector.Tool {
	t.Helper()
	tl := r.Lookup(name)
	if tl == nil {
		t.Fatalf("tool %q not registered", name)
	}
	return tl
}

// RenderText runs render on JSON texts and returns the single text block's
// text; a render failure is returned, any other shape fails the test.
func RenderText(t testing.TB, tl *projector.Tool, args, value string) (string, error) {
	t.Helper()
	out, err := tl.RunRender(jsonv.MustParse(args), jsonv.MustParse(value))
	if err != nil {
		return "", err
	}
	if out.Len() != 1 || !out.At(0).Get("text").IsString() {
		t.Fatalf("render returned %s", out)
	}
	return out.At(0).Get("text").Str(), nil
}

// NoPanics is the body of a family's projector fuzz target: it runs the four
// projectors of tools[pick] contained on JSON texts (skipping unparsable
// ones) and fails on a panic. When render fails, presentResult gets the
// value as its content so that it still sees the input.
func NoPanics(t *testing.T, tools []*projector.Tool, pick uint8, argsText, valueText string, isError bool) {
	t.Helper()
	args, err := jsonv.ParseString(argsText)
	if err != nil {
		return
	}
	value, err := jsonv.ParseString(valueText)
	if err != nil {
		return
	}
	tl := tools[int(pick)%len(tools)]
	check := func(what string, err error) {
		var fail *projector.Failure
		if errors.As(err, &fail) && fail.Panic {
			t.Fatalf("%s %s panicked on args=%s value=%s: %s\n%s", tl.Name, what, argsText, valueText, fail.Message, fail.Stack)
		}
	}
	content, err := tl.RunRender(args, value)
	check("render", err)
	meta, _, err := tl.RunPresentationMeta(args, value)
	check("presentationMeta", err)
	_, err = tl.CallView(args)
	check("presentCall", err)
	if content.IsUndefined() {
		content = value
	}
	_, err = tl.ResultView(args, projector.Result{Content: content, IsError: isError, Meta: meta})
	check("presentResult", err)
}
