package projector_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

var fuzzSchemas = []string{
	readSchema,
	openSchema,
	`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"operation":{"type":"string","enum":["create","update"]},"before":{"oneOf":[{"type":"string"},{"type":"null"}]},"after":{"type":"string"}},"required":["path","operation","before","after"]}`,
	`{"oneOf":[{"type":"number"},{"type":"integer"}]}`,
	`{"type":"array","items":{"type":"number","enum":[1,2.5,1e21],"const":2.5}}`,
	`{}`,
	`{"type":"object","properties":{"a":{"type":"boolean","const":true},"b":{"type":"null"},"c":{}},"required":["a"]}`,
}

// FuzzValidate: arbitrary JSON never panics, and the fast verdict (kaptinlin
// plus the lossless rule) agrees with the upstream walk on every value.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		`{"path":"a","offset":1,"lines":[{"number":1,"text":"x"}],"totalLines":1}`,
		`{"path":"a","offset":1.5,"lines":[{"number":"1","text":2},{"text":"x"},{"number":1,"text":"y","z":0}],"totalLines":-1}`,
		`{"path":"a","operation":"delete","before":1,"after":""}`,
		`{"a":false,"b":0,"c":[1e400]}`,
		`{"path":"a","offset":-0,"lines":[],"totalLines":1e300}`,
		`{"path":"a","operation":"create","before":null,"after":""}`,
		`{"file":"a","nested":{"line":1.0,"x":[-0]}}`,
		`[1,2.5,1e21,2.5]`, `1`, `1.5`, `-0`, `1e400`, `null`, `"x"`, `{"a":true,"c":{"d":-0}}`, `{"2":1,"1":2}`,
	} {
		f.Add(s)
	}
	var tools []*projector.Tool
	for _, s := range fuzzSchemas {
		tools = append(tools, outputTool(f, s))
	}
	f.Fuzz(func(t *testing.T, doc string) {
		v, err := jsonv.ParseString(doc)
		if err != nil {
			return
		}
		for i, tool := range tools {
			got := tool.ValidateValue(v)
			walk := projector.UpstreamWalk(tool, v)
			if fmt.Sprint(got) != fmt.Sprint(walk) {
				t.Fatalf("schema %d on %s: fast path %v, upstream walk %v", i, doc, got, walk)
			}
			for _, vi := range got {
				if vi.Message == "" || (vi.Pointer != "" && !strings.HasPrefix(vi.Pointer, "/")) {
					t.Fatalf("bad violation %+v", vi)
				}
			}
		}
	})
}
