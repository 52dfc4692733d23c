package projector_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

func outputTool(t testing.TB, schema string) *projector.Tool {
	t.Helper()
	tool := &projector.Tool{Name: "T", Output: &projector.Output{Schema: jsonv.MustParse(schema)}}
	r, _ := projector.NewRegistry(projector.Config{})
	if err := r.Add(tool); err != nil {
		t.Fatalf("schema %s: %v", schema, err)
	}
	return tool
}

const openSchema = `{"type":"object","properties":{"file":{"type":"string"},"nested":{"type":"object","properties":{"line":{"type":"integer"}},"required":["line"],"additionalProperties":false}},"required":["file"]}`

const readSchema = `{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"offset":{"type":"integer"},"lines":{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"number":{"type":"integer"},"text":{"type":"string"}},"required":["number","text"]}},"totalLines":{"type":"integer"}},"required":["path","offset","lines","totalLines"]}`

// The upstream cases of json-schema.spec.ts:293-400 plus the cases where
// kaptinlin's own verdict differs from upstream's (marked kaptinlinDiffers):
// upstream wins.
func TestValidateValueViolations(t *testing.T) {
	type v = projector.Violation
	cases := []struct {
		name, schema    string
		value           jsonv.Value
		want            []v
		kaptinlinDiffer bool
	}{
		{"string ok", `{"type":"string"}`, jsonv.Str("x"), nil, false},
		{"number ok", `{"type":"number"}`, jsonv.Num(1.5), nil, false},
		{"null ok", `{"type":"null"}`, jsonv.NullValue(), nil, false},
		{"string", `{"type":"string"}`, jsonv.Int(1), []v{{"", `"value" must be a string`}}, false},
		{"number", `{"type":"number"}`, jsonv.Str("1"), []v{{"", `"value" must be a number`}}, false},
		{"NaN", `{"type":"number"}`, jsonv.Num(math.NaN()), []v{{"", `"value" must be a finite JSON number`}}, false},
		{"-0 number", `{"type":"number"}`, jsonv.MustParse(`-0`), []v{{"", `"value" must be a finite JSON number`}}, true},
		{"-0 integer", `{"type":"integer"}`, jsonv.MustParse(`-0`), []v{{"", `"value" must be an integer`}}, true},
		{"1e400 is Infinity", `{"type":"number"}`, jsonv.MustParse(`1e400`), []v{{"", `"value" must be a finite JSON number`}}, false},
		{"integer 1.5", `{"type":"integer"}`, jsonv.Num(1.5), []v{{"", `"value" must be an integer`}}, false},
		{"integer 1.0", `{"type":"integer"}`, jsonv.MustParse(`1.0`), nil, false},
		{"integer 1e300", `{"type":"integer"}`, jsonv.MustParse(`1e300`), nil, false},
		{"boolean", `{"type":"boolean"}`, jsonv.Str("true"), []v{{"", `"value" must be a boolean`}}, false},
		{"null", `{"type":"null"}`, jsonv.Int(0), []v{{"", `"value" must be null`}}, false},
		{"enum", `{"type":"string","enum":["a","b"],"const":"a"}`, jsonv.Str("c"), []v{{"", `"value" must be one of ["a","b"]`}}, false},
		{"const", `{"type":"string","enum":["a","b"],"const":"a"}`, jsonv.Str("b"), []v{{"", `"value" must be "a"`}}, false},
		{"enum JS numbers", `{"type":"number","enum":[1e21,5e-7]}`, jsonv.Int(2), []v{{"", `"value" must be one of [1e+21,5e-7]`}}, false},
		{"enum 1.0 is 1", `{"type":"integer","enum":[1,2]}`, jsonv.MustParse(`1.0`), nil, false},
		{"open root extra", openSchema, jsonv.MustParse(`{"file":"a","extra":[1],"nested":{"line":2}}`), nil, false},
		{"missing required", openSchema, jsonv.MustParse(`{"nested":{"line":1}}`), []v{{"/file", `missing required property "value.file"`}}, false},
		{"walk order", openSchema, jsonv.MustParse(`{"file":1,"nested":{}}`),
			[]v{{"/file", `"value.file" must be a string`}, {"/nested/line", `missing required property "value.nested.line"`}}, false},
		{"undeclared", openSchema, jsonv.MustParse(`{"file":"a","nested":{"line":1,"extra":true}}`),
			[]v{{"/nested/extra", `"value.nested.extra" is not a declared property (additionalProperties: false)`}}, false},
		{"not an object", openSchema, jsonv.Str("x"), []v{{"", `"value" must be an object`}}, false},
		{"undefined is missing", `{"type":"object","properties":{"x":{}},"required":["x"]}`, jsonv.Obj(jsonv.M("x", jsonv.Value{})),
			[]v{{"/x", `missing required property "value.x"`}}, false},
		{"lossy object", `{"type":"object"}`, jsonv.Obj(jsonv.M("x", jsonv.Value{})), []v{{"", `"value" must be a lossless JSON object`}}, true},
		{"-0 in an open object", `{"type":"object"}`, jsonv.MustParse(`{"x":-0}`), []v{{"", `"value" must be a lossless JSON object`}}, true},
		{"-0 under an annotation-only node", `{"type":"object","properties":{"x":{}}}`, jsonv.MustParse(`{"x":[-0]}`),
			[]v{{"/x", `"value.x" must be a lossless JSON value`}}, true},
		{"array item", `{"type":"array","items":{"type":"integer"}}`, jsonv.MustParse(`[1,1.5]`), []v{{"/1", `"value[1]" must be an integer`}}, false},
		{"not an array", `{"type":"array","items":{"type":"integer"}}`, jsonv.Str("x"), []v{{"", `"value" must be an array`}}, false},
		{"sparse array", `{"type":"array","items":{"type":"integer"}}`, jsonv.Arr(jsonv.Int(1), jsonv.Value{}), []v{{"", `"value" must be a dense lossless JSON array`}}, true},
		{"oneOf none", `{"oneOf":[{"type":"string"},{"type":"number"}]}`, jsonv.NullValue(), []v{{"", `"value" must match exactly one oneOf branch (matched 0)`}}, false},
		{"oneOf overlap", `{"oneOf":[{"type":"number"},{"type":"integer"}]}`, jsonv.Int(1), []v{{"", `"value" must match exactly one oneOf branch (matched 2)`}}, false},
		{"oneOf overlap fraction", `{"oneOf":[{"type":"number"},{"type":"integer"}]}`, jsonv.Num(1.5), nil, false},
		{"any JSON -0", `{}`, jsonv.MustParse(`-0`), []v{{"", `"value" must be a lossless JSON value`}}, true},
		{"any JSON undefined", `{}`, jsonv.Value{}, []v{{"", `"value" must be a lossless JSON value`}}, false},
		{"read value", readSchema, jsonv.MustParse(`{"path":"a","offset":1.5,"lines":[{"number":"1"}],"totalLines":2,"x":1}`), []v{
			{"/offset", `"value.offset" must be an integer`},
			{"/lines/0/text", `missing required property "value.lines[0].text"`},
			{"/lines/0/number", `"value.lines[0].number" must be an integer`},
			{"/x", `"value.x" is not a declared property (additionalProperties: false)`},
		}, false},
		{"keys are not escaped", `{"type":"object","additionalProperties":false}`, jsonv.MustParse(`{"a\"b\n\u00e9":1}`), []v{
			{"/a\"b\n\u00e9", "\"value.a\"b\n\u00e9\" is not a declared property (additionalProperties: false)"},
		}, false},
		{"declared integer-like properties walk first", `{"type":"object","properties":{"b":{"type":"string"},"10":{"type":"string"},"2":{"type":"string"}}}`, jsonv.MustParse(`{"b":1,"10":1,"2":1}`), []v{
			{"/2", `"value.2" must be a string`},
			{"/10", `"value.10" must be a string`},
			{"/b", `"value.b" must be a string`},
		}, false},
		{"integer-like keys first", `{"type":"object","additionalProperties":false}`, jsonv.MustParse(`{"b":1,"2":1,"a/~":1,"1":1}`), []v{
			{"/1", `"value.1" is not a declared property (additionalProperties: false)`},
			{"/2", `"value.2" is not a declared property (additionalProperties: false)`},
			{"/b", `"value.b" is not a declared property (additionalProperties: false)`},
			{"/a~1~0", `"value.a/~" is not a declared property (additionalProperties: false)`},
		}, false},
	}
	for _, c := range cases {
		for _, withKaptinlin := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/kaptinlin=%v", c.name, withKaptinlin), func(t *testing.T) {
				tool := outputTool(t, c.schema)
				got := tool.ValidateValue(c.value)
				if withKaptinlin {
					got = tool.ValidateValueWithKaptinlin(c.value)
				}
				if len(got) != len(c.want) {
					t.Fatalf("got %v, want %v", got, c.want)
				}
				for i := range got {
					if got[i] != c.want[i] {
						t.Errorf("violation %d: got %+v, want %+v", i, got[i], c.want[i])
					}
				}
				// Document where kaptinlin alone would decide differently.
				ks := kaptinlinVerdict(t, c.schema, c.value)
				if (ks == (len(c.want) == 0)) == c.kaptinlinDiffer {
					t.Errorf("kaptinlin alone says valid=%v: kaptinlinDiffer should be %v", ks, !c.kaptinlinDiffer)
				}
			})
		}
	}
}

