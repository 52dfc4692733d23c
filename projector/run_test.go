package projector_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

func testTool(render func(args, value jsonv.Value) (jsonv.Value, error), meta func(args, value jsonv.Value) (jsonv.Value, error)) *projector.Tool {
	return &projector.Tool{
		Name:       "T",
		Parameters: projector.ParamSchema(projector.Param{Name: "file_path", Type: "string", Required: true}),
		Output:     &projector.Output{Schema: jsonv.MustParse(`{}`), Render: render, PresentationMeta: meta},
		PresentCall: func(args jsonv.Value) jsonv.Value {
			if args.Get("file_path").Str() == "panic" {
				var m map[string]int
				m["x"]++ // a port bug: nil map write
			}
			if args.Get("file_path").Str() == "throw" {
				panic(projector.Throwf("Cannot read properties of undefined (reading 'x')"))
			}
			return jsonv.Obj(jsonv.M("card", jsonv.Str("generic")), jsonv.M("title", args.Get("file_path")))
		},
		PresentResult: func(args jsonv.Value, r projector.Result) jsonv.Value {
			return jsonv.Obj(jsonv.M("card", jsonv.Str("generic")), jsonv.M("meta", r.Meta))
		},
	}
}

func TestRenderContainment(t *testing.T) {
	ok := func(args, value jsonv.Value) (jsonv.Value, error) { return projector.TextContent("x"), nil }
	cases := []struct {
		name   string
		render func(args, value jsonv.Value) (jsonv.Value, error)
		msg    string
		panic  bool
	}{
		{"ok", ok, "", false},
		{"throw", func(args, value jsonv.Value) (jsonv.Value, error) {
			return jsonv.Value{}, projector.Throwf("renderer exploded")
		}, `tool "T" returned invalid output: output.render failed: renderer exploded`, false},
		{"panic(Throw)", func(args, value jsonv.Value) (jsonv.Value, error) {
			panic(projector.Throwf("renderer exploded"))
		}, `tool "T" returned invalid output: output.render failed: renderer exploded`, false},
		{"port bug", func(args, value jsonv.Value) (jsonv.Value, error) {
			var a []int
			_ = a[3]
			return jsonv.Value{}, nil
		}, `tool "T" returned invalid output: output.render failed: runtime error: index out of range [3] with length 0`, true},
		{"undefined", func(args, value jsonv.Value) (jsonv.Value, error) { return jsonv.Value{}, nil },
			`tool "T" returned invalid output: output.render returned non-lossless JSON`, false},
		{"undefined member", func(args, value jsonv.Value) (jsonv.Value, error) {
			return jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Value{}))), nil
		}, `tool "T" returned invalid output: output.render returned non-lossless JSON`, false},
		{"-0", func(args, value jsonv.Value) (jsonv.Value, error) { return jsonv.MustParse(`[-0]`), nil },
			`tool "T" returned invalid output: output.render returned non-lossless JSON`, false},
		{"non-array is accepted", func(args, value jsonv.Value) (jsonv.Value, error) { return jsonv.Str("x"), nil }, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tool := testTool(c.render, nil)
			_, err := tool.RunRender(jsonv.Obj(), jsonv.Int(1))
			if c.msg == "" {
				if err != nil {
					t.Fatalf("unexpected failure %v", err)
				}
				return
			}
			var f *projector.Failure
			if !errors.As(err, &f) {
				t.Fatalf("got %v, want a Failure", err)
			}
			if f.Message != c.msg || f.Panic != c.panic || f.Projector != "render" || f.Tool != "T" {
				t.Errorf("got %+v, want message %q panic %v", f, c.msg, c.panic)
			}
			if f.Panic && !strings.Contains(f.Stack, "goroutine") {
				t.Errorf("panic without a stack")
			}
		})
	}
}

