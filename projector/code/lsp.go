package code

import (
	"strconv"
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// lsp (packages/lsp/tool-lsp/src/index.ts, render.ts).
const lspRange = `{"type":"object","additionalProperties":false,"properties":{
 "start":{"type":"object","additionalProperties":false,"required":true,"properties":{"line":{"type":"integer","required":true},"character":{"type":"integer","required":true}}},
 "end":{"type":"object","additionalProperties":false,"required":true,"properties":{"line":{"type":"integer","required":true},"character":{"type":"integer","required":true}}}}}`

var lspOutput = sync.OnceValue(func() jsonv.Value {
	return toolkit.MustCompile(`{"oneOf":[
 {"type":"object","additionalProperties":false,"properties":{
   "kind":{"type":"string","required":true,"const":"locations"},
   "locations":{"type":"array","required":true,"items":{"type":"object","additionalProperties":false,"properties":{
     "uri":{"type":"string","required":true},
     "range":` + strings.Replace(lspRange, `{"type":"object",`, `{"type":"object","required":true,`, 1) + `}}},
   "resolvedWorkspaceUri":{"type":"string","required":true}}},
 {"type":"object","additionalProperties":false,"properties":{
   "kind":{"type":"string","required":true,"const":"hover"},
   "hover":{"required":true,"oneOf":[{"type":"null"},{"type":"object","additionalProperties":false,"properties":{
     "contents":{"type":"string","required":true},"range":` + lspRange + `}}]}}}]}`)
})

func lspTool(cfg projector.Config) *projector.Tool {
	maxLocations := cfg.PluginInt("tool-lsp", "maxLocations", 100)
	maxChars := cfg.PluginInt("tool-lsp", "maxResultChars", 16000)
	return &projector.Tool{
		Name:       "lsp",
		Plugin:     "tool-lsp",
		Parameters: params("lsp"),
		Output: &projector.Output{Schema: lspOutput(), Render: func(_, value jsonv.Value) (jsonv.Value, error) {
			kind, err := prop(value, "kind")
			if err != nil {
				return jsonv.Value{}, err
			}
			switch {
			case kind.IsString() && kind.Str() == "locations":
				s, err := formatLocations(value.Get("locations"), value.Get("resolvedWorkspaceUri"), maxLocations, maxChars)
				if err != nil {
					return jsonv.Value{}, err
				}
				return text(s)
			case kind.IsString() && kind.Str() == "hover":
				hover := value.Get("hover")
				s := "No hover information."
				if !hover.IsNull() {
					c, err := prop(hover, "contents")
					if err != nil {
						return jsonv.Value{}, err
					}
					if !c.IsString() {
						// text.length / slice on a non-string: only a string can be bounded.
						return jsonv.Value{}, &toolkit.TypeError{Msg: "text.slice is not a function"}
					}
					s = c.Str()
				}
				return text(boundLSP(s, maxChars, "hover"))
			}
			return jsonv.Value{}, projector.Throwf("unreachable variant in tool-lsp output: %s", jsonv.Stringify(value))
		}},
		PresentCall: func(args jsonv.Value) jsonv.Value {
			path, line := args.Get("file_path"), args.Get("line")
			loc := jsonv.Obj(jsonv.M("path", path), jsonv.M("line", line))
			return toolkit.KindTitle("search", "LSP "+str(args.Get("operation"))+" "+str(path)+":"+str(line)+":"+str(args.Get("character"))).
				With("locations", jsonv.Arr(loc))
		},
		CallCards: []string{"generic"},
	}
}

// boundLSP caps the complete text at maxChars UTF-16 units, notice included.
func boundLSP(text string, maxChars int, label string) string {
	return toolkit.BoundChars(text, maxChars, "\n… "+label+" truncated (limit "+strconv.Itoa(maxChars)+" characters).")
}

// formatLocations groups the shown locations by rendered path in
// first-seen order, one `path:line:character` (one-based) per location.
func formatLocations(locations, workspaceURI jsonv.Value, maxLocations, maxChars int) (string, error) {
	if !locations.IsArray() {
		return "", &toolkit.TypeError{Msg: "locations.slice is not a function"}
	}
	if locations.Len() == 0 {
		return boundLSP("No results.", maxChars, "locations"), nil
	}
	shown := locations.Elems()
	if len(shown) > maxLocations {
		shown = shown[:maxLocations]
	}
	omitted := locations.Len() - len(shown)
	var order []string
	grouped := map[string][]string{}
	for _, loc := range shown {
		uri, err := prop(loc, "uri")
		if err != nil {
			return "", err
		}
		rng, err := prop(loc, "range")
		if err != nil {
			return "", err
		}
		start, err := prop(rng, "start")
		if err != nil {
			return "", err
		}
		if toolkit.Nullish(start) {
			return "", toolkit.ReadErr(start, "line")
		}
		path := renderURI(str(uri), str(workspaceURI))
		entry := path + ":" + plusOne(start.Get("line")) + ":" + plusOne(start.Get("character"))
		if _, ok := grouped[path]; !ok {
			order = append(order, path)
		}
		grouped[path] = append(grouped[path], entry)
	}
	var lines []string
	for _, p := range order {
		lines = append(lines, grouped[p]...)
	}
	if omitted > 0 {
		s := "s"
		if omitted == 1 {
			s = ""
		}
		lines = append(lines, "… "+strconv.Itoa(omitted)+" more location"+s+" omitted (limit "+strconv.Itoa(maxLocations)+").")
	}
	return boundLSP(strings.Join(lines, "\n"), maxChars, "locations"), nil
}

// plusOne is `${n + 1}` for a schema-valid integer coordinate.
func plusOne(v jsonv.Value) string {
	if v.IsNumber() {
		return jsonv.FormatNumber(v.Num() + 1)
	}
	if v.IsString() {
		return v.Str() + "1" // string concatenation, as JavaScript does
	}
	return "NaN"
}
