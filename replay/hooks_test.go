package replay

import (
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// hookTools are echo and two tools whose recorded content is not render's
// own: capped, whose finalizeContent cuts it after five bytes, and spilling,
// whose own spill names the stored file instead of "(not saved)".
func hookTools() []*projector.Tool {
	capped := echoTool("capped")
	capped.FinalizeContent = func(_, _ jsonv.Value, r projector.Result) jsonv.Value {
		s := r.Content.At(0).Get("text").Str()
		if len(s) > 5 {
			s = s[:5] + "[truncated]"
		}
		return projector.TextContent(s)
	}
	spilling := echoTool("spilling")
	spilling.MatchOwnSpill = func(rendered, recorded jsonv.Value) bool {
		r, rec := rendered.At(0).Get("text").Str(), recorded.At(0).Get("text").Str()
		return strings.HasSuffix(r, "(not saved)") && rec == strings.TrimSuffix(r, "(not saved)")+"(saved at /spill/x)"
	}
	return []*projector.Tool{echoTool("echo"), capped, spilling}
}

// A tool's finalizeContent and own spill step are part of what the log
// records: the engine compares against them, and still catches a change.
func TestToolHooks(t *testing.T) {
	e := NewEngine(testRegistry(t, hookTools()...), Options{})
	text := func(s string) string { return `[{"type":"text","text":` + jsonv.Quote(s) + `}]` }
	cases := []struct {
		tool, value, content, want string
	}{
		{"capped", `{"text":"hello world"}`, text("hello[truncated]"), ""},
		{"capped", `{"text":"hello world"}`, text("hello world"), "content-mismatch"},
		{"spilling", `{"text":"x (not saved)"}`, text("x (saved at /spill/x)"), ""},
		{"spilling", `{"text":"x (not saved)"}`, text("x (not saved)"), ""},
		{"spilling", `{"text":"y (not saved)"}`, text("x (saved at /spill/x)"), "content-mismatch"},
	}
	for _, c := range cases {
		cl := call(c.value, c.content, "null")
		cl.Name = c.tool
		got := classes(e.VerifyCall(cl))
		if !strings.HasPrefix(got, c.want) || (c.want == "" && got != "") {
			t.Errorf("%s %s with %s: got %q, want %q", c.tool, c.value, c.content, got, c.want)
		}
	}
}
