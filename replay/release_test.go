package replay

import (
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

// A value only a later release's definition accepts is schema-invalid for
// the release the log's format says, and the finding names the release
// that accepts it; a log of that release verifies.
func TestSchemaInvalidNamesLaterRelease(t *testing.T) {
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	text := "so far\n[still running after 5000ms; moved to background job job-1]\nThe command keeps running in the background. You will be notified when it finishes; read newer output with job_output, stop it with job_kill."
	for _, tc := range []struct {
		release, host, want string
		hint                bool
	}{
		{"", "dsh", "schema-invalid", true},
		{"0.1.5", "", "schema-invalid", true},
		{"0.1.7", "", "", false},
		{"", "lasmex", "schema-invalid", false},
	} {
		c := call(`{"kind":"promoted","jobId":"job-1","timeoutMs":5000,"output":"so far"}`, `[{"type":"text","text":`+jsonv.Quote(text)+`}]`, "")
		c.Name, c.RawArguments, c.Arguments = "bash", `{"command":"make","description":"Build it"}`, jsonv.MustParse(`{"command":"make","description":"Build it"}`)
		c.Release, c.Host = tc.release, tc.host
		rs := NewEngine(reg, Options{Strict: true}).VerifyCall(c)
		if got := classes(rs); got != tc.want {
			t.Fatalf("release %q host %q: findings %q, want %q: %v", tc.release, tc.host, got, tc.want, rs[0].Findings)
		}
		for _, f := range rs[0].Findings {
			if got := strings.Contains(f.Message, `--config '{"release": "0.1.7-alpha.2"}'`); got != tc.hint {
				t.Errorf("release %q host %q: hint %v, want %v: %s", tc.release, tc.host, got, tc.hint, f.Message)
			}
		}
	}
}
