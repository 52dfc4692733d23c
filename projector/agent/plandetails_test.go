package agent

import (
	"os"
	"strings"
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

// testdata/plan_details_present_call.jsonl is the details presentCall (and
// its normalizeDetails and firstHeading) of the plan-mode source with the
// annex, run under Node over the arguments in it.
func TestPlanDetailsPresentCallVectors(t *testing.T) {
	tl := planDetailsTool()
	n := 0
	for _, rec := range loadJSONL(t, "testdata/plan_details_present_call.jsonl") {
		n++
		view, err := tl.RunPresentCall(rec.Get("args"))
		if want := rec.Get("error"); want.IsDefined() {
			if err == nil || err.Error() != want.Str() {
				t.Errorf("%s: error %v, want %q", jsonv.Stringify(rec.Get("args")), err, want.Str())
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", jsonv.Stringify(rec.Get("args")), err)
			continue
		}
		if got, want := jsonv.Stringify(view), jsonv.Stringify(rec.Get("view")); got != want {
			t.Errorf("%s:\n got  %s\n want %s", jsonv.Stringify(rec.Get("args")), got, want)
		}
	}
	if n < 10 {
		t.Fatalf("only %d vectors", n)
	}
}

func loadJSONL(t *testing.T, path string) []jsonv.Value {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []jsonv.Value
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		out = append(out, jsonv.MustParse(l))
	}
	return out
}
