package shell

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// testdata/upstream-vectors.jsonl holds outputs of the upstream TypeScript
// projectors (tool-bash, tool-pwsh, tool-bash-persistent, tool-jobs,
// tool-terminal at LasmeX bdc153371d) over seeded adversarial inputs:
// CRLF, lone surrogates, BOMs, emoji, marker-like text, tiny byte caps.
// Each line: {config, tool, args, value, content, meta?, finalizeInput?,
// finalized?, callView, resultInput, resultView?}; a null view is "no view".

func loadLines(t testing.TB, path string) []jsonv.Value {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []jsonv.Value
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		v, err := jsonv.Parse(sc.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out
}

func configOf(v jsonv.Value) projector.Config {
	return projector.Config{Plugins: v.Get("plugins"), Services: v.Get("services")}
}

var (
	toolCacheMu sync.Mutex
	toolCache   = map[string][]*projector.Tool{}
)

// cachedTools builds the family once per configuration.
func cachedTools(t testing.TB, cfg projector.Config) []*projector.Tool {
	t.Helper()
	key := jsonv.Stringify(cfg.Plugins) + "|" + jsonv.Stringify(cfg.Services)
	toolCacheMu.Lock()
	defer toolCacheMu.Unlock()
	if tools, ok := toolCache[key]; ok {
		return tools
	}
	tools, err := Tools(cfg)
	if err != nil {
		t.Fatal(err)
	}
	toolCache[key] = tools
	return tools
}

func lookup(t testing.TB, cfg projector.Config, name string) *projector.Tool {
	t.Helper()
	for _, tool := range cachedTools(t, cfg) {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("tool %q not built", name)
	return nil
}

func viewOrNull(v jsonv.Value) jsonv.Value {
	if v.IsUndefined() {
		return jsonv.NullValue()
	}
	return v
}

func TestUpstreamVectors(t *testing.T) {
	recs := loadLines(t, "testdata/upstream-vectors.jsonl")
	checked := map[string]int{}
	for i, rec := range recs {
		name := fmt.Sprintf("%d:%s", i+1, rec.Get("tool").Str())
		cfg := configOf(rec.Get("config"))
		tool := lookup(t, cfg, rec.Get("tool").Str())
		args, value := rec.Get("args"), rec.Get("value")
		fail := func(field string, want, got jsonv.Value) {
			t.Errorf("%s %s:\n want %s\n got  %s\n args %s\n value %s", name, field, jsonv.Stringify(want), jsonv.Stringify(got), jsonv.Stringify(args), jsonv.Stringify(value))
		}
		if vs := tool.ValidateValue(value); len(vs) > 0 {
			t.Errorf("%s: value violates the output schema: %v", name, vs)
		}
		if want := rec.Get("content"); want.IsDefined() {
			checked["content"]++
			got, err := tool.RunRender(args, value)
			if err != nil {
				t.Errorf("%s render: %v", name, err)
			} else if !jsonv.Equal(want, got) || jsonv.Stringify(want) != jsonv.Stringify(got) {
				fail("content", want, got)
			}
		}
		if rec.Has("meta") {
			checked["meta"]++
			got, ok, err := tool.RunPresentationMeta(args, value)
			if !ok || err != nil || !jsonv.Equal(rec.Get("meta"), got) {
				fail("meta", rec.Get("meta"), got)
			}
		}
		if in := rec.Get("finalizeInput"); in.IsDefined() {
			checked["finalized"]++
			if !HasFinalizer(tool.Name) {
				t.Errorf("%s: HasFinalizer false", name)
			}
			r := projector.Result{Content: in.Get("content"), IsError: in.Get("isError").True()}
			v := value
			if r.IsError {
				v = jsonv.Value{}
			}
			got := FinalizeContent(cfg, tool.Name, args, v, r)
			if want := rec.Get("finalized"); !jsonv.Equal(want, got) {
				fail("finalized", want, got)
			}
		}
		checked["callView"]++
		if got, want := viewOrNull(tool.PresentCall(args)), rec.Get("callView"); !jsonv.Equal(want, got) {
			fail("callView", want, got)
		}
		// The registry path (the contract's soft validation first) agrees.
		if got, err := tool.CallView(args); err != nil || !jsonv.Equal(rec.Get("callView"), viewOrNull(got)) {
			fail("CallView", rec.Get("callView"), got)
		}
		if rec.Has("resultView") {
			checked["resultView"]++
			in := rec.Get("resultInput")
			r := projector.Result{Content: in.Get("content"), IsError: in.Get("isError").True(), Meta: in.Get("meta")}
			if got, want := viewOrNull(tool.PresentResult(args, r)), rec.Get("resultView"); !jsonv.Equal(want, got) {
				fail("resultView", want, got)
			}
			if got, err := tool.ResultView(args, r); err != nil || !jsonv.Equal(rec.Get("resultView"), viewOrNull(got)) {
				fail("ResultView", rec.Get("resultView"), got)
			}
		} else if tool.PresentResult != nil {
			t.Errorf("%s: port has presentResult, upstream has none", name)
		}
	}
	t.Logf("%d upstream vectors; fields checked: %v", len(recs), checked)
}

// TestUpstreamSchemas compares the compiled schemas with upstream's
// defineTool compilation under three deployments.
func TestUpstreamSchemas(t *testing.T) {
	configs := map[string]projector.Config{
		"default": {},
		"sandbox": {Services: jsonv.MustParse(`{"shell":{"sandboxMode":"read-only"}}`)},
		"nobg":    {Plugins: jsonv.MustParse(`{"tool-bash":{"enableRunInBackground":false},"tool-pwsh":{"enableRunInBackground":false},"tool-terminal":{"enableRunInBackground":false}}`)},
	}
	n := 0
	for _, rec := range loadLines(t, "testdata/upstream-schemas.jsonl") {
		cfg := configs[rec.Get("label").Str()]
		name := rec.Get("name").Str()
		if name == "bash#persist" {
			cfg.Plugins = jsonv.Obj(jsonv.M("tool-bash-persistent", jsonv.Obj()))
			name = "bash"
		}
		tool := lookup(t, cfg, name)
		for _, f := range []struct {
			field     string
			want, got jsonv.Value
		}{{"parameters", rec.Get("parameters"), tool.Parameters}, {"output", rec.Get("output"), tool.Output.Schema}} {
			// Byte-exact: key order matters to `dsh-replay tools schema`.
			if jsonv.Stringify(f.want) != jsonv.Stringify(f.got) {
				t.Errorf("%s %s %s:\n want %s\n got  %s", rec.Get("label").Str(), rec.Get("name").Str(), f.field, jsonv.Stringify(f.want), jsonv.Stringify(f.got))
			}
			n++
		}
	}
	t.Logf("%d schemas byte-identical", n)
}
