package logformat

import (
	"strings"
	"testing"
)

// TestTeamMember: a request header whose system prompt carries the Agent
// Teams policy makes the calls after it a Team member's (Call.Team), and
// membership stays for the session; a header without it does not.
func TestTeamMember(t *testing.T) {
	const policy = `Agent Teams is available in this session, but create teammates only when the user explicitly asks to use Agent Teams or teammates.`
	header := func(seq int, system string) string {
		return `{"type":"request/header","seq":` + itoa(seq) + `,"time":0,"data":{"header":{"config":{"provider":"m","model":"m"},"system":"` + system + `"},"reason":"initial"}}`
	}
	call := func(seq int, id string) string {
		return `{"type":"tool/call","seq":` + itoa(seq) + `,"time":0,"data":{"turn":1,"step":1,"callId":"` + id + `","name":"send_message","arguments":"{}"}}`
	}
	for _, tc := range []struct {
		name  string
		lines []string
		want  string // Team per call, in order
	}{
		{"member", []string{header(0, "You are an AI agent powered by DeepSeek Harness.\\n\\n"+policy+"\\n\\nYour Team role is lead"), call(1, "a"), header(2, "changed"), call(3, "b")}, "a:true b:true"},
		{"not a member", []string{header(0, "You are an AI agent powered by DeepSeek Harness."), call(1, "a")}, "a:false"},
		{"no header", []string{call(0, "a")}, "a:false"},
		{"joins later", []string{header(0, "plain"), call(1, "a"), header(2, policy), call(3, "b")}, "a:false b:true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := `{"type":"session","version":0,"id":"s","createdAt":0,"cwd":"/w","delegationDepth":0}` + "\n" + strings.Join(tc.lines, "\n") + "\n"
			var got []string
			if _, err := ReadCallsBytes("team.jsonl", []byte(log), Options{}, func(c *Call) error {
				got = append(got, c.CallID+":"+map[bool]string{true: "true", false: "false"}[c.Team])
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("got %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
}