func kaptinlinVerdict(t testing.TB, schema string, v jsonv.Value) bool {
	ks, err := projector.CompileKaptinlin(jsonv.MustParse(schema))
	if err != nil {
		t.Fatal(err)
	}
	return projector.KaptinlinValid(ks, v)
}

func TestValidateArgsRootLabel(t *testing.T) {
	tool := &projector.Tool{Name: "read", Parameters: projector.ParamSchema(
		projector.Param{Name: "file_path", Type: "string", Required: true},
		projector.Param{Name: "offset", Type: "number"},
		projector.Param{Name: "mode", Type: "string", Enum: []string{"workspace-write", "danger-full-access"}},
	)}
	cases := []struct {
		args string
		want string
	}{
		{`{"file_path":"a"}`, ""},
		{`{"file_path":"a","unknown":1}`, ""},
		{`{}`, `missing required property "file_path"`},
		{`{"file_path":"a","offset":"5"}`, `"offset" must be a number`},
		{`{"file_path":"a","offset":1e400}`, `"offset" must be a finite JSON number`},
		{`{"file_path":"a","mode":"x"}`, `"mode" must be one of ["workspace-write","danger-full-access"]`},
		{`"str"`, `"arguments" must be an object`},
		{`{"file_path":"a","extra":-0}`, `"arguments" must be a lossless JSON object`},
	}
	for _, c := range cases {
		got := projector.JoinViolations(tool.ValidateArgs(jsonv.MustParse(c.args)))
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.args, got, c.want)
		}
	}
	if got := projector.JoinViolations(tool.ValidateArgs(jsonv.Value{})); got != `"arguments" must be an object` {
		t.Errorf("undefined args: %q", got)
	}
}

