package replay

import (
	"path/filepath"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

// TestLegacyCordisFixture: the previous Cordis generation's tools, which
// the pinned trees no longer register, are called in the pinned LasmeX
// tree's own session fixture; their ports verify those calls (presenters:
// the log carries no values) instead of leaving them without a projector.
func TestLegacyCordisFixture(t *testing.T) {
	log := filepath.Join(sharedtest.Dir(t, "fixtures", "lasmex", "apps", "web", "tests", "snapshots", "cordis-tool-round"), "session.jsonl")
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(reg, Options{Strict: true})
	seen := map[string]bool{}
	if _, err := logformat.ReadCalls(log, logformat.Options{}, func(c *logformat.Call) error {
		for _, r := range e.VerifyCall(c) {
			seen[r.Tool] = true
			if r.Status != Verified || len(r.Findings) > 0 || len(r.Checked) == 0 {
				t.Errorf("%s %s: %v checked %v findings %v", r.Tool, r.CallID, r.Status, r.Checked, r.Findings)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"cordis_inspect", "cordis_mount", "cordis_unmount"} {
		if !seen[name] {
			t.Errorf("no %s call in the fixture", name)
		}
	}
}
