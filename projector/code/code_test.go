package code

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/projectortest"
)

func registry(t testing.TB, cfg string) *projector.Registry {
	t.Helper()
	return projectortest.NewRegistry(t, cfg, Register)
}

func tool(t testing.TB, r *projector.Registry, name string) *projector.Tool {
	t.Helper()
	return projectortest.Tool(t, r, name)
}

func renderText(t *testing.T, tl *projector.Tool, args, value string) (string, error) {
	t.Helper()
	return projectortest.RenderText(t, tl, args, value)
}

// testdata/run_code_render.jsonl is upstream's renderJsonValue output under
// Node for generated values: indentation capped at depth 5, JS key order,
// String(n) numbers, logs joined first.
func TestRunCodeRenderGolden(t *testing.T) {
	f, err := os.Open("testdata/run_code_render.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl := tool(t, registry(t, ""), "run_code")
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		rec := jsonv.MustParse(sc.Text())
		out, err := tl.RunRender(jsonv.Obj(), rec.Get("value"))
		n++
		if err != nil {
			t.Errorf("line %d: %v", n, err)
			continue
		}
		if got, want := out.At(0).Get("text").Str(), rec.Get("text").Str(); got != want {
			t.Errorf("line %d: render = %q, want %q", n, got, want)
		}
	}
	if n < 100 {
		t.Fatalf("only %d golden records", n)
	}
}

