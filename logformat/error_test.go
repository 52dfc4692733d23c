package logformat

import "testing"

// TestErrorQuotesName: an error's file name reaches a terminal quoted.
func TestErrorQuotesName(t *testing.T) {
	for _, c := range []struct {
		e    Error
		want string
	}{
		{Error{File: "x\ny.jsonl", Line: 3, Msg: "m"}, `"x\ny.jsonl":3: m`},
		{Error{File: "a.jsonl", Msg: "m"}, `a.jsonl: m`},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("Error() = %s, want %s", got, c.want)
		}
	}
}