func TestPresentationMetaContainment(t *testing.T) {
	render := func(args, value jsonv.Value) (jsonv.Value, error) { return projector.TextContent("x"), nil }
	cases := []struct {
		name string
		meta func(args, value jsonv.Value) (jsonv.Value, error)
		want jsonv.Value
		msg  string
	}{
		{"null is a value", func(args, value jsonv.Value) (jsonv.Value, error) { return jsonv.NullValue(), nil }, jsonv.NullValue(), ""},
		{"undefined", func(args, value jsonv.Value) (jsonv.Value, error) { return jsonv.Value{}, nil }, jsonv.Value{},
			`tool "T" returned invalid output: output.presentationMeta returned non-lossless JSON`},
		{"undefined lang", func(args, value jsonv.Value) (jsonv.Value, error) {
			return jsonv.Obj(jsonv.M("path", jsonv.Str("a")), jsonv.M("lang", jsonv.Value{})), nil
		}, jsonv.Value{}, `tool "T" returned invalid output: output.presentationMeta returned non-lossless JSON`},
		{"throw", func(args, value jsonv.Value) (jsonv.Value, error) { return jsonv.Value{}, projector.Throwf("boom") }, jsonv.Value{},
			`tool "T" returned invalid output: output.presentationMeta failed: boom`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tool := testTool(render, c.meta)
			got, ok, err := tool.RunPresentationMeta(jsonv.Obj(), jsonv.Int(1))
			if !ok {
				t.Fatal("declared presentationMeta reported absent")
			}
			if c.msg != "" {
				if err == nil || err.Error() != c.msg {
					t.Fatalf("got %v, want %q", err, c.msg)
				}
				return
			}
			if err != nil || !jsonv.Equal(got, c.want) || got.Kind() != c.want.Kind() {
				t.Fatalf("got %v %v, want %v", got, err, c.want)
			}
		})
	}
	if _, ok, err := testTool(render, nil).RunPresentationMeta(jsonv.Obj(), jsonv.Int(1)); ok || err != nil {
		t.Errorf("undeclared presentationMeta: ok=%v err=%v", ok, err)
	}
}

func TestPresenterSoftValidationAndContainment(t *testing.T) {
	tool := testTool(nil, nil)
	cases := []struct {
		name  string
		args  jsonv.Value
		view  string // Stringify of the view, "" = no view
		fail  string // failure message, "" = none
		panic bool
	}{
		{"valid", jsonv.MustParse(`{"file_path":"a"}`), `{"card":"generic","title":"a"}`, "", false},
		{"extra keys pass the open root", jsonv.MustParse(`{"file_path":"a","x":1}`), `{"card":"generic","title":"a"}`, "", false},
		{"missing required", jsonv.MustParse(`{}`), "", "", false},
		{"wrong type", jsonv.MustParse(`{"file_path":5}`), "", "", false},
		{"unparseable (undefined)", jsonv.Value{}, "", "", false},
		{"-0 anywhere", jsonv.MustParse(`{"file_path":"a","n":-0}`), "", "", false},
		{"port bug", jsonv.MustParse(`{"file_path":"panic"}`), "", "assignment to entry in nil map", true},
		{"JS throw", jsonv.MustParse(`{"file_path":"throw"}`), "", "Cannot read properties of undefined (reading 'x')", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := tool.CallView(c.args)
			if c.fail != "" {
				var f *projector.Failure
				if !errors.As(err, &f) || f.Message != c.fail || f.Panic != c.panic || f.Projector != "presentCall" {
					t.Fatalf("got %v (%+v), want failure %q", err, f, c.fail)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if jsonv.Stringify(got) != c.view {
				t.Errorf("view %s, want %q", jsonv.Stringify(got), c.view)
			}
			// presentResult soft-validates the same way.
			rv, err := tool.ResultView(c.args, projector.Result{Content: jsonv.Arr(), Meta: jsonv.NullValue()})
			if err != nil || rv.IsDefined() != (c.view != "") {
				t.Errorf("result view %v %v", rv, err)
			}
		})
	}
	raw := testTool(nil, nil)
	raw.RawPresenters = true
	if v, err := raw.CallView(jsonv.MustParse(`{"file_path":5}`)); err != nil || v.IsUndefined() {
		t.Errorf("raw presenters must skip soft validation: %v %v", v, err)
	}
}

func TestResultViewMetaNullIsNotAbsent(t *testing.T) {
	tool := testTool(nil, nil)
	args := jsonv.MustParse(`{"file_path":"a"}`)
	v, _ := tool.ResultView(args, projector.Result{Content: jsonv.Arr(), Meta: jsonv.NullValue()})
	if got := jsonv.Stringify(v); got != `{"card":"generic","meta":null}` {
		t.Errorf("null meta: %s", got)
	}
	v, _ = tool.ResultView(args, projector.Result{Content: jsonv.Arr()})
	if got := jsonv.Stringify(v); got != `{"card":"generic"}` {
		t.Errorf("absent meta: %s", got)
	}
}

func TestProjectorsList(t *testing.T) {
	tool := testTool(func(a, v jsonv.Value) (jsonv.Value, error) { return jsonv.Arr(), nil }, nil)
	if got := strings.Join(tool.Projectors(), ","); got != "render,presentCall,presentResult" {
		t.Errorf("got %s", got)
	}
}
