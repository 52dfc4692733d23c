package replay

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

// TestRecordedRejectedSchemaDrift: in the recorded sessions with rejected
// arguments, a port whose parameter schema drifts from the host's (read's
// file_path renamed) turns its calls, the rejected ones and the ones the
// host ran, into params-mismatch; the ports as they are verify them all.
func TestRecordedRejectedSchemaDrift(t *testing.T) {
	for _, host := range []string{"dsh", "lasmex"} {
		log := filepath.Join("..", "testdata", "recorded", host, "rejected", "session.jsonl")
		for _, drift := range []bool{false, true} {
			reg, err := builtin.Registry(projector.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if drift {
				read := reg.Lookup("read")
				params := strings.ReplaceAll(jsonv.Encode(read.Parameters), `"file_path"`, `"path"`)
				if _, err := reg.Replace(&projector.Tool{Name: read.Name, Plugin: read.Plugin, Parameters: jsonv.MustParse(params),
					Output: read.Output, PresentCall: read.PresentCall, PresentResult: read.PresentResult}); err != nil {
					t.Fatal(err)
				}
			}
			e := NewEngine(reg, Options{Strict: true})
			mismatched, reads, rejections := 0, 0, 0
			if _, err := logformat.ReadCalls(log, logformat.Options{}, func(c *logformat.Call) error {
				for _, r := range e.VerifyCall(c) {
					if r.Tool == "read" {
						reads++
					}
					for _, ch := range r.Checked {
						if ch == "arguments" {
							rejections++
						}
					}
					for _, f := range r.Findings {
						// A failure without an error code does not say whether
						// the host validated the arguments: only a notice.
						if !drift || r.Tool != "read" || f.Class != ParamsMismatch && f.Class != PresenterDeclined {
							t.Errorf("%s drift=%v: %s %s: %s %s", host, drift, r.Tool, r.CallID, f.Class, f.Message)
						}
						if f.Class == ParamsMismatch {
							mismatched++
						}
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if rejections < 10 || reads < 4 {
				t.Fatalf("%s: %d rejections checked, %d read calls: the recording lacks them", host, rejections, reads)
			}
			if drift && mismatched < 2 {
				t.Errorf("%s: the drifted read schema gave %d params-mismatch findings, want 2 (the rejected and the executed call)", host, mismatched)
			}
		}
	}
}
