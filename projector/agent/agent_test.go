package agent

import (
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/projectortest"
)

func registry(t testing.TB, cfg string) *projector.Registry {
	t.Helper()
	return projectortest.NewRegistry(t, cfg, Register)
}

func tool(t testing.TB, r *projector.Registry, name string) *projector.Tool {
	t.Helper()
	return projectortest.Tool(t, r, name)
}

func renderText(t *testing.T, tl *projector.Tool, args, value string) (string, error) {
	t.Helper()
	return projectortest.RenderText(t, tl, args, value)
}

// Expected values come from running the upstream regex under Node.
func TestFirstHeading(t *testing.T) {
	for _, c := range []struct {
		plan, want string
		ok         bool
	}{
		{"# The plan", "The plan", true},
		{"## Fix the flake\n\nsteps", "Fix the flake", true},
		{"no heading here", "", false},
		{"#  ", " ", true},
		{"# a\r", "a", true},
		{"# a\rb\n## c", "c", true},
		{"####### seven\n###### six", "six", true},
		{"#\u00a0nbsp title\u3000", "nbsp title", true},
		{"# x \u2028", "x", true},
		{"#\ty", "y", true},
		{"#", "", false},
		{"text\n#   spaced   out   ", "spaced   out", true},
		{"# \u2028 a", "a", true},
		{"#  \r", " ", true},
		{"##\u2029x", "x", true},
		{"# a\u2028b", "", false},
		{"   # indented", "", false},
		{"# \xed\xa0\x80 lone", "\xed\xa0\x80 lone", true},
	} {
		got, ok := firstHeading(c.plan)
		if got != c.want || ok != c.ok {
			t.Errorf("firstHeading(%q) = %q, %v; want %q, %v", c.plan, got, ok, c.want, c.ok)
		}
	}
}

