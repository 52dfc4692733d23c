package logformat

import (
	"strings"
	"testing"
)

const (
	askLegacyDef = `{"name":"ask_user_question","description":"Ask.","parameters":{"type":"object","properties":{"questions":{"type":"array"}},"required":["questions"]}}`
	askTimedDef  = `{"name":"ask_user_question","description":"Ask.","parameters":{"type":"object","properties":{"questions":{"type":"array"},"timeout":{"type":"integer"}},"required":["questions"]}}`
	bashDef      = `{"name":"bash","description":"Run. A \"timeout\" kills it.","parameters":{"type":"object","properties":{"command":{"type":"string"},"timeoutMs":{"type":"number"}}}}`
)

func TestAskTimedHeader(t *testing.T) {
	data := func(tools string) string {
		return `{"header":{"config":{"provider":"m","model":"m"},"tools":` + tools + `},"reason":"initial"}`
	}
	for _, tc := range []struct {
		name, raw string
		want      bool
	}{
		{"timed", data(`[` + bashDef + `,` + askTimedDef + `]`), true},
		{"legacy", data(`[` + bashDef + `,` + askLegacyDef + `]`), false},
		{"timeout elsewhere only", data(`[{"name":"x","parameters":{"properties":{"timeout":{}}}},` + askLegacyDef + `]`), false},
		{"no ask tool", data(`[` + bashDef + `]`), false},
		{"tools not an array", data(`"{{tools}}"`), false},
		{"properties not an object", data(`[{"name":"ask_user_question","parameters":{"properties":["timeout"]}}]`), false},
		{"no tools", `{"header":{"config":{}},"reason":"initial"}`, false},
		{"not JSON", `{"header":{"tools":[{"name":"ask_user_question","parameters":{"properties":{"timeout":`, false},
	} {
		if got := AskTimedHeader([]byte(tc.raw)); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestAskTimedCalls: each call takes its mode from the newest request
// header before it (a request declares its own tools), sub-calls from
// their root.
func TestAskTimedCalls(t *testing.T) {
	header := func(seq int, ask string) string {
		return `{"type":"request/header","seq":` + itoa(seq) + `,"time":0,"data":{"header":{"config":{"provider":"m","model":"m"},"tools":[` + bashDef + `,` + ask + `]},"reason":"initial"}}`
	}
	call := func(seq int, id string) string {
		return `{"type":"tool/call","seq":` + itoa(seq) + `,"time":0,"data":{"turn":1,"step":1,"callId":"` + id + `","name":"ask_user_question","arguments":"{}"}}`
	}
	log := `{"type":"session","version":0,"id":"s","createdAt":0,"cwd":"/w","delegationDepth":0}` + "\n" + strings.Join([]string{
		call(0, "before"), header(1, askTimedDef), call(2, "a"), call(3, "b"), header(4, askLegacyDef), call(5, "c"), header(6, askTimedDef), call(7, "d"),
	}, "\n") + "\n"
	var got []string
	if _, err := ReadCallsBytes("ask.jsonl", []byte(log), Options{}, func(c *Call) error {
		got = append(got, c.CallID+":"+map[bool]string{true: "timed", false: "legacy"}[c.AskTimed])
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := "before:legacy a:timed b:timed c:legacy d:timed"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}