func TestCompileSchemaSubset(t *testing.T) {
	cases := []struct{ schema, want string }{
		{readSchema, ""},
		{`{}`, ""},
		{`{"type":"string","pattern":"x"}`, `schema.pattern is not a supported keyword`},
		{`{"type":["string","null"]}`, `schema.type must be a single type string`},
		{`{"type":"string","oneOf":[{},{}]}`, `schema cannot declare both type and oneOf`},
		{`{"oneOf":[{"type":"string"}]}`, `schema.oneOf must be an array of at least two schemas`},
		{`{"type":"object","required":["x"]}`, `schema.required names "x" which is not in properties`},
		{`{"type":"string","items":{}}`, `schema.items is not supported on type "string"`},
		{`{"type":"string","enum":[]}`, `schema.enum must be a non-empty array of string values`},
		{`{"type":"string","enum":["a"],"const":"b"}`, `schema.const must be one of schema.enum when both are declared`},
		{`{"items":{}}`, `schema.items requires type or oneOf`},
		{`{"type":"object","properties":{"a":{"type":"strin"}}}`, `schema.properties.a.type must be one of`},
	}
	for _, c := range cases {
		err := projector.CompileSchema(jsonv.MustParse(c.schema))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.schema, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want %q", c.schema, err, c.want)
		}
	}
}

func TestParamSchemaBytes(t *testing.T) {
	got := jsonv.Stringify(projector.ParamSchema(
		projector.Param{Name: "file_path", Type: "string", Required: true, Description: "Path."},
		projector.Param{Name: "mode", Type: "string", Description: "Mode.", Enum: []string{"a", "b"}},
		projector.Param{Name: "n", Type: "number"},
	))
	want := `{"type":"object","properties":{"file_path":{"type":"string","description":"Path."},"mode":{"type":"string","description":"Mode.","enum":["a","b"]},"n":{"type":"number"}},"required":["file_path"]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := jsonv.Stringify(projector.ParamSchema()); got != `{"type":"object","properties":{}}` {
		t.Errorf("empty: %s", got)
	}
}
