package agent

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/projector/projectortest"
)

// The upstream worked examples for this family (other-examples.jsonl).
func TestConformance(t *testing.T) {
	projectortest.Run(t, "other-examples.jsonl", Register,
		"todo_write", "exit_plan_mode", "skill", "subagent", "list_agents",
		"get_goal", "create_goal", "update_goal", "ask_user_question",
		"workflow", "ralph", "schedule_create", "schedule_list", "schedule_delete", "memory_save")
}