func TestRenders(t *testing.T) {
	r := registry(t, "")
	for _, c := range []struct {
		tool, args, value, want string
	}{
		{"todo_write", `{}`, `{"todos":[],"counts":{"pending":0,"inProgress":2,"completed":1e21}}`, "Updated todo list: 0 pending, 2 in progress, 1e+21 completed."},
		{"exit_plan_mode", `{}`, `{"approved":true}`, planApproved},
		{"subagent", `{}`, `{"kind":"continuable","subagentId":"s-1"}`, "started subagent s-1"},
		{"subagent", `{}`, `{"kind":"foreground","runId":"r","output":[{"type":"text","text":"a"},{"type":"image"},"x",{"type":"text","text":7},{"type":"text","text":"b"}]}`, "ab"},
		{"subagent_codex", `{}`, `{"kind":"background","jobId":"j"}`, "started background subagent task j"},
		{"send_message", `{"subagent_id":"c1","message":"m"}`, `{"messageId":"m1"}`, "message queued as the next turn for subagent c1"},
		{"interrupt_agent", `{"agent_id":"a9"}`, `{"accepted":true}`, "interrupt requested for agent a9"},
		{"report", `{"output":"o"}`, `{"messageId":"m7"}`, "report accepted by the agent that started you as message m7"},
		{"structured_output", `{"x":1}`, `{"recorded":true}`, "Structured output recorded."},
		{"list_agents", `{"scope":"descendants"}`, `[{"kind":"child","id":"a","label":"L","status":"idle"}]`, "a [idle] parent=undefined depth=undefined — L"},
		{"skill", `{"name":"x"}`, `{"name":"a\"<&>","provider":"p<&>","content":"C"}`,
			"<skill_content name=\"a&quot;&lt;&amp;>\">\n<skill_resources>\nResources for this skill are managed by provider \"p&lt;&amp;&gt;\".\nLoad referenced resources only as needed.\n</skill_resources>\n\n<skill_instructions>\nC\n</skill_instructions>\n</skill_content>"},
		{"skill", `{"name":"x"}`, `{"name":"n","provider":"p","resourceBase":{"kind":"url","url":"https://e/x?a&b"},"content":""}`,
			"<skill_content name=\"n\">\n<skill_resources>\nBase URL for this skill: https://e/x?a&amp;b\nResolve relative URLs mentioned by this skill against the base URL before using them. Load referenced resources only as needed.\n</skill_resources>\n\n<skill_instructions>\n\n</skill_instructions>\n</skill_content>"},
		{"skill", `{"name":"x"}`, `{"name":"n","provider":"p","resourceBase":{"kind":"opaque","description":"db <x>"},"content":"c"}`,
			"<skill_content name=\"n\">\n<skill_resources>\nResources for this skill: db &lt;x&gt;\nLoad referenced resources only as needed.\n</skill_resources>\n\n<skill_instructions>\nc\n</skill_instructions>\n</skill_content>"},
		{"get_goal", `{}`, `{"goal":null}`, `{"goal":null}`},
		{"update_goal", `{}`, `{"goal":{"id":"g","revision":2,"objective":"<o>","phase":"blocked","roundsStarted":3,"maxGoalRounds":0,"blockedReason":{"code":"model-reported","message":"m"}},"activation":"disarmed"}`,
			`{"goal":{"id":"g","revision":2,"objective":"<o>","phase":"blocked","roundsStarted":3,"maxGoalRounds":0,"blockedReason":{"code":"model-reported","message":"m"}},"activation":"disarmed"}`},
		{"workflow", `{"script":"s","meta":{"name":"n"}}`, `{"runId":"r","agentsStarted":1,"result":null}`, "workflow \"n\" completed (1 agent).\nReturn value:\nnull"},
		{"workflow", `{"script":"s","meta":{"name":"n"}}`, `{"runId":"r","agentsStarted":0,"result":"s"}`, "workflow \"n\" completed (0 agents).\nReturn value:\n\"s\""},
		{"ralph", `{"objective":"o"}`, `{"runId":"r","agentsStarted":1,"result":{"status":"complete","roundsStarted":1,"report":{"status":"complete","summary":"s","evidence":[],"nextSteps":["a"],"blocker":null}}}`,
			"Ralph worker reported completion after 1 round.\nFinal report:\n{\n  \"status\": \"complete\",\n  \"summary\": \"s\",\n  \"evidence\": [],\n  \"nextSteps\": [\n    \"a\"\n  ],\n  \"blocker\": null\n}"},
		{"ralph", `{"objective":"o"}`, `{"runId":"r","agentsStarted":2,"result":{"status":"blocked","roundsStarted":2}}`, "Ralph worker reported a blocker after 2 rounds.\nFinal report:\nundefined"},
		{"ralph", `{"objective":"o"}`, `{"runId":"r","agentsStarted":3,"result":{"status":"budget-limited","roundsStarted":3,"report":{}}}`, "Ralph reached its 3 rounds limit; the worker reported work remaining.\nFinal report:\n{}"},
		{"schedule_delete", `{"id":"x"}`, `{"id":"x","deleted":false,"code":"schedule_not_found"}`, `{"id":"x","deleted":false,"code":"schedule_not_found"}`},
		{"memory_search", `{"query":"q"}`, `{"hits":[{"id":"1","preview":"é\u2028"}]}`, "{\"hits\":[{\"id\":\"1\",\"preview\":\"é\u2028\"}]}"},
		{"session_event_read", `{"seq":1}`, `"event text"`, "event text"},
	} {
		got, err := renderText(t, tool(t, r, c.tool), c.args, c.value)
		if err != nil {
			t.Errorf("%s render: %v", c.tool, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s render = %q, want %q", c.tool, got, c.want)
		}
	}
}

func TestRenderThrows(t *testing.T) {
	r := registry(t, "")
	for _, c := range []struct{ tool, args, value, want string }{
		{"todo_write", `{}`, `{}`, "Cannot read properties of undefined (reading 'pending')"},
		{"workflow", `{"script":"s"}`, `{"runId":"r","agentsStarted":1,"result":1}`, "Cannot read properties of undefined (reading 'name')"},
		{"ralph", `{}`, `{"runId":"r","agentsStarted":1,"result":null}`, "Cannot read properties of null (reading 'roundsStarted')"},
		{"ralph", `{}`, `{"runId":"r","agentsStarted":1,"result":{"status":"round-failed","roundsStarted":1}}`, "Cannot read properties of undefined (reading 'length')"},
		{"skill", `{}`, `{"name":"n","provider":"p","resourceBase":{"kind":"zip"},"content":""}`, `unreachable variant in SkillResourceBase.kind: {"kind":"zip"}`},
		{"send_message", `null`, `{"messageId":"m"}`, "Cannot read properties of null (reading 'subagent_id')"},
	} {
		_, err := renderText(t, tool(t, r, c.tool), c.args, c.value)
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%s render error = %v, want suffix %q", c.tool, err, c.want)
		}
	}
}

