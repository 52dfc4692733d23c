package code

import (
	"bufio"
	"os"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// runCodeAt is run_code as a log of release (host unknown) resolves it.
func runCodeAt(t *testing.T, cfg, release string) *projector.Tool {
	t.Helper()
	tl := registry(t, cfg).LookupAt("run_code", "", release)
	if tl == nil {
		t.Fatalf("release %q: no run_code", release)
	}
	return tl
}

// testdata/run_code_sandbox_render.jsonl is the render of ptc.ts (PTC mode,
// 0.1.6-alpha.1) under Node for values with and without sandbox.
func TestRunCodeSandboxRenderGolden(t *testing.T) {
	f, err := os.Open("testdata/run_code_sandbox_render.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl := runCodeAt(t, "", "0.1.7")
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		rec := jsonv.MustParse(sc.Text())
		n++
		if vs := tl.ValidateValue(rec.Get("value")); len(vs) > 0 {
			t.Errorf("line %d: value rejected: %v", n, vs)
		}
		out, err := tl.RunRender(jsonv.Obj(), rec.Get("value"))
		if err != nil {
			t.Errorf("line %d: %v", n, err)
			continue
		}
		if got, want := out.At(0).Get("text").Str(), rec.Get("text").Str(); got != want {
			t.Errorf("line %d: render = %q, want %q", n, got, want)
		}
	}
	if n < 8 {
		t.Fatalf("only %d golden records", n)
	}
}

// Each release's run_code: the value schema, render and parameters of the
// definition that release shipped.
func TestRunCodeByRelease(t *testing.T) {
	denied := `{"logs":["a"],"sandbox":{"mode":"read-only","denied":true}}`
	partial := `{"logs":[],"sandbox":{"mode":"workspace-write","denied":false,"enforcement":"partial"}}`
	for _, c := range []struct {
		name, cfg, release string
		sandbox            bool // the value may carry sandbox; render reports it
	}{
		{"no release", "", "", false},
		{"baseline", "", "0.1.1-rc.2", false},
		{"v2", "", "0.1.3", false},
		{"v3", "", "0.1.5", false},
		{"first sandbox tree", "", "0.1.6-alpha.1", true},
		{"v4", "", "0.1.7", true},
		{"v4 alpha", "", "0.1.7-alpha.1", true},
		{"pinned newer than the log", `{"release":"0.1.7"}`, "0.1.3", true},
		{"pinned older than the log", `{"release":"0.1.5"}`, "0.1.7", false},
		{"pinned, log says none", `{"release":"0.1.7"}`, "", true},
		{"lasmex pinned", `{"host":"lasmex"}`, "0.1.7", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tl := runCodeAt(t, c.cfg, c.release)
			vs := tl.ValidateValue(jsonv.MustParse(denied))
			if (len(vs) == 0) != c.sandbox {
				t.Errorf("value with sandbox: violations %v, want accepted=%v", vs, c.sandbox)
			}
			// Render runs whatever the schema said (upstream's order is
			// validate, then render; a thrown render is its own finding).
			out, err := tl.RunRender(jsonv.Obj(), jsonv.MustParse(partial))
			if err != nil {
				t.Fatal(err)
			}
			want := "(run_code completed with no output)"
			if c.sandbox {
				want = "File sandbox enforcement is partial on this host."
			}
			if got := out.At(0).Get("text").Str(); got != want {
				t.Errorf("render = %q, want %q", got, want)
			}
			// timeoutMs is a number from the sandbox release on; before it
			// any extra argument passes.
			bad := jsonv.MustParse(`{"code":"1","description":"d","timeoutMs":"soon"}`)
			if declined := len(tl.Declines(bad)) > 0; declined != c.sandbox {
				t.Errorf("timeoutMs string declined=%v, want %v", declined, c.sandbox)
			}
			good := jsonv.MustParse(`{"code":"1","description":"d","timeoutMs":5,"sandbox_permissions":"workspace-write","justification":"j"}`)
			if vs := tl.Declines(good); len(vs) > 0 {
				t.Errorf("controls declined: %v", vs)
			}
			if v := tl.Declines(jsonv.MustParse(`{"code":"1","description":"d","sandbox_permissions":"read-only"}`)); (len(v) > 0) != c.sandbox {
				t.Errorf("sandbox_permissions read-only declined=%v, want %v", len(v) > 0, c.sandbox)
			}
		})
	}
}

// str_replace_editor by release: from 0.1.6-alpha.1 a null placeholder for
// an unused parameter passes, and a null insert_line gives no line; before
// it a null is a schema violation (no view).
func TestEditorByRelease(t *testing.T) {
	for _, c := range []struct {
		release, args string
		declined      bool
		want          string // JSON of the call view; "" = no view expected
	}{
		{"0.1.5", `{"command":"view","path":"/a","view_range":null}`, true, ""},
		{"0.1.6-alpha.1", `{"command":"view","path":"/a","view_range":null}`, false,
			`{"card":"generic","title":"view /a","kind":"read","locations":[{"path":"/a"}]}`},
		{"0.1.7", `{"command":"insert","path":"/a","insert_line":null,"new_str":"x"}`, false,
			`{"card":"generic","title":"insert /a","kind":"edit","locations":[{"path":"/a"}]}`},
		{"0.1.7", `{"command":"insert","path":"/a","insert_line":0,"new_str":"x"}`, false,
			`{"card":"generic","title":"insert /a","kind":"edit","locations":[{"path":"/a","line":1}]}`},
		{"0.1.7", `{"command":"str_replace","path":"/a","old_str":"o","new_str":null}`, false,
			`{"card":"diff","title":"str_replace /a","diffs":[{"path":"/a","oldText":"o","newText":""}],"locations":[{"path":"/a"}]}`},
		{"0.1.7", `{"command":"create","path":"/a","file_text":null}`, false,
			`{"card":"diff","title":"create /a","diffs":[{"path":"/a","oldText":null,"newText":""}],"locations":[{"path":"/a"}]}`},
		{"0.1.7", `{"command":"view","path":"/a","view_range":"1-2"}`, true, ""},
		{"", `{"command":"insert","path":"/a","insert_line":null,"new_str":"x"}`, true, ""},
	} {
		tl := registry(t, "").LookupAt("str_replace_editor", "dsh", c.release)
		args := jsonv.MustParse(c.args)
		if declined := len(tl.Declines(args)) > 0; declined != c.declined {
			t.Errorf("%q %s: declined = %v, want %v (%v)", c.release, c.args, declined, c.declined, tl.Declines(args))
			continue
		}
		if c.want == "" {
			continue
		}
		view, err := tl.CallView(args)
		if err != nil {
			t.Fatal(err)
		}
		if got := jsonv.Stringify(view); got != c.want {
			t.Errorf("%q %s: view = %s, want %s", c.release, c.args, got, c.want)
		}
	}
}
