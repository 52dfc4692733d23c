package agent

import (
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
	return r.AddReleaseTool(InactiveRelease, listAgentsTool(`"running","inactive"`))
}
