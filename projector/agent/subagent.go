package agent

import (
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// subagent (packages/subagent/tool-subagent/src/index.ts). The plugin is
// loaded once per backend, each instance with its own `toolName` (shipped:
// subagent, subagent_fork, subagent_codex, subagent_claude_code), so the
// "tool-subagent" options may be one object or an array of instance objects.
var subagentOutput = sync.OnceValue(func() jsonv.Value {
	return toolkit.MustCompile(`{"oneOf":[
 {"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","required":true,"const":"background"},"jobId":{"type":"string","required":true}}},
 {"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","required":true,"const":"continuable"},"subagentId":{"type":"string","required":true}}},
 {"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","required":true,"const":"foreground"},"runId":{"type":"string","required":true},"output":{"type":"array","required":true,"items":{"type":"json"}}}}]}`)
})

const (
	freshPromptDescription  = "The complete, self-contained task for the subagent. It does not share this conversation's context, so include everything it needs."
	forkedPromptDescription = "The task for the subagent. It already sees this conversation's completed turns, so build on them freely and state only what is new."
	oneShotBackground       = "Whether to run as a background job and return its id. Defaults to false; collect with job_output or stop with job_kill."
	continuableBackground   = "Whether to run in the background and return a durable subagent id immediately. Defaults to true. Set false to wait for the result when your next action depends on it."
)

// subagentInstance is one configured tool-subagent instance.
type subagentInstance struct {
	toolName    string
	background  bool
	continuable bool
	host        string // "dsh" for DSH's wording (see renderSubagent)
}

func subagentInstances(cfg projector.Config) []subagentInstance {
	opts := cfg.Plugin("tool-subagent")
	var list []jsonv.Value
	switch {
	case opts.IsArray():
		list = opts.Elems()
	case opts.IsObject():
		list = []jsonv.Value{opts}
	default:
		list = []jsonv.Value{jsonv.Obj()}
	}
	var out []subagentInstance
	seen := map[string]bool{}
	for _, o := range list {
		in := subagentInstance{toolName: "subagent", background: true}
		if v := o.Get("toolName"); v.IsString() {
			in.toolName = v.Str()
		}
		if v := o.Get("enableRunInBackground"); v.IsBool() {
			in.background = v.Bool()
		}
		in.continuable = o.Get("backgroundMode").Str() == "continuable"
		if !seen[in.toolName] {
			seen[in.toolName] = true
			out = append(out, in)
		}
	}
	return out
}

// subagentParameters adapts the catalog schema (default: one-shot,
// background enabled, fresh-context provider) to one instance. Which
// provider wording applies depends on the provider's conversation
// inheritance, which the log does not record: only the fork backend
// inherits, so the shipped `subagent_fork` name selects it.
func subagentParameters(in subagentInstance) jsonv.Value {
	base := params("subagent")
	props := base.Get("properties")
	var ms []jsonv.Member
	for _, m := range props.Members() {
		switch m.Key {
		case "prompt":
			if strings.HasSuffix(in.toolName, "_fork") {
				m.Value = m.Value.With("description", jsonv.Str(forkedPromptDescription))
			}
		case "run_in_background":
			if !in.background {
				continue
			}
			if in.continuable {
				m.Value = m.Value.With("description", jsonv.Str(continuableBackground))
			}
		}
		ms = append(ms, m)
	}
	return base.With("properties", jsonv.Obj(ms...))
}

func subagentTool(in subagentInstance) *projector.Tool {
	return &projector.Tool{
		Name:       in.toolName,
		Plugin:     "tool-subagent",
		Parameters: jsonv.Deferred(jsonv.Object, func() jsonv.Value { return subagentParameters(in) }),
		Output:     &projector.Output{Schema: subagentOutput(), Render: renderSubagent(in.host)},
		// No presenters: UIs draw subagent cards by tool name (fallback generic card).
	}
}

// renderSubagent is tool-subagent's render; DSH calls a background run a
// job, LasmeX a task.
func renderSubagent(host string) func(_, value jsonv.Value) (jsonv.Value, error) {
	started := "started background subagent task "
	if host == "dsh" {
		started = "started background subagent job "
	}
	return func(args, value jsonv.Value) (jsonv.Value, error) { return renderSubagentWith(started, value) }
}

func renderSubagentWith(started string, value jsonv.Value) (jsonv.Value, error) {
	kind, err := prop(value, "kind")
	if err != nil {
		return jsonv.Value{}, err
	}
	switch {
	case kind.IsString() && kind.Str() == "background":
		return text(started + str(value.Get("jobId")))
	case kind.IsString() && kind.Str() == "continuable":
		return text("started subagent " + str(value.Get("subagentId")))
	}
	output := value.Get("output")
	if !output.IsArray() {
		if toolkit.Nullish(output) {
			return jsonv.Value{}, toolkit.ReadErr(output, "filter")
		}
		return jsonv.Value{}, &toolkit.TypeError{Msg: "values.filter is not a function"}
	}
	// Only object elements {type:'text', text: string} contribute, joined with no separator.
	var b strings.Builder
	for _, e := range output.Elems() {
		if e.IsObject() && e.Get("type").IsString() && e.Get("type").Str() == "text" && e.Get("text").IsString() {
			b.WriteString(e.Get("text").Str())
		}
	}
	return text(b.String())
}

func subagentTools(cfg projector.Config) ([]*projector.Tool, projector.Matcher) {
	var tools []*projector.Tool
	for _, in := range subagentInstances(cfg) {
		in.host = cfg.Host
		tools = append(tools, subagentTool(in))
	}
	// Presets add provider-bound instances (subagent_codex, subagent_claude_code,
	// subagent_fork) that a deployment configuration may not list: any
	// subagent_<name> resolves to a default one-shot instance of that name.
	var cache sync.Map
	matcher := func(name string) *projector.Tool {
		if !strings.HasPrefix(name, "subagent_") || len(name) == len("subagent_") {
			return nil
		}
		if t, ok := cache.Load(name); ok {
			return t.(*projector.Tool)
		}
		t, _ := cache.LoadOrStore(name, subagentTool(subagentInstance{toolName: name, background: true, host: cfg.Host}))
		return t.(*projector.Tool)
	}
	return tools, matcher
}

// Subagent control, report and structured output: render-only tools
// (packages/subagent/tool-subagent-control, tool-subagent-report,
// subagent-in-process-driver/src/structured.ts).
func controlTools() []*projector.Tool {
	messageID := toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"messageId":{"type":"string","required":true}}}`)
	return []*projector.Tool{
		{
			Name:       "send_message",
			Plugin:     "tool-subagent-control",
			Parameters: params("send_message"),
			Output: &projector.Output{Schema: messageID, Render: func(args, _ jsonv.Value) (jsonv.Value, error) {
				id, err := prop(args, "subagent_id")
				if err != nil {
					return jsonv.Value{}, err
				}
				return text("message queued as the next turn for subagent " + str(id))
			}},
		},
		{
			Name:       "interrupt_agent",
			Plugin:     "tool-subagent-control",
			Parameters: params("interrupt_agent"),
			Output: &projector.Output{
				Schema: toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"accepted":{"type":"boolean","required":true}}}`),
				Render: func(args, _ jsonv.Value) (jsonv.Value, error) {
					id, err := prop(args, "agent_id")
					if err != nil {
						return jsonv.Value{}, err
					}
					return text("interrupt requested for agent " + str(id))
				},
			},
		},
		listAgentsTool(`"running","idle","ready"`),
		{
			Name:       "report",
			Plugin:     "tool-subagent-report",
			Parameters: params("report"),
			Output: &projector.Output{Schema: messageID, Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				id, err := prop(value, "messageId")
				if err != nil {
					return jsonv.Value{}, err
				}
				return text("report accepted by the agent that started you as message " + str(id))
			}},
		},
		{
			// The parameters are the caller's structured-output schema, which the
			// log does not carry: an open object stands in for it.
			Name:              "structured_output",
			Plugin:            "subagent-in-process-driver",
			Parameters:        jsonv.MustParse(`{"type":"object","properties":{}}`),
			ParametersUnknown: true,
			Output: &projector.Output{
				Schema: jsonv.MustParse(`{"type":"object","properties":{"recorded":{"type":"boolean","const":true}},"required":["recorded"],"additionalProperties":false}`),
				Render: func(_, _ jsonv.Value) (jsonv.Value, error) { return text("Structured output recorded.") },
			},
		},
	}
}

