package code

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// Cordis tools (packages/extensions/tool-cordis/src/index.ts, present.ts).
// Every call card is generic and names kind before title.
func cordisTools() []*projector.Tool {
	anyJSON := jsonv.Obj() // {type:'json'} compiles to {}
	read := func(title string) jsonv.Value { return toolkit.KindTitle("read", title) }
	return []*projector.Tool{
		{
			Name: "cordis_inspect_list", Plugin: "tool-cordis", Parameters: params("cordis_inspect_list"),
			Output:      &projector.Output{Schema: anyJSON, Render: prettyText},
			PresentCall: func(jsonv.Value) jsonv.Value { return read("List Cordis Inspect Providers") },
			CallCards:   []string{"generic"},
		},
		{
			Name: "cordis_inspect_query", Plugin: "tool-cordis", Parameters: params("cordis_inspect_query"),
			Output: &projector.Output{Schema: anyJSON, Render: prettyText},
			PresentCall: func(args jsonv.Value) jsonv.Value {
				return read("Query Cordis " + str(args.Get("platform")) + " " + str(args.Get("provider")) + "." + str(args.Get("method")))
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "cordis_inspect_self", Plugin: "tool-cordis", Parameters: params("cordis_inspect_self"),
			Output: &projector.Output{Schema: anyJSON, Render: prettyText},
			PresentCall: func(args jsonv.Value) jsonv.Value {
				plugin, pkg := args.Get("pluginId"), args.Get("packageId")
				target := "dynamic Cordis Plugins"
				switch {
				case plugin.IsUndefined():
				case pkg.IsUndefined():
					target = str(plugin)
				default:
					target = str(plugin) + "/" + str(pkg)
				}
				return read("Inspect " + target)
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "cordis_define", Plugin: "tool-cordis", Parameters: params("cordis_define"),
			Output: &projector.Output{
				Schema: toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"pluginId":{"type":"string","required":true},"packageId":{"type":"string","required":true},"name":{"type":"string","required":true},"purpose":{"type":"string","required":true},"hasHostHalf":{"type":"boolean","required":true},"hasClientHalf":{"type":"boolean","required":true}}}`),
				Render: func(_, value jsonv.Value) (jsonv.Value, error) {
					if toolkit.Nullish(value) {
						return jsonv.Value{}, toolkit.ReadErr(value, "pluginId")
					}
					return text("Defined " + str(value.Get("pluginId")) + "/" + str(value.Get("packageId")) + " (" + str(value.Get("name")) +
						"); it is not running yet. Use cordis_run to activate this Package.")
				},
				// The ui-cordis card model reads this meta; no presentResult.
				PresentationMeta: func(_, value jsonv.Value) (jsonv.Value, error) {
					if toolkit.Nullish(value) {
						return jsonv.Value{}, toolkit.ReadErr(value, "pluginId")
					}
					return objDefined(jsonv.M("pluginId", value.Get("pluginId")), jsonv.M("packageId", value.Get("packageId"))), nil
				},
			},
			PresentCall: func(args jsonv.Value) jsonv.Value {
				plugin := args.Get("plugin")
				if toolkit.Nullish(plugin) {
					panic(projector.Throwf("%s", toolkit.ReadErr(plugin, "kind")))
				}
				var target string
				if k := plugin.Get("kind"); k.IsString() && k.Str() == "new" {
					target = "new " + str(plugin.Get("idPrefix")) + "-*"
				} else {
					target = str(plugin.Get("pluginId"))
				}
				v := toolkit.KindTitle("execute", `Register Cordis Plugin "`+str(args.Get("name"))+`" for `+target+": "+str(args.Get("purpose")))
				if code := args.Get("code"); code.IsDefined() {
					v = v.With("rawInput", code)
				}
				return v
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "cordis_run", Plugin: "tool-cordis", Parameters: params("cordis_run"),
			Output: &projector.Output{
				Schema: anyJSON,
				Render: func(_, value jsonv.Value) (jsonv.Value, error) {
					ids, err := runIDs(value)
					if err != nil {
						return jsonv.Value{}, err
					}
					head := ids[0] + "/" + ids[1]
					switch status := value.Get("status"); {
					case status.IsString() && status.Str() == "awaiting-approval":
						return text(head + " is awaiting user approval (" + ids[2] + ").")
					case status.IsString() && status.Str() == "starting":
						return text(head + " is starting asynchronously (" + ids[2] + ").")
					default:
						return text(head + " is running (" + ids[2] + ").")
					}
				},
				PresentationMeta: func(_, value jsonv.Value) (jsonv.Value, error) {
					ids, err := runIDs(value)
					if err != nil {
						return jsonv.Value{}, err
					}
					return jsonv.Obj(jsonv.M("pluginId", jsonv.Str(ids[0])), jsonv.M("packageId", jsonv.Str(ids[1])), jsonv.M("pluginRunId", jsonv.Str(ids[2]))), nil
				},
			},
			PresentCall: func(args jsonv.Value) jsonv.Value {
				verb := "Run"
				if m := args.Get("mode"); m.IsString() && m.Str() == "update" {
					verb = "Update"
				}
				return toolkit.KindTitle("execute", verb+" Cordis Plugin "+str(args.Get("pluginId"))+" · "+str(args.Get("packageId")))
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "cordis_stop", Plugin: "tool-cordis", Parameters: params("cordis_stop"),
			Output: &projector.Output{
				Schema: toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"pluginId":{"type":"string","required":true}}}`),
				Render: func(_, value jsonv.Value) (jsonv.Value, error) {
					id, err := prop(value, "pluginId")
					if err != nil {
						return jsonv.Value{}, err
					}
					return text("Dynamic Plugin " + str(id) + " is stopped; its definition and versions remain.")
				},
			},
			PresentCall: func(args jsonv.Value) jsonv.Value {
				return toolkit.KindTitle("execute", "Stop Cordis Plugin "+str(args.Get("pluginId")))
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "cordis_undefine", Plugin: "tool-cordis", Parameters: params("cordis_undefine"),
			Output: &projector.Output{
				Schema: toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"pluginId":{"type":"string","required":true},"wasRunning":{"type":"boolean","required":true}}}`),
				Render: func(_, value jsonv.Value) (jsonv.Value, error) {
					id, err := prop(value, "pluginId")
					if err != nil {
						return jsonv.Value{}, err
					}
					return text("Removed dynamic Plugin " + str(id) + " and all of its Packages.")
				},
			},
			PresentCall: func(args jsonv.Value) jsonv.Value {
				return toolkit.KindTitle("delete", "Remove Cordis Plugin "+str(args.Get("pluginId")))
			},
			CallCards: []string{"generic"},
		},
	}
}

// objDefined builds an object literal, dropping undefined members as JSON does.
func objDefined(ms ...jsonv.Member) jsonv.Value {
	out := ms[:0:0]
	for _, m := range ms {
		if m.Value.IsDefined() {
			out = append(out, m)
		}
	}
	return jsonv.Obj(out...)
}

// runIDs is requireJsonObject + requireJsonString for the three run ids.
func runIDs(value jsonv.Value) ([3]string, error) {
	var ids [3]string
	if !value.IsObject() {
		return ids, projector.Throwf("expected a JSON object")
	}
	for i, k := range []string{"pluginId", "packageId", "pluginRunId"} {
		f := value.Get(k)
		if !f.IsString() {
			return ids, projector.Throwf("expected JSON string field %q", k)
		}
		ids[i] = f.Str()
	}
	return ids, nil
}

// The previous Cordis generation (cordis_inspect, cordis_mount,
// cordis_unmount): neither pinned tree registers them any more, but both
// trees' history did (DSH tool-cordis until 4064198560, "add dynamic Cordis
// plugin runtime", an ancestor of the pinned commit), and logs of those
// releases record them: the pinned LasmeX tree's own
// apps/web/tests/snapshots/cordis-tool-round/session.jsonl calls all three
// (TestLegacyCordisFixture).
func legacyCordisTools() []*projector.Tool {
	return []*projector.Tool{
		{
			Name: "cordis_inspect", Plugin: "tool-cordis", Parameters: params("cordis_inspect"),
			Output: &projector.Output{Schema: jsonv.MustParse(`{"type":"string"}`), Render: identityText},
			PresentCall: func(args jsonv.Value) jsonv.Value {
				what, name := args.Get("what"), args.Get("name")
				target := what
				if name.IsDefined() {
					target = jsonv.Str(str(what) + ": " + str(name))
				}
				if target.IsUndefined() {
					return toolkit.KindTitle("read", "Inspect cordis runtime")
				}
				return toolkit.KindTitle("read", "Inspect cordis runtime: "+str(target))
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "cordis_mount", Plugin: "tool-cordis", Parameters: params("cordis_mount"),
			Output: &projector.Output{
				Schema: toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"id":{"type":"string","required":true},"pluginName":{"type":"string","required":true},"state":{"type":"string","required":true,"enum":["pending","loading","active","failed","disposed","unloading"]},"provides":{"type":"array","required":true,"items":{"type":"string"}},"waitingFor":{"type":"array","required":true,"items":{"type":"string"}}}}`),
				Render: func(_, value jsonv.Value) (jsonv.Value, error) {
					waiting, err := prop(value, "waitingFor")
					if err != nil {
						return jsonv.Value{}, err
					}
					n, err := prop(waiting, "length")
					if err != nil {
						return jsonv.Value{}, err
					}
					plugin := str(value.Get("pluginName"))
					var status string
					if n.IsNumber() && n.Num() > 0 {
						if !waiting.IsArray() {
							return jsonv.Value{}, &toolkit.TypeError{Msg: "value.waitingFor.join is not a function"}
						}
						parts := make([]string, waiting.Len())
						for i, e := range waiting.Elems() {
							if !toolkit.Nullish(e) {
								parts[i] = str(e)
							}
						}
						status = `is pending (plugin "` + plugin + `"; missing services: ` + strings.Join(parts, ", ")
					} else {
						status = `is running (plugin "` + plugin + `"`
					}
					return text("Temporary Plugin " + str(value.Get("id")) + " " + status + "; available until unmounted or DSH restarts).")
				},
			},
			PresentCall: func(args jsonv.Value) jsonv.Value {
				code := jsonv.Obj()
				if c := args.Get("code"); c.IsDefined() {
					code = jsonv.Obj(jsonv.M("code", c))
				}
				return toolkit.KindTitle("execute", "Mount temporary Cordis Plugin").With("rawInput", code)
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "cordis_unmount", Plugin: "tool-cordis", Parameters: params("cordis_unmount"),
			Output: &projector.Output{
				Schema: toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"id":{"type":"string","required":true},"pluginName":{"type":"string","required":true}}}`),
				Render: func(_, value jsonv.Value) (jsonv.Value, error) {
					id, err := prop(value, "id")
					if err != nil {
						return jsonv.Value{}, err
					}
					return text("Temporary Plugin " + str(id) + " was unmounted and removed.")
				},
			},
			PresentCall: func(args jsonv.Value) jsonv.Value {
				return toolkit.KindTitle("delete", "Unmount temporary Cordis Plugin "+str(args.Get("id")))
			},
			CallCards: []string{"generic"},
		},
	}
}
