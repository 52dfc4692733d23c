package benchgen_test

import (
	"bytes"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/benchgen"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// Each format's log reads back as the session it describes: every call,
// with its value, no notice.
func TestGenerateFormats(t *testing.T) {
	for _, format := range []int{0, 2, 3, 4} {
		var buf bytes.Buffer
		st, err := benchgen.Generate(&buf, benchgen.Options{Bytes: 256 << 10, Format: format})
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		sum, err := logformat.ReadCallsFrom("gen", bytes.NewReader(buf.Bytes()), logformat.Options{}, func(c *logformat.Call) error {
			calls++
			if c.Format != format || !c.Value.IsDefined() || !c.HasResult {
				t.Errorf("format %d: call %s: format %d, value %v, result %v", format, c.CallID, c.Format, c.Value.IsDefined(), c.HasResult)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("format %d: %v", format, err)
		}
		if int64(calls) != st.Calls || calls == 0 || len(sum.Notices) != 0 || sum.Header.Version != format {
			t.Errorf("format %d: %d calls of %d, notices %v, header %+v", format, calls, st.Calls, sum.Notices, sum.Header)
		}
	}
	if _, err := benchgen.Generate(&bytes.Buffer{}, benchgen.Options{Bytes: 1, Format: 1}); err == nil {
		t.Error("format 1 was written")
	}
}
