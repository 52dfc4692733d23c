package replay

import (
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

// A value only a later release's definition accepts is schema-invalid for
// the release the log's format says, and the finding names the release
// that accepts it; a log of that release verifies.
func TestSchemaInvalidNamesLaterRelease(t *testing.T) {
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	text := "so far\n[still running after 5000ms; moved to background job job-1]\nThe command keeps running in the background. You will be notified when it finishes; read newer output with job_output, stop it with job_kill."
	for _, tc := range []struct {
		release, host, want string
		hint                bool
	}{
		{"", "dsh", "schema-invalid", true},
		{"0.1.5", "", "schema-invalid", true},
		{"0.1.7", "", "", false},
		{"", "lasmex", "schema-invalid", false},
	} {
		c := call(`{"kind":"promoted","jobId":"job-1","timeoutMs":5000,"output":"so far"}`, `[{"type":"text","text":`+jsonv.Quote(text)+`}]`, "")
		c.Name, c.RawArguments, c.Arguments = "bash", `{"command":"make","description":"Build it"}`, jsonv.MustParse(`{"command":"make","description":"Build it"}`)
		c.Release, c.Host = tc.release, tc.host
		rs := NewEngine(reg, Options{Strict: true}).VerifyCall(c)
		if got := classes(rs); got != tc.want {
			t.Fatalf("release %q host %q: findings %q, want %q: %v", tc.release, tc.host, got, tc.want, rs[0].Findings)
		}
		for _, f := range rs[0].Findings {
			if got := strings.Contains(f.Message, `--config '{"release": "0.1.7-alpha.2"}'`); got != tc.hint {
				t.Errorf("release %q host %q: hint %v, want %v: %s", tc.release, tc.host, got, tc.hint, f.Message)
			}
		}
	}
}

// A timed ask_user_question (the log's request header declares it) verifies
// a pending value and a timeout argument; the blocking one rejects the
// pending value, and a bad timeout is the timed definition's rejection.
func TestAskTimedCalls(t *testing.T) {
	timedHeader := logformat.NewRequestHeader(3, []byte(`{"header":{"tools":[{"name":"ask_user_question","parameters":{"type":"object","properties":{"questions":{"type":"array"},"timeout":{"type":"integer"}},"required":["questions"]}}]}}`))
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	pending := `{"pending":true,"callId":"c1","message":"No answer batch arrived before the timeout."}`
	answers := `{"answers":[{"id":"q","selected":["Yes"]}]}`
	args := `{"questions":[{"id":"q","question":"Continue?"}],"timeout":30}`
	for _, tc := range []struct {
		name, value string
		timed       bool
		want        string
	}{
		{"timed pending", pending, true, ""},
		{"timed answers", answers, true, ""},
		{"legacy answers", answers, false, ""},
		{"legacy pending", pending, false, "schema-invalid"},
	} {
		v := jsonv.MustParse(tc.value)
		c := call(tc.value, `[{"type":"text","text":`+jsonv.Quote(jsonv.Stringify(v))+`}]`, "")
		c.Name, c.RawArguments, c.Arguments = "ask_user_question", args, jsonv.MustParse(args)
		if tc.timed {
			c.Request = timedHeader
		}
		rs := NewEngine(reg, Options{Strict: true}).VerifyCall(c)
		if got := classes(rs); got != tc.want {
			t.Errorf("%s: findings %q, want %q: %v", tc.name, got, tc.want, rs[0].Findings)
		}
	}
	rec := Recorded(call("", `[{"type":"text","text":"Error: invalid arguments: \"timeout\" must be an integer"}]`, ""))
	rec.Name, rec.Variants, rec.IsError = "ask_user_question", []string{projector.AskTimedScope}, true
	rec.Args = jsonv.MustParse(`{"questions":[{"id":"q","question":"Continue?"}],"timeout":"soon"}`)
	rec.ExecArgs = rec.Args
	if got := reg.Resolve(&rec); got == nil || !got.Parameters.Get("properties").Has("timeout") {
		t.Errorf("a timed call resolves to %v, not the timed definition", got)
	}
	rec.Variants = nil
	if got := reg.Resolve(&rec); got == nil || got.Parameters.Get("properties").Has("timeout") {
		t.Errorf("a blocking call resolves to the timed definition")
	}
}

// exit_plan_mode with a details annex: a call whose header declares it
// draws the annex as a second text block; the pinned definition ignores it.
func TestPlanDetailsCalls(t *testing.T) {
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	args := jsonv.MustParse(`{"plan":"# Ship it\n\nDo the thing.","details":"Step 1: edit main.go"}`)
	texts := func(variants []string) string {
		rec := projector.Recorded{Name: "exit_plan_mode", Args: args, ExecArgs: args, Variants: variants}
		view, err := reg.Resolve(&rec).CallView(args)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, b := range view.Get("content").Elems() {
			out = append(out, b.Get("text").Str())
		}
		return view.Get("title").Str() + ": " + strings.Join(out, " | ")
	}
	if got, want := texts([]string{projector.PlanDetailsScope}), "Ship it: # Ship it\n\nDo the thing. | Step 1: edit main.go"; got != want {
		t.Errorf("with details: %q, want %q", got, want)
	}
	if got, want := texts(nil), "Ship it: # Ship it\n\nDo the thing."; got != want {
		t.Errorf("pinned: %q, want %q", got, want)
	}
}
