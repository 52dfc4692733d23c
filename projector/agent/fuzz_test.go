package agent

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/projectortest"
)

// FuzzProjectors runs every projector and presenter of the family on
// arbitrary JSON: failures must be contained JavaScript-style throws, never
// port panics.
func FuzzProjectors(f *testing.F) {
	f.Add(uint8(0), `{"todos":[{"content":"a","status":"pending"}]}`, `{"todos":[],"counts":{"pending":1,"inProgress":0,"completed":0}}`, false)
	f.Add(uint8(3), `{"plan":"# x\n## y"}`, `{"approved":true}`, true)
	f.Add(uint8(5), `{"scope":"descendants"}`, `[{"kind":"child","id":"a","label":"b","status":"ready","parent":"p","depth":1},{"kind":"diagnostic","id":"d","reason":"corrupt"}]`, false)
	f.Add(uint8(9), `{"meta":{"name":"n"},"script":"s"}`, `{"runId":"r","agentsStarted":2,"result":{"a":[1,{"b":null}]}}`, false)
	f.Add(uint8(10), `{"objective":"o"}`, `{"runId":"r","agentsStarted":1,"result":{"status":"blocked","roundsStarted":"x","report":[1]}}`, false)
	f.Add(uint8(12), `{"name":"s"}`, `{"name":"s","provider":"p","resourceBase":{"kind":"directory","path":"/<x>"},"content":"c"}`, false)
	f.Add(uint8(20), `{"goal_id":"g","revision":1,"action":"blocked","blocked_reason":"r"}`, `{"goal":null}`, false)
	f.Add(uint8(30), `null`, `"text"`, true)
	r, err := projector.NewRegistry(projector.Config{})
	if err != nil {
		f.Fatal(err)
	}
	if err := Register(r); err != nil {
		f.Fatal(err)
	}
	tools := r.Tools()
	tools = append(tools, r.Lookup("subagent_codex"))
	f.Fuzz(func(t *testing.T, pick uint8, argsText, valueText string, isError bool) {
		projectortest.NoPanics(t, tools, pick, argsText, valueText, isError)
	})
}