func TestRenders(t *testing.T) {
	r := registry(t, "")
	for _, c := range []struct{ tool, args, value, want string }{
		{"run_code", `{}`, `{"logs":[]}`, "(run_code completed with no output)"},
		{"run_code", `{}`, `{"logs":["a",null,"b"],"result":""}`, "a\n\nb"},
		{"cordis_inspect_list", `{}`, `{"providers":[]}`, "{\n  \"providers\": []\n}"},
		{"cordis_define", `{}`, `{"pluginId":"p-1","packageId":"k-1","name":"N","purpose":"x","hasHostHalf":true,"hasClientHalf":false}`, "Defined p-1/k-1 (N); it is not running yet. Use cordis_run to activate this Package."},
		{"cordis_run", `{}`, `{"status":"awaiting-approval","pluginId":"p","packageId":"k","pluginRunId":"r"}`, "p/k is awaiting user approval (r)."},
		{"cordis_run", `{}`, `{"status":"starting","pluginId":"p","packageId":"k","pluginRunId":"r"}`, "p/k is starting asynchronously (r)."},
		{"cordis_run", `{}`, `{"status":"running","pluginId":"p","packageId":"k","pluginRunId":"r","host":{}}`, "p/k is running (r)."},
		{"cordis_stop", `{}`, `{"pluginId":"p"}`, "Dynamic Plugin p is stopped; its definition and versions remain."},
		{"cordis_undefine", `{}`, `{"pluginId":"p","wasRunning":true}`, "Removed dynamic Plugin p and all of its Packages."},
		{"cordis_inspect", `{}`, `"## services\nx"`, "## services\nx"},
		{"cordis_mount", `{}`, `{"id":"dyn-1","pluginName":"n","state":"active","provides":[],"waitingFor":[]}`, `Temporary Plugin dyn-1 is running (plugin "n"; available until unmounted or DSH restarts).`},
		{"cordis_mount", `{}`, `{"id":"dyn-2","pluginName":"n","state":"pending","provides":[],"waitingFor":["shell","fs"]}`, `Temporary Plugin dyn-2 is pending (plugin "n"; missing services: shell, fs; available until unmounted or DSH restarts).`},
		{"cordis_unmount", `{}`, `{"id":"dyn-1","pluginName":"n"}`, "Temporary Plugin dyn-1 was unmounted and removed."},
		{"str_replace_editor", `{}`, `"The file /a has been edited successfully."`, "The file /a has been edited successfully."},
		{"lsp", `{}`, `{"kind":"locations","locations":[],"resolvedWorkspaceUri":"file:///w"}`, "No results."},
		{"lsp", `{}`, `{"kind":"locations","locations":[
			{"uri":"file:///w/b.ts","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}},
			{"uri":"file:///w/a.ts","range":{"start":{"line":9,"character":3},"end":{"line":0,"character":0}}},
			{"uri":"file:///w/b.ts","range":{"start":{"line":2,"character":1},"end":{"line":0,"character":0}}},
			{"uri":"untitled:x","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}],"resolvedWorkspaceUri":"file:///w"}`,
			"b.ts:1:1\nb.ts:3:2\na.ts:10:4\nuntitled:x:1:1"},
		{"lsp", `{}`, `{"kind":"hover","hover":{"contents":"**T**","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}}`, "**T**"},
		{"mcp__github__search_issues", `{}`, `{"content":[{"type":"text","text":"a"},{"type":"image","mimeType":"image/png"},{"type":"audio"},{"type":"resource_link"},{"type":"video"},7,{"type":"text","text":null}]}`,
			"a\n[image: image/png, content discarded]\n[audio: unknown, content discarded]\n[resource: content discarded]\n[unsupported content type: video]\n[unsupported content type: unknown]\n"},
		{"mcp__srv__tool", `{}`, `{"content":[]}`, "(tool returned no text content)"},
		{"mcp__srv__tool", `{}`, `{"content":[{"type":"text","text":""}],"structuredContent":{"a":1}}`, "(tool returned no text content)"},
	} {
		got, err := renderText(t, tool(t, r, c.tool), c.args, c.value)
		if err != nil {
			t.Errorf("%s render: %v", c.tool, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s render = %q, want %q", c.tool, got, c.want)
		}
	}
}

func TestLSPCaps(t *testing.T) {
	r := registry(t, `{"plugins":{"tool-lsp":{"maxLocations":2,"maxResultChars":40}}}`)
	loc := `{"uri":"file:///w/a.ts","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}`
	got, err := renderText(t, tool(t, r, "lsp"), `{}`, `{"kind":"locations","locations":[`+loc+`,`+loc+`,`+loc+`],"resolvedWorkspaceUri":"file:///w"}`)
	if err != nil {
		t.Fatal(err)
	}
	// "a.ts:1:1\na.ts:1:1\n… 1 more location omitted (limit 2)." is 53 units > 40.
	if want := "\n… locations truncated (limit 40 charact"; got != want {
		t.Errorf("lsp cap = %q, want %q", got, want)
	}
	r = registry(t, `{"plugins":{"tool-lsp":{"maxLocations":1}}}`)
	got, _ = renderText(t, tool(t, r, "lsp"), `{}`, `{"kind":"locations","locations":[`+loc+`,`+loc+`,`+loc+`],"resolvedWorkspaceUri":"file:///w"}`)
	if want := "a.ts:1:1\n… 2 more locations omitted (limit 1)."; got != want {
		t.Errorf("lsp omitted = %q, want %q", got, want)
	}
}

func TestRenderThrows(t *testing.T) {
	r := registry(t, "")
	for _, c := range []struct{ tool, value, want string }{
		{"cordis_run", `[]`, "expected a JSON object"},
		{"cordis_run", `{"pluginId":"p","packageId":1}`, `expected JSON string field "packageId"`},
		{"run_code", `{"logs":{}}`, "value.logs.join is not a function"},
		{"lsp", `{"kind":"other"}`, `unreachable variant in tool-lsp output: {"kind":"other"}`},
	} {
		_, err := renderText(t, tool(t, r, c.tool), `{}`, c.value)
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%s render error = %v, want suffix %q", c.tool, err, c.want)
		}
	}
	// cordis_run meta follows the same narrowing.
	meta, ok, err := tool(t, r, "cordis_run").RunPresentationMeta(jsonv.Obj(), jsonv.MustParse(`{"status":"running","pluginId":"p","packageId":"k","pluginRunId":"r","mode":"run"}`))
	if !ok || err != nil || jsonv.Stringify(meta) != `{"pluginId":"p","packageId":"k","pluginRunId":"r"}` {
		t.Errorf("cordis_run meta = %s, %v, %v", meta, ok, err)
	}
	meta, _, err = tool(t, r, "cordis_define").RunPresentationMeta(jsonv.Obj(), jsonv.MustParse(`{"pluginId":"p","packageId":"k","name":"n","purpose":"x","hasHostHalf":true,"hasClientHalf":true}`))
	if err != nil || jsonv.Stringify(meta) != `{"pluginId":"p","packageId":"k"}` {
		t.Errorf("cordis_define meta = %s, %v", meta, err)
	}
}

