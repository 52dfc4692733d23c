package projectortest

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
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