func renderListAgents(args, entries jsonv.Value) (jsonv.Value, error) {
	scope := "children"
	if s, err := prop(args, "scope"); err != nil {
		return jsonv.Value{}, err
	} else if !toolkit.Nullish(s) {
		scope = str(s)
	}
	if n, err := prop(entries, "length"); err != nil {
		return jsonv.Value{}, err
	} else if n.IsNumber() && n.Num() == 0 {
		return text("(no subagents)")
	}
	if !entries.IsArray() {
		return jsonv.Value{}, &toolkit.TypeError{Msg: "entries.map is not a function"}
	}
	lines := make([]string, 0, entries.Len())
	for _, e := range entries.Elems() {
		at := ""
		if scope == "descendants" {
			parent, err := prop(e, "parent")
			if err != nil {
				return jsonv.Value{}, err
			}
			at = " parent=" + str(parent) + " depth=" + str(e.Get("depth"))
		}
		kind, err := prop(e, "kind")
		if err != nil {
			return jsonv.Value{}, err
		}
		if kind.IsString() && kind.Str() == "child" {
			lines = append(lines, str(e.Get("id"))+" ["+str(e.Get("status"))+"]"+at+" — "+str(e.Get("label")))
		} else {
			lines = append(lines, str(e.Get("id"))+" [diagnostic: "+str(e.Get("reason"))+"]"+at)
		}
	}
	return text(strings.Join(lines, "\n"))
}

// listAgentsTool is tool-subagent-control's list_agents whose child
// statuses are statuses (a JSON list's members).
func listAgentsTool(statuses string) *projector.Tool {
	return &projector.Tool{
		Name:       "list_agents",
		Plugin:     "tool-subagent-control",
		Parameters: params("list_agents"),
		Output: &projector.Output{
			Schema: toolkit.MustCompile(listAgentsSchema(statuses)),
			Render: renderListAgents,
		},
	}
}

// listAgentsSchema is list_agents' value schema with a child's statuses.
func listAgentsSchema(statuses string) string {
	return `{"type":"array","items":{"oneOf":[
 {"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","required":true,"enum":["child"]},"id":{"type":"string","required":true},"label":{"type":"string","required":true},"status":{"type":"string","required":true,"enum":[` + statuses + `]},"parent":{"type":"string"},"depth":{"type":"number"}}},
 {"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","required":true,"enum":["diagnostic"]},"id":{"type":"string","required":true},"reason":{"type":"string","required":true,"enum":["corrupt","unsupported","unavailable"]},"parent":{"type":"string"},"depth":{"type":"number"}}}]}}`
}
