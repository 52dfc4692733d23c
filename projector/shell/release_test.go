package shell

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/projectortest"
)

// bashAt is bash as a log of release resolves it under cfg.
func bashAt(t *testing.T, cfg, release string) *projector.Tool {
	t.Helper()
	tl := projectortest.NewRegistry(t, cfg, Register).LookupAt("bash", "", release)
	if tl == nil {
		t.Fatalf("release %q: no bash", release)
	}
	return tl
}

func renderOf(t *testing.T, tl *projector.Tool, value jsonv.Value) string {
	t.Helper()
	out, err := tl.RunRender(jsonv.Obj(), value)
	if err != nil {
		t.Fatalf("render %s: %v", jsonv.Stringify(value), err)
	}
	return out.At(0).Get("text").Str()
}

// testdata/bash_promoted_render.jsonl is the output of tool-bash's
// render.ts of a PromotionRelease tree (renderPromoted, and renderResult
// with the stopped marker, without and with escalation modes) under Node.
func TestBashPromotedRenderGolden(t *testing.T) {
	f, err := os.Open("testdata/bash_promoted_render.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	plain := bashAt(t, "", "0.1.7")
	escalated := bashAt(t, `{"services":{"shell":{"sandboxMode":"read-only"}}}`, "0.1.7")
	sc := bufio.NewScanner(f)
	n, kinds := 0, map[string]int{}
	for sc.Scan() {
		rec := jsonv.MustParse(sc.Text())
		n++
		v := rec.Get("value")
		kinds[v.Get("kind").Str()]++
		if vs := plain.ValidateValue(v); len(vs) > 0 {
			t.Errorf("line %d: value rejected: %v", n, vs)
		}
		if got, want := renderOf(t, plain, v), rec.Get("text").Str(); got != want {
			t.Errorf("line %d: render = %q, want %q", n, got, want)
		}
		if want := rec.Get("escalated"); want.IsDefined() {
			if got := renderOf(t, escalated, v); got != want.Str() {
				t.Errorf("line %d: render with escalation = %q, want %q", n, got, want.Str())
			}
		}
	}
	if kinds["promoted"] < 5 || kinds["foreground"] < 4 {
		t.Fatalf("only %v golden records", kinds)
	}
}

// Each release's bash: promoted values and the stopped marker from
// PromotionRelease on, the pinned definition before; pwsh the same; the
// persistent bash has no such release.
func TestBashByRelease(t *testing.T) {
	promoted := jsonv.MustParse(`{"kind":"promoted","jobId":"job-1","timeoutMs":5000,"output":"so far"}`)
	stopped := jsonv.MustParse(`{"kind":"foreground","exitCode":null,"signal":"SIGTERM","timedOut":false,"aborted":false,"stopped":"stopped by the user","timeoutMs":120000,"stdout":{"text":"out","truncated":false},"stderr":{"text":"","truncated":false}}`)
	for _, c := range []struct {
		release string
		newer   bool
	}{{"", false}, {"0.1.6-alpha.1", false}, {"0.1.7-alpha.1", false}, {PromotionRelease, true}, {"0.1.7", true}, {"0.2.1-alpha.1", true}} {
		tl := bashAt(t, "", c.release)
		for _, v := range []jsonv.Value{promoted, stopped} {
			if ok := len(tl.ValidateValue(v)) == 0; ok != c.newer {
				t.Errorf("release %q: %s valid %v, want %v", c.release, v.Get("kind").Str(), ok, c.newer)
			}
		}
		if got := renderOf(t, tl, stopped); strings.Contains(got, "[stopped: stopped by the user]") != c.newer {
			t.Errorf("release %q: stopped render %q", c.release, got)
		}
		if c.newer {
			if got := renderOf(t, tl, promoted); !strings.HasPrefix(got, "so far\n[still running after 5000ms; moved to background job job-1]\n") {
				t.Errorf("release %q: promoted render %q", c.release, got)
			}
		}
	}
	r := projectortest.NewRegistry(t, "", Register)
	for release, want := range map[string]bool{"0.1.6-alpha.1": false, "0.1.7": true} {
		if got := len(r.LookupAt("pwsh", "", release).ValidateValue(promoted)) == 0; got != want {
			t.Errorf("pwsh at %s accepts a promoted value: %v, want %v", release, got, want)
		}
	}
	if got, err := r.LookupAt("pwsh", "", "0.1.7").RunRender(jsonv.Obj(), promoted); err != nil || !strings.HasPrefix(got.At(0).Get("text").Str(), "so far\n[still running") {
		t.Errorf("pwsh promoted render %v, %v", got, err)
	}
	if len(bashAt(t, `{"plugins":{"tool-bash-persistent":{}}}`, "0.1.7").ValidateValue(jsonv.Str("out"))) != 0 {
		t.Error("the persistent bash lost its string value at 0.1.7")
	}
	if got := r.LookupAt("bash", "lasmex", "0.1.7"); len(got.ValidateValue(promoted)) == 0 {
		t.Error("a LasmeX log takes DSH's promoted bash")
	}
}

// The promoted value's render follows JavaScript on values the schema
// rejects, as the host's would.
func TestRenderPromotedOddValues(t *testing.T) {
	for _, c := range []struct{ value, text, err string }{
		{`{"kind":"promoted","jobId":"j","timeoutMs":1}`, "", "Cannot read properties of undefined (reading 'length')"},
		{`{"kind":"promoted","jobId":"j","timeoutMs":1,"output":null}`, "", "Cannot read properties of null (reading 'length')"},
		{`{"kind":"promoted","jobId":"j","timeoutMs":1,"output":["x"]}`, "", "promoted.output.endsWith is not a function"},
		{`{"kind":"promoted","jobId":"j","timeoutMs":1,"output":[]}`, "[still running after 1ms; moved to background job j]\n" + promotedNotice, ""},
		{`{"kind":"promoted","jobId":7,"timeoutMs":"x","output":5}`, "[still running after xms; moved to background job 7]\n" + promotedNotice, ""},
	} {
		got, err := renderPromoted(jsonv.MustParse(c.value))
		if msg := errString(err); msg != c.err || got != c.text {
			t.Errorf("%s: (%q, %q), want (%q, %q)", c.value, got, msg, c.text, c.err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
