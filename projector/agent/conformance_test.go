package agent

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/projector/projectortest"
)

// conformanceTools are this family's tools in other-examples.jsonl.
var conformanceTools = []string{"todo_write", "exit_plan_mode", "skill", "subagent", "list_agents",
	"get_goal", "create_goal", "update_goal", "ask_user_question",
	"workflow", "ralph", "schedule_create", "schedule_list", "schedule_delete", "memory_save"}

// The upstream worked examples for this family (other-examples.jsonl).
func TestConformance(t *testing.T) {
	projectortest.Run(t, "other-examples.jsonl", Register, conformanceTools...)
}

// Every worked example's canonical value satisfies the port's output schema.
func TestConformanceValuesValidate(t *testing.T) {
	for _, rec := range projectortest.Load(t, "other-examples.jsonl", conformanceTools...) {
		v := rec.V.Get("value")
		if v.IsNull() || v.IsUndefined() {
			continue
		}
		_, tl := projectortest.Registry(t, rec, Register)
		if vs := tl.ValidateValue(v); len(vs) > 0 {
			t.Errorf("%s: %v", rec.Name, vs)
		}
	}
}
