package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// unknownToolLog is a four-event log of host's whose one call names a tool
// no port defines (a model's invention, an MCP tool, a third-party plugin's).
func unknownToolLog(host string) string {
	identity := map[string]string{
		"dsh":    "You are an AI agent powered by DeepSeek Harness.",
		"lasmex": "You are an AI agent powered by LasmeX.",
	}[host]
	return `{"type":"session","version":0,"id":"s","createdAt":1,"cwd":"/repo","delegationDepth":0}
{"type":"step/start","seq":0,"time":1,"data":{"turn":1,"step":1}}
{"type":"request/header","seq":1,"time":2,"data":{"header":{"config":{"provider":"mock","model":"mock"},"system":"` + identity + `"}}}
{"type":"tool/call","seq":2,"time":3,"data":{"turn":1,"step":1,"callId":"c1","name":"no_such_tool","arguments":"{}"}}
`
}

// TestUnknownToolNeverHangs: verify, show and calls of a log naming a tool
// without a port return, host detected or pinned (a lookup once deadlocked
// on the registry's lock for a detected host).
func TestUnknownToolNeverHangs(t *testing.T) {
	t.Parallel()
	for _, host := range []string{"dsh", "lasmex"} {
		p := filepath.Join(t.TempDir(), "session.jsonl")
		if err := os.WriteFile(p, []byte(unknownToolLog(host)), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"verify", p},
			{"verify", "--config", `{"host":"` + host + `"}`, p},
			{"verify", "--format", "json", p},
			{"show", "--no-pager", "--color", "never", p},
			{"show", "--json", p},
			{"calls", p},
		} {
			out, errs, code := cli(t, nil, args...)
			if code != cmdutil.ExitOK {
				t.Errorf("%s %v: exit %d\n%s%s", host, args, code, out, errs)
			}
			if args[0] == "show" && !strings.Contains(out, "no_such_tool") {
				t.Errorf("%s %v: the call's card is missing:\n%s", host, args, out)
			}
		}
	}
}