func TestCallViews(t *testing.T) {
	r := registry(t, "")
	for _, c := range []struct{ tool, args, want string }{
		{"run_code", `{"code":"return 1","description":"Count things"}`, `{"card":"generic","title":"Count things","kind":"execute","rawInput":"return 1"}`},
		{"cordis_inspect_list", `{}`, `{"card":"generic","kind":"read","title":"List Cordis Inspect Providers"}`},
		{"cordis_inspect_query", `{"platform":"host","provider":"svc","method":"list"}`, `{"card":"generic","kind":"read","title":"Query Cordis host svc.list"}`},
		{"cordis_inspect_self", `{}`, `{"card":"generic","kind":"read","title":"Inspect dynamic Cordis Plugins"}`},
		{"cordis_inspect_self", `{"pluginId":"p"}`, `{"card":"generic","kind":"read","title":"Inspect p"}`},
		{"cordis_inspect_self", `{"pluginId":"p","packageId":"k"}`, `{"card":"generic","kind":"read","title":"Inspect p/k"}`},
		{"cordis_define", `{"plugin":{"kind":"new","idPrefix":"snap"},"name":"N","purpose":"P","code":{"host":"h"}}`, `{"card":"generic","kind":"execute","title":"Register Cordis Plugin \"N\" for new snap-*: P","rawInput":{"host":"h"}}`},
		{"cordis_define", `{"plugin":{"kind":"existing","pluginId":"p-1"},"name":"N","purpose":"P","code":{}}`, `{"card":"generic","kind":"execute","title":"Register Cordis Plugin \"N\" for p-1: P","rawInput":{}}`},
		{"cordis_run", `{"pluginId":"p","packageId":"k","mode":"update"}`, `{"card":"generic","kind":"execute","title":"Update Cordis Plugin p · k"}`},
		{"cordis_run", `{"pluginId":"p","packageId":"k","mode":"run"}`, `{"card":"generic","kind":"execute","title":"Run Cordis Plugin p · k"}`},
		{"cordis_stop", `{"pluginId":"p"}`, `{"card":"generic","kind":"execute","title":"Stop Cordis Plugin p"}`},
		{"cordis_undefine", `{"pluginId":"p"}`, `{"card":"generic","kind":"delete","title":"Remove Cordis Plugin p"}`},
		{"cordis_inspect", `{"what":"temporary"}`, `{"card":"generic","kind":"read","title":"Inspect cordis runtime: temporary"}`},
		{"cordis_inspect", `{"what":"api","name":"fs"}`, `{"card":"generic","kind":"read","title":"Inspect cordis runtime: api: fs"}`},
		{"cordis_inspect", `{}`, `{"card":"generic","kind":"read","title":"Inspect cordis runtime"}`},
		{"cordis_mount", `{"code":"return x"}`, `{"card":"generic","kind":"execute","title":"Mount temporary Cordis Plugin","rawInput":{"code":"return x"}}`},
		{"cordis_unmount", `{"id":"dyn-1"}`, `{"card":"generic","kind":"delete","title":"Unmount temporary Cordis Plugin dyn-1"}`},
		{"str_replace_editor", `{"command":"view","path":"/a","view_range":[1,2]}`, `{"card":"generic","title":"view /a","kind":"read","locations":[{"path":"/a"}]}`},
		{"str_replace_editor", `{"command":"str_replace","path":"/a","old_str":"x"}`, `{"card":"diff","title":"str_replace /a","diffs":[{"path":"/a","oldText":"x","newText":""}],"locations":[{"path":"/a"}]}`},
		{"str_replace_editor", `{"command":"str_replace","path":"/a","new_str":"y"}`, `{"card":"diff","title":"str_replace /a","diffs":[{"path":"/a","oldText":null,"newText":"y"}],"locations":[{"path":"/a"}]}`},
		{"str_replace_editor", `{"command":"create","path":"/a"}`, `{"card":"diff","title":"create /a","diffs":[{"path":"/a","oldText":null,"newText":""}],"locations":[{"path":"/a"}]}`},
		{"str_replace_editor", `{"command":"insert","path":"/a","insert_line":7,"new_str":"z"}`, `{"card":"generic","title":"insert /a","kind":"edit","locations":[{"path":"/a","line":8}]}`},
		{"str_replace_editor", `{"command":"insert","path":"/a","new_str":"z"}`, `{"card":"generic","title":"insert /a","kind":"edit","locations":[{"path":"/a"}]}`},
		{"lsp", `{"operation":"hover","file_path":"src/x.ts","line":12,"character":4}`, `{"card":"generic","kind":"search","title":"LSP hover src/x.ts:12:4","locations":[{"path":"src/x.ts","line":12}]}`},
	} {
		got, err := tool(t, r, c.tool).CallView(jsonv.MustParse(c.args))
		if err != nil {
			t.Errorf("%s: %v", c.tool, err)
			continue
		}
		if s := jsonv.Stringify(got); s != c.want {
			t.Errorf("%s callView = %s, want %s", c.tool, s, c.want)
		}
	}
	for _, c := range []struct{ tool, args string }{
		{"str_replace_editor", `{"command":"delete","path":"/a"}`},
		{"lsp", `{"operation":"hover","file_path":"x"}`},
		{"mcp__a__b", `{"x":1}`},
		{"run_code", `{"code":"x"}`},
	} {
		got, err := tool(t, r, c.tool).CallView(jsonv.MustParse(c.args))
		if err != nil || got.IsDefined() {
			t.Errorf("%s callView = %s, %v; want no view", c.tool, got, err)
		}
	}
}

