package toolkit

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// The DSL spec of todo_write's parameters (tool-todo/src/index.ts) must
// compile to exactly what upstream's generated catalog prints.
func TestCompileParamsMatchesCatalog(t *testing.T) {
	spec := jsonv.MustParse(`{"todos":{"type":"array","required":true,"description":"The COMPLETE task list, replacing any previous list.",
	 "items":{"type":"object","additionalProperties":false,"properties":{
	  "content":{"type":"string","required":true,"description":"What the task is — a short imperative line."},
	  "status":{"type":"string","required":true,"enum":["pending","in_progress","completed"],"description":"pending (not started) | in_progress (now) | completed (done)."}}}}}`)
	want := `{"type":"object","properties":{"todos":{"type":"array","description":"The COMPLETE task list, replacing any previous list.","items":{"type":"object","additionalProperties":false,"properties":{"content":{"type":"string","description":"What the task is — a short imperative line."},"status":{"type":"string","description":"pending (not started) | in_progress (now) | completed (done).","enum":["pending","in_progress","completed"]}},"required":["content","status"]}}},"required":["todos"]}`
	if got := jsonv.Stringify(CompileParams(spec)); got != want {
		t.Errorf("CompileParams =\n%s\nwant\n%s", got, want)
	}
}

func TestCompile(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{`{"type":"json","description":"d"}`, `{"description":"d"}`},
		{`{"required":true,"oneOf":[{"type":"null"},{"type":"string","const":"x"}],"title":"t"}`, `{"oneOf":[{"type":"null"},{"type":"string","const":"x"}],"title":"t"}`},
		{`{"type":"object","additionalProperties":true}`, `{"type":"object","additionalProperties":true}`},
		{`{"type":"object","additionalProperties":false,"properties":{"a":{"type":"integer"}}}`, `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"integer"}}}`},
		{`{"type":"array","items":{"type":"json"}}`, `{"type":"array","items":{}}`},
		{`{"const":1,"type":"number","enum":[1,2],"examples":[1]}`, `{"type":"number","examples":[1],"enum":[1,2],"const":1}`},
	} {
		if got := jsonv.Stringify(MustCompile(c.spec)); got != c.want {
			t.Errorf("Compile(%s) = %s, want %s", c.spec, got, c.want)
		}
	}
	if got := jsonv.Stringify(CompileParams(jsonv.Obj())); got != `{"type":"object","properties":{}}` {
		t.Errorf("empty params = %s", got)
	}
}

func TestJSString(t *testing.T) {
	for _, c := range []struct{ v, want string }{
		{`null`, "null"}, {`true`, "true"}, {`1e21`, "1e+21"}, {`-0`, "0"}, {`0.000001`, "0.000001"}, {`1e-7`, "1e-7"},
		{`"s"`, "s"}, {`[1,null,[2,[3]],"a"]`, "1,,2,3,a"}, {`{}`, "[object Object]"}, {`[]`, ""},
	} {
		if got := JSString(jsonv.MustParse(c.v)); got != c.want {
			t.Errorf("JSString(%s) = %q, want %q", c.v, got, c.want)
		}
	}
	if JSString(jsonv.Value{}) != "undefined" {
		t.Error("undefined")
	}
}

func TestBoundChars(t *testing.T) {
	for _, c := range []struct {
		text   string
		max    int
		notice string
		want   string
	}{
		{"abc", 3, "!!", "abc"},
		{"abcd", 3, "!", "ab!"},
		{"abcd", 2, "!!!", "!!"},
		{"😀😀😀", 4, "!", "😀\xed\xa0\xbd!"}, // a UTF-16 cut leaves a lone surrogate, as slice() does
	} {
		if got := BoundChars(c.text, c.max, c.notice); got != c.want {
			t.Errorf("BoundChars(%q, %d, %q) = %q, want %q", c.text, c.max, c.notice, got, c.want)
		}
	}
}

func TestPropAndErrors(t *testing.T) {
	if _, err := Prop(jsonv.NullValue(), "x"); err == nil || err.Error() != "Cannot read properties of null (reading 'x')" {
		t.Errorf("null read: %v", err)
	}
	if v, err := Prop(jsonv.Str("héllo😀"), "length"); err != nil || v.Num() != 7 {
		t.Errorf("string length = %v, %v", v, err)
	}
	if v, _ := Prop(jsonv.Num(3), "x"); v.IsDefined() {
		t.Error("number property should be undefined")
	}
	if err := MethodErr(jsonv.Num(1), "args.plan", "split"); err.Error() != "args.plan.split is not a function" {
		t.Errorf("MethodErr = %v", err)
	}
}
