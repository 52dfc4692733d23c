package agent

import (
	"bufio"
	"os"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// testdata/team-vectors.jsonl holds vectors computed by tool-agent-team's
// own registered definitions (recorder/driver/team-vectors.ts on the pinned
// DSH tree): each tool's compiled schemas, render over sample values, and
// the registry's verdict on sample arguments.

func teamRegistry(t *testing.T) *projector.Registry {
	t.Helper()
	r, err := projector.NewRegistry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	return r
}

// teamTool is the Team's definition of name, as a Team member's call
// resolves it.
func teamTool(r *projector.Registry, name string) *projector.Tool {
	return r.Resolve(&projector.Recorded{Name: name, Host: "dsh", Team: true, ExecArgs: jsonv.Obj()})
}

func TestTeamVectors(t *testing.T) {
	f, err := os.Open("testdata/team-vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := teamRegistry(t)
	counts := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		v := jsonv.MustParse(sc.Text())
		name, kind := v.Get("tool").Str(), v.Get("kind").Str()
		where := "team-vectors.jsonl:" + jsonv.Stringify(jsonv.Int(line)) + " " + name + " " + kind
		tool := teamTool(r, name)
		if tool == nil || tool.Plugin != TeamPlugin {
			t.Fatalf("%s: no Team port (%v)", where, tool)
		}
		counts[kind]++
		switch kind {
		case "schemas":
			if got, want := jsonv.Encode(tool.Parameters), jsonv.Encode(v.Get("parameters")); got != want {
				t.Errorf("%s parameters:\n got %s\nwant %s", where, got, want)
			}
			if got, want := jsonv.Encode(tool.Output.Schema), jsonv.Encode(v.Get("output")); got != want {
				t.Errorf("%s output schema:\n got %s\nwant %s", where, got, want)
			}
		case "render":
			args, value := v.Get("args"), v.Get("value")
			if vs := tool.ValidateValue(value); len(vs) > 0 {
				t.Errorf("%s: value rejected: %s", where, vs[0].Message)
			}
			if vs := tool.ValidateArgs(args); len(vs) > 0 {
				t.Errorf("%s: args rejected: %s", where, vs[0].Message)
			}
			content, err := tool.RunRender(args, value)
			if err != nil || jsonv.Encode(content) != jsonv.Encode(v.Get("content")) {
				t.Errorf("%s render:\n got %s (%v)\nwant %s", where, jsonv.Encode(content), err, jsonv.Encode(v.Get("content")))
			}
		case "args":
			vs := tool.ValidateArgs(v.Get("args"))
			if v.Get("accepted").True() {
				if len(vs) > 0 {
					t.Errorf("%s: the host accepts %s, the port rejects: %s", where, jsonv.Encode(v.Get("args")), vs[0].Message)
				}
				continue
			}
			want := "Error: " + v.Path("error", "message").Str()
			if got := projector.InvalidArgsText(vs); len(vs) == 0 || got != want {
				t.Errorf("%s %s:\n got %q\nwant %q", where, jsonv.Encode(v.Get("args")), got, want)
			}
		default:
			t.Errorf("%s: unknown kind", where)
		}
	}
	if counts["schemas"] != len(TeamToolNames) || counts["render"] == 0 || counts["args"] == 0 {
		t.Fatalf("vectors checked: %v", counts)
	}
}

// TestTeamScope: a Team member's send_message, list_agents and
// interrupt_agent are the Team's; another agent's are
// tool-subagent-control's unless only the Team's accepts the arguments;
// the Team's other tools resolve either way.
func TestTeamScope(t *testing.T) {
	r := teamRegistry(t)
	for _, tc := range []struct {
		name  string
		team  bool
		args  string
		want  string
		value string
	}{
		{"send_message", true, `{"target":"lead","message":"m"}`, TeamPlugin, ""},
		{"send_message", true, `{"subagent_id":"s","message":"m"}`, TeamPlugin, ""},
		{"send_message", false, `{"subagent_id":"s","message":"m"}`, "tool-subagent-control", ""},
		{"send_message", false, `{"target":"lead","message":"m"}`, TeamPlugin, ""},
		{"list_agents", true, `{}`, TeamPlugin, ""},
		{"list_agents", false, `{}`, "tool-subagent-control", ""},
		{"list_agents", false, `{}`, TeamPlugin, `[{"id":"a","name":"lead","role":"lead","status":"idle","diagnostics":[]}]`},
		{"list_agents", false, `{}`, "tool-subagent-control", `[{"kind":"child","id":"a","label":"L","status":"idle"}]`},
		{"interrupt_agent", false, `{"agent_id":"a"}`, "tool-subagent-control", ""},
		{"interrupt_agent", false, `{"target":"a"}`, TeamPlugin, ""},
		{"spawn_teammate", false, `{}`, TeamPlugin, ""},
		{"team_task_update", false, `{}`, TeamPlugin, ""},
	} {
		rec := projector.Recorded{Name: tc.name, Host: "dsh", Team: tc.team, ExecArgs: jsonv.MustParse(tc.args)}
		if tc.value != "" {
			rec.Value = jsonv.MustParse(tc.value)
		}
		if got := r.Resolve(&rec); got == nil || got.Plugin != tc.want {
			t.Errorf("%s team=%v %s: resolved %v, want %s", tc.name, tc.team, tc.args, got, tc.want)
		}
	}
}
