package replay

import (
	"path/filepath"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

// sandboxValue is a run_code value only the 0.1.6-alpha.1 port accepts.
var sandboxValue = jsonv.MustParse(`{"logs":[],"sandbox":{"mode":"read-only","denied":false}}`)

func collectCalls(t *testing.T, path string, opts logformat.Options) []*logformat.Call {
	t.Helper()
	var calls []*logformat.Call
	if _, err := logformat.ReadCalls(path, opts, func(c *logformat.Call) error {
		calls = append(calls, c)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return calls
}

// A v4 log resolves run_code to the port of the release its format implies
// (0.1.7, so the sandbox one), end to end: testdata/releases holds our own
// v4 log whose value carries sandbox and whose content has both sandbox
// lines. It verifies; pinned to 0.1.5 the value violates that release's
// schema.
func TestV4LogUsesReleasePort(t *testing.T) {
	path := filepath.Join("..", "testdata", "releases", "run-code-sandbox", "session.v4.jsonl")
	for _, c := range []struct {
		release  string
		diverged bool
	}{{"", false}, {"0.1.7", false}, {"0.1.5", true}} {
		reg, err := builtin.Registry(projector.Config{Release: c.release})
		if err != nil {
			t.Fatal(err)
		}
		e := NewEngine(reg, Options{Strict: true})
		calls := collectCalls(t, path, logformat.Options{Release: c.release})
		if len(calls) != 1 || calls[0].Name != "run_code" || calls[0].Format != 4 || !calls[0].HasResult {
			t.Fatalf("pinned %q: calls %+v", c.release, calls)
		}
		if c.release == "" && calls[0].Release != "0.1.7" {
			t.Errorf("release = %q, want 0.1.7 from format 4", calls[0].Release)
		}
		res := e.VerifyCall(calls[0])
		if got := res[0].Status == Diverged; got != c.diverged || !res[0].HasValue {
			t.Errorf("pinned %q: status %v (value %v), findings %+v", c.release, res[0].Status, res[0].HasValue, res[0].Findings)
		}
	}
}

// The upstream snapshot of the same PTC scenario in format 3 (knyazev741)
// and format 4 (Hebilicious): the v4 run_code resolves to the 0.1.6-alpha.1
// port, the v3 one to the baseline, and both verify by their presenters.
func TestSnapshotRunCodeByFormat(t *testing.T) {
	dir := sharedtest.Dir(t, "fixtures", "formats")
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(reg, Options{})
	for _, c := range []struct {
		path    string
		format  int
		sandbox bool
	}{
		{"knyazev741__deepseek-harness/snapshots/session/ptc-python-turn/session.v3.jsonl", 3, false},
		{"Hebilicious__deepseek-harness/snapshots/session/ptc-python-turn/session.v4.jsonl", 4, true},
	} {
		found := false
		for _, call := range collectCalls(t, filepath.Join(dir, c.path), logformat.Options{}) {
			if call.Name != "run_code" {
				continue
			}
			found = true
			if call.Format != c.format || call.Release != logformat.FormatRelease(c.format) {
				t.Errorf("%s: format %d release %q", c.path, call.Format, call.Release)
			}
			rec := Recorded(call)
			tl := e.reg.Resolve(&rec)
			if accepts := len(tl.ValidateValue(sandboxValue)) == 0; accepts != c.sandbox {
				t.Errorf("%s: run_code port accepts sandbox = %v, want %v", c.path, accepts, c.sandbox)
			}
			for _, r := range e.VerifyCall(call) {
				if r.Status == Diverged {
					t.Errorf("%s: %s diverged: %+v", c.path, r.Tool, r.Findings)
				}
			}
		}
		if !found {
			t.Errorf("%s: no run_code call", c.path)
		}
	}
}
