package logformat

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
)

// DecodeValues changes when a value is decoded, never what a read yields:
// the same calls and values, the same errors and notices for a broken value.
func TestDecodeValuesSameResult(t *testing.T) {
	good := filepath.Join("..", "testdata", "verify", "clean", "read.jsonl")
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// A value broken inside its string: before the last turn/end it is
	// corruption; as the last line it is a torn tail.
	lines := strings.SplitAfter(string(data), "\n")
	var brokenMid, brokenTail []string
	for i, l := range lines {
		if strings.Contains(l, `"value":{`) && brokenMid == nil {
			brokenMid = append(append(append([]string{}, lines[:i]...), strings.Replace(l, `"value":{`, `"value":{"x":"\u0001`, 1)), lines[i+1:]...)
		}
	}
	brokenTail = append(append([]string{}, lines...), `{"type":"tool/result","seq":99,"time":0,"data":{"value":{"a":tru}}}`+"\n")
	files := map[string]string{"good": good}
	for name, ls := range map[string][]string{"mid": brokenMid, "tail": brokenTail} {
		p := filepath.Join(dir, name+".jsonl")
		if err := os.WriteFile(p, []byte(strings.Join(ls, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		files[name] = p
	}
	for name, path := range files {
		type out struct {
			values  []jsonv.Value
			err     string
			notices string
		}
		read := func(eager bool) out {
			var o out
			sum, err := ReadCalls(path, Options{DecodeValues: eager}, func(c *Call) error {
				o.values = append(o.values, c.Value)
				return nil
			})
			if err != nil {
				// The syntax detail may be worded by the validator or by the
				// parser; file, line and class must agree.
				o.err, _, _ = strings.Cut(err.Error(), "unparsable record:")
			}
			if sum != nil {
				for _, n := range sum.Notices {
					o.notices += fmt.Sprintf("%s@%d:%d;", n.Kind, n.Line, n.Offset)
				}
			}
			return o
		}
		lazy, eager := read(false), read(true)
		if lazy.err != eager.err || lazy.notices != eager.notices || len(lazy.values) != len(eager.values) {
			t.Fatalf("%s: lazy %q %q %d calls, eager %q %q %d calls", name, lazy.err, lazy.notices, len(lazy.values), eager.err, eager.notices, len(eager.values))
		}
		for i := range lazy.values {
			if !jsonv.Equal(lazy.values[i], eager.values[i]) {
				t.Errorf("%s: value %d differs", name, i)
			}
		}
		if name == "mid" && lazy.err == "" {
			t.Errorf("mid: a broken value before the last turn/end must be corruption")
		}
		if name == "tail" && !strings.Contains(lazy.notices, "torn") {
			t.Errorf("tail: want a torn-tail notice, got %q", lazy.notices)
		}
	}
}
