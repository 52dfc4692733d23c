package agent

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// presentCall of exit_plan_mode with details: a blank annex (JavaScript's
// trim: NBSP and U+2028 are blank) is none; a kept one is untrimmed; a
// details that is not a string throws as details.trim() does.
func TestPlanDetailsPresentCall(t *testing.T) {
	tl := planDetailsTool()
	for _, c := range []struct{ args, blocks, err string }{
		{`{"plan":"# P"}`, `["# P"]`, ""},
		{`{"plan":"# P","details":" \n\t\u00a0\u2028"}`, `["# P"]`, ""},
		{`{"plan":"# P","details":"  keep me  "}`, `["# P","  keep me  "]`, ""},
		{`{"plan":"# P","details":null}`, "", "Cannot read properties of null (reading 'trim')"},
		{`{"plan":"# P","details":5}`, "", "details.trim is not a function"},
	} {
		view, err := tl.RunPresentCall(jsonv.MustParse(c.args))
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: error %v, want %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		var texts []jsonv.Value
		for _, b := range view.Get("content").Elems() {
			texts = append(texts, b.Get("text"))
		}
		if got := jsonv.Stringify(jsonv.Arr(texts...)); got != c.blocks {
			t.Errorf("%s: blocks %s, want %s", c.args, got, c.blocks)
		}
		if view.Get("title").Str() != "P" {
			t.Errorf("%s: title %q", c.args, view.Get("title").Str())
		}
	}
	if !tl.Parameters.Get("properties").Has("details") {
		t.Error("no details parameter")
	}
}
