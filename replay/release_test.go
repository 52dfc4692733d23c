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

// A read whose recorded lang hint another release's table gives is a
// meta-mismatch that names that release; the release named verifies it.
func TestMetaMismatchNamesReproducingRelease(t *testing.T) {
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	read := func(release, path string) *logformat.Call {
		tl := reg.LookupAt("read", "dsh", release)
		args := jsonv.MustParse(`{"file_path":"` + path + `"}`)
		value := jsonv.MustParse(`{"path":"` + path + `","offset":1,"lines":[{"number":1,"text":"x = 1"}],"totalLines":1}`)
		content, err := tl.RunRender(args, value)
		if err != nil {
			t.Fatal(err)
		}
		meta, _, err := tl.RunPresentationMeta(args, value)
		if err != nil {
			t.Fatal(err)
		}
		return &logformat.Call{File: "s.jsonl", Line: 3, CallID: "r1", Name: "read", Host: "dsh", RawArguments: jsonv.Stringify(args),
			Arguments: args, Started: true, HasResult: true, Content: content, Meta: meta, Value: value}
	}
	for _, tc := range []struct {
		wrote, logRelease, path, want, hint string
	}{
		// A 0.1.7-alpha.2 host's .hcl read in a format-4 log (0.1.7: the rc.2 table).
		{"0.1.7-alpha.2", "0.1.7", "/w/vars.hcl", "meta-mismatch", "0.1.7-alpha.2"},
		// A 0.1.7-rc.2 host's .csv read in a log pinned to 0.1.6-alpha.1.
		{"0.1.7-rc.2", "0.1.6-alpha.1", "/w/a.csv", "meta-mismatch", "0.1.7-rc.2"},
		// The pinned ports' read of a .ps1 (no hint) in a format-4 log.
		{"", "0.1.7", "/w/run.ps1", "meta-mismatch", "0.1.1-rc.2"},
		{"0.1.7", "0.1.7", "/w/vars.hcl", "", ""},
	} {
		c := read(tc.wrote, tc.path)
		c.Release = tc.logRelease
		rs := NewEngine(reg, Options{Strict: true}).VerifyCall(c)
		if got := classes(rs); got != tc.want {
			t.Fatalf("%s by %q in a %q log: findings %q, want %q: %v", tc.path, tc.wrote, tc.logRelease, got, tc.want, rs[0].Findings)
		}
		if tc.hint == "" {
			continue
		}
		if msg := rs[0].Findings[0].Message; !strings.Contains(msg, `read as DSH `+tc.hint+` shipped it reproduces what the log recorded`) || !strings.Contains(msg, `--config '{"release": "`+tc.hint+`"}'`) {
			t.Errorf("%s: no hint naming %s: %s", tc.path, tc.hint, msg)
		}
		c.Release = tc.hint
		if rs := NewEngine(reg, Options{Strict: true}).VerifyCall(c); classes(rs) != "" {
			t.Errorf("%s with release %s: %v", tc.path, tc.hint, rs[0].Findings)
		}
	}
}