func TestCaps(t *testing.T) {
	r := registry(t, `{"plugins":{"tool-workflow":{"maxResultChars":5,"toolName":"wf"},"lasmex-tool-ralph":{"maxResultChars":20}}}`)
	got, err := renderText(t, tool(t, r, "wf"), `{"meta":{"name":"n"}}`, `{"runId":"r","agentsStarted":2,"result":[1,2]}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "workflow \"n\" completed (2 agents).\nReturn value:\n[\n  1\n… [truncated: 7 more characters]"; got != want {
		t.Errorf("workflow cap = %q, want %q", got, want)
	}
	if r.Lookup("workflow") != nil {
		t.Error("configured toolName should replace workflow")
	}
	got, err = renderText(t, tool(t, r, "ralph"), `{}`, `{"runId":"r","agentsStarted":1,"result":{"status":"complete","roundsStarted":1,"report":{}}}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Ralph \n… [truncated]"; got != want {
		t.Errorf("ralph cap = %q, want %q", got, want)
	}
	r = registry(t, `{"plugins":{"tool-ralph":{"maxResultChars":5}}}`)
	got, _ = renderText(t, tool(t, r, "ralph"), `{}`, `{"runId":"r","agentsStarted":1,"result":{"status":"complete","roundsStarted":1,"report":{}}}`)
	if want := "\n… [t"; got != want {
		t.Errorf("ralph tiny cap = %q, want %q", got, want)
	}
}

func TestCallViews(t *testing.T) {
	r := registry(t, "")
	for _, c := range []struct{ tool, args, want string }{
		{"todo_write", `{"todos":[{"content":" a ","status":"pending"}]}`, `{"card":"generic","title":"Update todo list","kind":"other","rawInput":[{"content":" a ","status":"pending"}]}`},
		{"exit_plan_mode", `{"plan":"x\n### Deep  \r\nmore"}`, `{"card":"generic","title":"Deep","kind":"other","content":[{"type":"text","text":"x\n### Deep  \r\nmore"}]}`},
		{"skill", `{"name":"pdf"}`, `{"card":"generic","title":"Load skill pdf","kind":"read","rawInput":"pdf"}`},
		{"update_goal", `{"goal_id":"g","revision":1,"action":"complete"}`, `{"card":"generic","title":"Complete goal","kind":"other","rawInput":"g"}`},
		{"update_goal", `{"goal_id":"g","revision":1,"action":"edit","objective":"new"}`, `{"card":"generic","title":"Edit goal","kind":"other","rawInput":"new"}`},
		{"workflow", `{"script":"return 1","meta":{"name":"n","description":"d"}}`, `{"card":"generic","title":"workflow: n","rawInput":"return 1"}`},
		{"ralph", `{"objective":"o","maxRounds":2}`, `{"card":"generic","title":"ralph","rawInput":"o"}`},
		{"memory_list", `{}`, `{"card":"generic","title":"Lister les mémoires du projet","kind":"search"}`},
		{"memory_search", `{"query":"q"}`, `{"card":"generic","title":"Rechercher dans la mémoire","kind":"search","rawInput":"q"}`},
		{"memory_read", `{"id":"m1"}`, `{"card":"generic","title":"Lire une mémoire","kind":"read","rawInput":"m1"}`},
		{"memory_save", `{"title":"T","content":"c"}`, `{"card":"generic","title":"Enregistrer une mémoire","kind":"edit","rawInput":"T"}`},
		{"memory_forget", `{"id":"m1"}`, `{"card":"generic","title":"Oublier une mémoire","kind":"delete","rawInput":"m1"}`},
		{"session_search", `{"query":"q"}`, `{"card":"generic","kind":"search","title":"Search prior sessions","rawInput":"q"}`},
		{"session_event_search", `{"query":"q","session_id":"s"}`, `{"card":"generic","kind":"search","title":"Search session events","rawInput":"q"}`},
		{"session_trace", `{}`, `{"card":"generic","kind":"read","title":"Trace current session"}`},
		{"session_trace", `{"session_id":"s1"}`, `{"card":"generic","kind":"read","title":"Trace session s1","rawInput":"s1"}`},
		{"session_event_trace", `{"seq":12}`, `{"card":"generic","kind":"read","title":"Trace event 12","rawInput":{"seq":12}}`},
		{"session_event_read", `{"session_id":"s","seq":3,"before":1}`, `{"card":"generic","kind":"read","title":"Read event 3","rawInput":{"session_id":"s","seq":3}}`},
		{"schedule_list", `{}`, `{"card":"generic","title":"List reminders","kind":"read"}`},
	} {
		got, err := tool(t, r, c.tool).CallView(jsonv.MustParse(c.args))
		if err != nil {
			t.Errorf("%s: %v", c.tool, err)
			continue
		}
		// Byte-exact: key order is part of the product.
		if s := jsonv.Stringify(got); s != c.want {
			t.Errorf("%s callView = %s, want %s", c.tool, s, c.want)
		}
	}
	// No presenters, or arguments the schema rejects: no view.
	for _, c := range []struct{ tool, args string }{
		{"subagent", `{"description":"d","prompt":"p"}`},
		{"ask_user_question", `{"questions":[]}`},
		{"list_agents", `{}`},
		{"exit_plan_mode", `{"plan":7}`},
		{"update_goal", `{"goal_id":"g","revision":1,"action":"explode"}`},
		{"todo_write", `{"todos":[{"content":"a","status":"pending","extra":1}]}`},
	} {
		got, err := tool(t, r, c.tool).CallView(jsonv.MustParse(c.args))
		if err != nil || got.IsDefined() {
			t.Errorf("%s callView = %s, %v; want no view", c.tool, got, err)
		}
	}
}