func TestMCPNames(t *testing.T) {
	r := registry(t, "")
	for name, raw := range map[string]string{"mcp__github__list": "list", "mcp__a__b__c": "b__c", "mcp__s__": ""} {
		got, ok := mcpRawName(name)
		if !ok || got != raw {
			t.Errorf("mcpRawName(%q) = %q, %v", name, got, ok)
		}
		if r.Lookup(name) == nil {
			t.Errorf("%s not resolved", name)
		}
	}
	for _, name := range []string{"mcp_x", "mcp__nodelim", "xmcp__a__b"} {
		if r.Lookup(name) != nil {
			t.Errorf("%s should not resolve", name)
		}
	}
}

// FuzzProjectors runs every projector and presenter of the family on
// arbitrary JSON: failures must be contained throws, never port panics.
func FuzzProjectors(f *testing.F) {
	f.Add(uint8(0), `{"code":"x","description":"d"}`, `{"logs":["a"],"result":{"a":[[[[[[1]]]]]]}}`, false)
	f.Add(uint8(3), `{"plugin":{"kind":"new","idPrefix":"x"},"name":"n","purpose":"p","code":{}}`, `{"pluginId":"p","packageId":"k","name":"n","purpose":"p","hasHostHalf":true,"hasClientHalf":false}`, false)
	f.Add(uint8(9), `{"operation":"findReferences","file_path":"a","line":1,"character":1}`, `{"kind":"locations","locations":[{"uri":"file:///C:/x/y","range":{"start":{"line":1,"character":2}}}],"resolvedWorkspaceUri":"file:///c:/x"}`, false)
	f.Add(uint8(11), `{"command":"insert","path":"/p","insert_line":-4}`, `"ok"`, true)
	f.Add(uint8(12), `{}`, `{"content":[{"type":"text","text":"t"},null,[]]}`, false)
	r := registry(f, "")
	tools := append(r.Tools(), r.Lookup("mcp__srv__tool"))
	f.Fuzz(func(t *testing.T, pick uint8, argsText, valueText string, isError bool) {
		projectortest.NoPanics(t, tools, pick, argsText, valueText, isError)
	})
}

// FuzzRenderURI: renderUri never panics and is deterministic.
func FuzzRenderURI(f *testing.F) {
	f.Add("file:///home/u/proj/a.ts", "file:///home/u/proj")
	f.Add("file://server/share/x/../y", "file:///C:/w")
	f.Add("file:c|/%2e%2E/x", "file://h/s")
	f.Fuzz(func(t *testing.T, uri, ws string) {
		if a, b := renderURI(uri, ws), renderURI(uri, ws); a != b {
			t.Fatalf("nondeterministic: %q vs %q", a, b)
		}
	})
}
