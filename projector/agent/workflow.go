package agent

import (
	"strconv"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// workflow (packages/workflow/tool-workflow/src/index.ts) and ralph
// (packages/workflow/tool-ralph/src/index.ts): generic cards, capped JSON renders.
var runOutput = sync.OnceValue(func() jsonv.Value {
	return toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"runId":{"type":"string","required":true},"agentsStarted":{"type":"integer","required":true},"result":{"type":"json","required":true}}}`)
})

// bareGeneric is the constant completed-state card {card:'generic'}.
func bareGeneric(jsonv.Value, projector.Result) jsonv.Value {
	return jsonv.Obj(jsonv.M("card", jsonv.Str("generic")))
}

func workflowTools(cfg projector.Config) []*projector.Tool {
	name := cfg.PluginString("tool-workflow", "toolName", "workflow")
	maxChars := cfg.PluginInt("tool-workflow", "maxResultChars", 50000)
	ralphMax := cfg.PluginInt("tool-ralph", "maxResultChars", 16384)
	return []*projector.Tool{
		{
			Name:       name,
			Plugin:     "tool-workflow",
			Parameters: params("workflow"),
			Output: &projector.Output{Schema: runOutput(), Render: func(args, value jsonv.Value) (jsonv.Value, error) {
				meta, err := prop(args, "meta")
				if err != nil {
					return jsonv.Value{}, err
				}
				metaName, err := prop(meta, "name")
				if err != nil {
					return jsonv.Value{}, err
				}
				s, err := renderWorkflow(metaName, value.Get("agentsStarted"), value.Get("result"), maxChars)
				if err != nil {
					return jsonv.Value{}, err
				}
				return text(s)
			}},
			PresentCall: func(args jsonv.Value) jsonv.Value {
				meta := args.Get("meta")
				if toolkit.Nullish(meta) {
					panic(projector.Throwf("%s", toolkit.ReadErr(meta, "name")))
				}
				return toolkit.Generic("workflow: "+str(meta.Get("name")), "", args.Get("script"))
			},
			PresentResult: bareGeneric,
			CallCards:     []string{"generic"},
			ResultCards:   []string{"generic"},
		},
		{
			Name:       "ralph",
			Plugin:     "tool-ralph",
			Parameters: params("ralph"),
			Output: &projector.Output{Schema: runOutput(), Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				s, err := renderRalph(value.Get("result"), ralphMax)
				if err != nil {
					return jsonv.Value{}, err
				}
				return text(s)
			}},
			PresentCall: func(args jsonv.Value) jsonv.Value {
				return toolkit.Generic("ralph", "", args.Get("objective"))
			},
			PresentResult: bareGeneric,
			CallCards:     []string{"generic"},
			ResultCards:   []string{"generic"},
		},
	}
}

func plural(n jsonv.Value, word string) string {
	if n.IsNumber() && n.Num() == 1 {
		return str(n) + " " + word
	}
	return str(n) + " " + word + "s"
}

func renderWorkflow(name, agents, result jsonv.Value, maxChars int) (string, error) {
	if result.IsUndefined() {
		// JSON.stringify(undefined) is undefined; reading its length throws.
		return "", toolkit.ReadErr(result, "length")
	}
	rendered := jsonv.StringifyIndent(result, "  ")
	clipped := rendered
	if n := jsonv.Len16(rendered); n > maxChars {
		clipped = jsonv.Slice16(rendered, 0, maxChars) + "\n… [truncated: " + strconv.Itoa(n-maxChars) + " more characters]"
	}
	return `workflow "` + str(name) + `" completed (` + plural(agents, "agent") + ").\nReturn value:\n" + clipped, nil
}

// pretty is `${JSON.stringify(v, null, 2)}` (undefined prints "undefined").
func pretty(v jsonv.Value) string {
	if v.IsUndefined() {
		return "undefined"
	}
	return jsonv.StringifyIndent(v, "  ")
}

func renderRalph(result jsonv.Value, maxChars int) (string, error) {
	rounds, err := prop(result, "roundsStarted")
	if err != nil {
		return "", err
	}
	r := plural(rounds, "round")
	status := result.Get("status")
	var s string
	switch {
	case status.IsString() && status.Str() == "complete":
		s = "Ralph worker reported completion after " + r + ".\nFinal report:\n" + pretty(result.Get("report"))
	case status.IsString() && status.Str() == "blocked":
		s = "Ralph worker reported a blocker after " + r + ".\nFinal report:\n" + pretty(result.Get("report"))
	case status.IsString() && status.Str() == "budget-limited":
		s = "Ralph reached its " + r + " limit; the worker reported work remaining.\nFinal report:\n" + pretty(result.Get("report"))
	default:
		// text stays undefined and boundResult reads its length.
		return "", toolkit.ReadErr(jsonv.Value{}, "length")
	}
	return toolkit.BoundChars(s, maxChars, "\n… [truncated]"), nil
}
