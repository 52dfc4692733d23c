package logformat

import (
	"strings"
	"testing"
)

const (
	askLegacyDef   = `{"name":"ask_user_question","description":"Ask.","parameters":{"type":"object","properties":{"questions":{"type":"array"}},"required":["questions"]}}`
	askTimedDef    = `{"name":"ask_user_question","description":"Ask.","parameters":{"type":"object","properties":{"questions":{"type":"array"},"timeout":{"type":"integer"}},"required":["questions"]}}`
	planDef        = `{"name":"exit_plan_mode","description":"Exit.","parameters":{"type":"object","properties":{"plan":{"type":"string"}},"required":["plan"]}}`
	planDetailsDef = `{"name":"exit_plan_mode","description":"Exit.","parameters":{"type":"object","properties":{"plan":{"type":"string"},"details":{"type":"string"}},"required":["plan"]}}`
	bashDef        = `{"name":"bash","description":"Run. A \"timeout\" kills it.","parameters":{"type":"object","properties":{"command":{"type":"string"},"timeoutMs":{"type":"number"}}}}`
)

func TestHeaderVariants(t *testing.T) {
	data := func(tools string) string {
		return `{"header":{"config":{"provider":"m","model":"m"},"tools":` + tools + `},"reason":"initial"}`
	}
	for _, tc := range []struct {
		name, raw string
		want      string
	}{
		{"timed", data(`[` + bashDef + `,` + askTimedDef + `]`), "ask-timed"},
		{"legacy", data(`[` + bashDef + `,` + askLegacyDef + `]`), ""},
		{"timeout elsewhere only", data(`[{"name":"x","parameters":{"properties":{"timeout":{}}}},` + askLegacyDef + `]`), ""},
		{"no ask tool", data(`[` + bashDef + `]`), ""},
		{"tools not an array", data(`"{{tools}}"`), ""},
		{"properties not an object", data(`[{"name":"ask_user_question","parameters":{"properties":["timeout"]}}]`), ""},
		{"no tools", `{"header":{"config":{}},"reason":"initial"}`, ""},
		{"not JSON", `{"header":{"tools":[{"name":"ask_user_question","parameters":{"properties":{"timeout":`, ""},
		{"plan details", data(`[` + planDetailsDef + `]`), "plan-details"},
		{"plan without details", data(`[` + planDef + `,{"name":"x","parameters":{"properties":{"details":{}}}}]`), ""},
		{"both", data(`[` + planDetailsDef + `,` + askTimedDef + `]`), "ask-timed plan-details"},
	} {
		if got := strings.Join(HeaderVariants([]byte(tc.raw)), " "); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestHeaderVariantCalls: each call takes its variants from the newest
// request header before it (a request declares its own tools).
func TestHeaderVariantCalls(t *testing.T) {
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
		got = append(got, c.CallID+":"+map[bool]string{true: "timed", false: "legacy"}[strings.Join(c.Variants(), ",") == VariantAskTimed])
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := "before:legacy a:timed b:timed c:legacy d:timed"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
	// calls prints them.
	var lines []string
	if _, err := ReadCallsBytes("ask.jsonl", []byte(log), Options{}, func(c *Call) error {
		lines = append(lines, string(AppendCallJSON(nil, c, CallJSONOptions{})))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{false, true, true, false, true} {
		if got := strings.Contains(lines[i], `"variants":["ask-timed"]`); got != want {
			t.Errorf("call %d: variants printed %v, want %v: %s", i, got, want, lines[i])
		}
	}
}
