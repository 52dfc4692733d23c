package agent

import (
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// AgentIDRelease is the first release whose send_message addresses an agent
// (packages/subagent/tool-subagent-control/src/index.ts and
// tool-subagent/src/list-models.ts of the 0.1.6-alpha.1 tree; the 0.1.4 tree
// has the pinned send_message and no list_subagent_models).
const AgentIDRelease = "0.1.6-alpha.1"

// sendMessageAgentTool is send_message from AgentIDRelease: agent_id in place
// of subagent_id (a direct continuable child, or the direct parent of a
// resident child), and "message delivered to agent <id>".
func sendMessageAgentTool() *projector.Tool {
	return &projector.Tool{
		Name:   "send_message",
		Plugin: "tool-subagent-control",
		Parameters: projector.ParamSchema(
			projector.Param{Name: "agent_id", Type: "string", Required: true,
				Description: "The agent id of your direct continuable child, or your direct parent when you are a resident continuable child."},
			projector.Param{Name: "message", Type: "string", Required: true, Description: "The message to deliver to the agent."},
		),
		Output: &projector.Output{
			Schema: toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"messageId":{"type":"string","required":true}}}`),
			Render: func(args, _ jsonv.Value) (jsonv.Value, error) {
				id, err := prop(args, "agent_id")
				if err != nil {
					return jsonv.Value{}, err
				}
				return text("message delivered to agent " + str(id))
			},
		},
	}
}

// listSubagentModelsTool is list_subagent_models, which a tool-subagent
// instance with modelSelectionSettings registers from AgentIDRelease: its
// value is the discovery text itself.
func listSubagentModelsTool() *projector.Tool {
	return &projector.Tool{
		Name:   "list_subagent_models",
		Plugin: "tool-subagent",
		Parameters: projector.ParamSchema(
			projector.Param{Name: "provider", Type: "string", Description: "Registered LLM provider id. Omit to list providers."},
			projector.Param{Name: "model", Type: "string", Description: "Exact model id to inspect. Requires provider; omit to list that provider's advertised models."},
		),
		Output: &projector.Output{
			Schema: toolkit.MustCompile(`{"type":"string"}`),
			Render: identityText,
		},
	}
}

// InactiveRelease is the first release whose list_agents reports a child
// that is not running as "inactive" (status enum [running, inactive] in
// packages/subagent/tool-subagent-control/src/list-agents.ts of 0.1.7-alpha.2
// and 0.2.1-alpha.1 trees; [running, idle, ready] before). Render and
// parameters are unchanged.
const InactiveRelease = "0.1.7-alpha.2"

// registerReleases adds the definitions later releases shipped.
func registerReleases(r *projector.Registry) error {
	for _, t := range []*projector.Tool{sendMessageAgentTool(), listSubagentModelsTool()} {
		if err := r.AddReleaseTool(AgentIDRelease, t); err != nil {
			return err
		}
	}
	if err := r.AddReleaseTool(InactiveRelease, listAgentsTool(`"running","inactive"`)); err != nil {
		return err
	}
	if err := r.AddReleaseTool(WorkflowJobRelease, workflowJobTool(r.Config)); err != nil {
		return err
	}
	for _, t := range scheduleHostTools() {
		if err := r.AddReleaseTool(ScheduleHostRelease, t); err != nil {
			return err
		}
	}
	return nil
}

// WorkflowJobRelease is the first release whose workflow runs as a job: a
// run_in_background parameter (unless enableRunInBackground is false), and
// a value that says its kind, {kind: "background", jobId, runId} or
// {kind: "foreground", runId, agentsStarted, result}
// (packages/workflow/tool-workflow/src/index.ts of 0.1.7-alpha.2 and
// 0.2.1-alpha.1 trees; the 0.1.6-alpha.1 one has the pinned value). Cards
// and the foreground text are the pinned ones.
const WorkflowJobRelease = "0.1.7-alpha.2"

var workflowJobOutput = sync.OnceValue(func() jsonv.Value {
	return toolkit.MustCompile(`{"oneOf":[
 {"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","required":true,"const":"background"},"jobId":{"type":"string","required":true},"runId":{"type":"string","required":true}}},
 {"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","required":true,"const":"foreground"},"runId":{"type":"string","required":true},"agentsStarted":{"type":"integer","required":true},"result":{"type":"json","required":true}}}]}`)
})

// workflowJobTool is workflow from WorkflowJobRelease for cfg.
func workflowJobTool(cfg projector.Config) *projector.Tool {
	t := workflowTools(cfg)[0]
	pinned := t.Output.Render
	if cfg.PluginOption("tool-workflow", "enableRunInBackground").True() || cfg.PluginOption("tool-workflow", "enableRunInBackground").IsUndefined() {
		t.Parameters = jsonv.Deferred(jsonv.Object, func() jsonv.Value {
			return withProperty(params("workflow"), "run_in_background", jsonv.Obj(
				jsonv.M("type", jsonv.Str("boolean")),
				jsonv.M("description", jsonv.Str("Run as a background job: return a job id immediately instead of waiting; the return value arrives with the completion notice.")),
			))
		})
	}
	t.Output = &projector.Output{Schema: workflowJobOutput(), Render: func(args, value jsonv.Value) (jsonv.Value, error) {
		if k := value.Get("kind"); !k.IsString() || k.Str() != "background" {
			return pinned(args, value)
		}
		meta, err := prop(args, "meta")
		if err != nil {
			return jsonv.Value{}, err
		}
		name, err := prop(meta, "name")
		if err != nil {
			return jsonv.Value{}, err
		}
		return text("workflow \"" + str(name) + "\" started in the background as job " + str(value.Get("jobId")) +
			". Its return value arrives with the completion notice; check on it with job_output, stop it with job_kill.")
	}}
	return t
}

// withProperty is a compiled parameter schema with one more property, last.
func withProperty(schema jsonv.Value, key string, prop jsonv.Value) jsonv.Value {
	ms := make([]jsonv.Member, 0, schema.Len())
	for _, m := range schema.Members() {
		if m.Key == "properties" {
			m.Value = jsonv.Obj(append(append([]jsonv.Member(nil), m.Value.Members()...), jsonv.M(key, prop))...)
		}
		ms = append(ms, m)
	}
	return jsonv.Obj(ms...)
}
