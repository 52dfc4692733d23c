package agent

import (
	_ "embed"
	"strings"

	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// DSH's Agent Teams tools (packages/experimental/tool-agent-team, DSH only).
// The plugin registers all ten in each Team member's agent scope, where
// send_message, list_agents and interrupt_agent shadow
// tool-subagent-control's global tools of those names (the Agent Teams
// profile disables those anyway). Every tool renders JSON.stringify(value)
// and has no presentationMeta and no presenters: the generic card.

// TeamPlugin is the plugin name, without the dsh- prefix.
const TeamPlugin = "tool-agent-team"

// teamParametersJSON holds the compiled parameter schemas as upstream's
// generated tool catalog (docs/tool-catalog.md) prints them.
//
//go:embed schemas/team-parameters.json
var teamParametersJSON []byte

var teamParams = toolkit.LazyCatalog(teamParametersJSON)

// The value schemas of src/index.ts, in its DSL.
const (
	memberViewSpec = `{"type":"object","additionalProperties":false,"properties":{
 "id":{"type":"string","required":true},
 "name":{"type":"string","required":true},
 "role":{"type":"string","required":true,"enum":["lead","teammate"]},
 "status":{"type":"string","required":true,"enum":["running","idle","inactive","provisioning","failed"]},
 "description":{"type":"string"},
 "provider":{"type":"string"},
 "context":{"type":"string","enum":["fresh","fork"]},
 "model":{"type":"string"},
 "diagnostics":{"type":"array","required":true,"items":{"type":"string"}}}}`
	taskViewSpec = `{"type":"object","additionalProperties":false,"properties":{
 "id":{"type":"string","required":true},
 "revision":{"type":"integer","required":true},
 "subject":{"type":"string","required":true},
 "description":{"type":"string","required":true},
 "status":{"type":"string","required":true,"enum":["pending","in_progress","completed","deleted"]},
 "ownerName":{"type":"string"},
 "blockedBy":{"type":"array","required":true,"items":{"type":"string"}},
 "writeScopes":{"type":"array","required":true,"items":{"type":"string"}},
 "ready":{"type":"boolean","required":true},
 "writeScopeWarnings":{"type":"array","required":true,"items":{"type":"string"}}}}`
)

// required marks a DSL node required (`{ ...SCHEMA, required: true }`).
func required(spec string) string {
	return strings.TrimSuffix(spec, "}") + `,"required":true}`
}

// teamOutput is the value schema of a Team tool (built on first use: a
// package-level map would be built at every start-up).
func teamOutput(name string) string {
	switch name {
	case "spawn_teammate":
		return `{"type":"object","additionalProperties":false,"properties":{"member":` + required(memberViewSpec) + `}}`
	case "list_agents":
		return `{"type":"array","items":` + memberViewSpec + `}`
	case "send_message":
		return sendValueSpec
	case "followup_task":
		return sendValueSpec
	case "wait_agent":
		return `{"type":"object","additionalProperties":false,"properties":{
 "timedOut":{"type":"boolean","required":true},
 "noProgress":{"type":"object","additionalProperties":false,"properties":{
  "reason":{"type":"string","required":true,"const":"no-active-peer"},
  "message":{"type":"string","required":true}}}}}`
	case "interrupt_agent":
		return `{"type":"object","additionalProperties":false,"properties":{"previousStatus":{"type":"string","required":true,"enum":["running","idle","inactive"]}}}`
	case "team_task_create":
		return taskViewSpec
	case "team_task_list":
		return `{"type":"object","additionalProperties":false,"properties":{"tasks":{"type":"array","required":true,"items":` + taskViewSpec + `},"nextCursor":{"type":"integer"}}}`
	case "team_task_get":
		return taskViewSpec
	case "team_task_update":
		return taskViewSpec
	}
	return ""
}

const sendValueSpec = `{"type":"object","additionalProperties":false,"properties":{"messageId":{"type":"string","required":true},"status":{"type":"string","required":true,"enum":["accepted","queued"]}}}`

// TeamToolNames are the Team tools in upstream's registration order.
var TeamToolNames = []string{"spawn_teammate", "send_message", "followup_task", "list_agents", "wait_agent",
	"interrupt_agent", "team_task_create", "team_task_list", "team_task_get", "team_task_update"}

// teamShadows are the Team tools whose names tool-subagent-control also
// registers (globally).
func teamShadows(name string) bool {
	return name == "send_message" || name == "list_agents" || name == "interrupt_agent"
}

// teamTools builds the ten Team tools.
func teamTools() []*projector.Tool {
	out := make([]*projector.Tool, 0, len(TeamToolNames))
	for _, name := range TeamToolNames {
		out = append(out, &projector.Tool{
			Name:       name,
			Plugin:     TeamPlugin,
			Parameters: teamParams(name),
			// jsonOutput: [{type:'text', text: JSON.stringify(value)}].
			Output: &projector.Output{Schema: toolkit.MustCompile(teamOutput(name)), Render: jsonText},
		})
	}
	return out
}

// registerTeam adds the Team tools: each in the Team scope, and those with
// a name of their own also globally (a log need not show its agent's scope
// for them to resolve).
func registerTeam(r *projector.Registry) error {
	for _, t := range teamTools() {
		if err := r.AddScopedTool(projector.TeamScope, t); err != nil {
			return err
		}
		if !teamShadows(t.Name) {
			if err := r.Add(t); err != nil {
				return err
			}
		}
	}
	return nil
}