func TestResultViews(t *testing.T) {
	r := registry(t, "")
	content := projector.TextContent("Error: no")
	got, _ := tool(t, r, "exit_plan_mode").ResultView(jsonv.MustParse(`{"plan":"# p"}`), projector.Result{Content: content, IsError: true})
	if s := jsonv.Stringify(got); s != `{"card":"generic","title":"Plan review","content":[{"type":"text","text":"Error: no"}]}` {
		t.Errorf("exit_plan_mode resultView = %s", s)
	}
	got, _ = tool(t, r, "ralph").ResultView(jsonv.MustParse(`{"objective":"o"}`), projector.Result{Content: content, IsError: true})
	if s := jsonv.Stringify(got); s != `{"card":"generic"}` {
		t.Errorf("ralph resultView = %s", s)
	}
}

func TestSubagentInstances(t *testing.T) {
	r := registry(t, `{"plugins":{"tool-subagent":[{"provider":"spawn","backgroundMode":"continuable"},{"provider":"fork","toolName":"subagent_fork","enableRunInBackground":false}]}}`)
	sub := tool(t, r, "subagent")
	if d := sub.Parameters.Path("properties", "run_in_background", "description").Str(); d != continuableBackground {
		t.Errorf("continuable description = %q", d)
	}
	fork := tool(t, r, "subagent_fork")
	if fork.Parameters.Get("properties").Has("run_in_background") {
		t.Error("disabled background must drop run_in_background")
	}
	if d := fork.Parameters.Path("properties", "prompt", "description").Str(); d != forkedPromptDescription {
		t.Errorf("fork prompt description = %q", d)
	}
	dyn := tool(t, r, "subagent_claude_code")
	if dyn != tool(t, r, "subagent_claude_code") {
		t.Error("matcher should cache its tools")
	}
	if r.Lookup("subagent_") != nil || r.Lookup("subagents") != nil {
		t.Error("matcher too broad")
	}
}

// TestSubagentHosts: DSH calls a background subagent run a job, LasmeX a
// task; a log names its host (LookupFor), or --config pins one.
func TestSubagentHosts(t *testing.T) {
	r := registry(t, "")
	value := `{"kind":"background","jobId":"j"}`
	for _, c := range []struct{ name, host, want string }{
		{"subagent", "", "started background subagent task j"},
		{"subagent", "lasmex", "started background subagent task j"},
		{"subagent", "dsh", "started background subagent job j"},
		{"subagent_codex", "dsh", "started background subagent job j"},
		{"subagent_codex", "", "started background subagent task j"},
	} {
		tl := r.LookupFor(c.name, c.host)
		if tl == nil {
			t.Fatalf("%s for %q: not found", c.name, c.host)
		}
		got, err := renderText(t, tl, `{}`, value)
		if err != nil || got != c.want {
			t.Errorf("%s for %q: %q, %v; want %q", c.name, c.host, got, err, c.want)
		}
	}
	pinned := registry(t, `{"host":"dsh"}`)
	if got, _ := renderText(t, pinned.LookupFor("subagent", "lasmex"), `{}`, value); got != "started background subagent job j" {
		t.Errorf("--config host dsh: %q", got)
	}
}
