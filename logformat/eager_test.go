package logformat

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
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

// ShapesOnly changes what a read keeps of payloads, never what it counts:
// over every log of the project's testdata (broken ones included) and the
// real fixtures when present, the same summary, the same error, and calls
// that agree in everything but the payloads, whose kinds agree.
func TestShapesOnlySameSummary(t *testing.T) {
	var paths []string
	for _, root := range []string{filepath.Join("..", "testdata"), filepath.Join("..", "..", "shared", "fixtures")} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".zst") || strings.HasSuffix(p, ".zstd")) && !strings.HasSuffix(p, ".values.jsonl") {
				paths = append(paths, p)
			}
			return nil
		})
	}
	if len(paths) < 20 {
		t.Fatalf("found %d logs under testdata, want the project's own (at least 20)", len(paths))
	}
	for _, p := range paths {
		read := func(opts Options) (calls []string, sum string, errText string) {
			s, err := ReadCalls(p, opts, func(c *Call) error {
				calls = append(calls, callShape(c))
				return nil
			})
			if err != nil {
				errText = err.Error()
			}
			sum = summaryText(s)
			return
		}
		c1, s1, e1 := read(Options{})
		c2, s2, e2 := read(Options{ShapesOnly: true})
		if s1 != s2 || e1 != e2 {
			t.Errorf("%s:\nlazy   %s %q\nshapes %s %q", p, s1, e1, s2, e2)
			continue
		}
		if strings.Join(c1, "\n") != strings.Join(c2, "\n") {
			t.Errorf("%s: calls differ:\nlazy   %v\nshapes %v", p, c1, c2)
		}
	}
	t.Logf("%d logs read both ways", len(paths))
}

// callShape is a call as a read in either payload mode must agree on: all
// but its payloads, of which the kinds.
func callShape(c *Call) string {
	kinds := func(vs ...jsonv.Value) string {
		var b strings.Builder
		for _, v := range vs {
			fmt.Fprintf(&b, "%v,", v.Kind())
		}
		return b.String()
	}
	var views []jsonv.Value
	for _, v := range c.Views {
		views = append(views, v.Content)
	}
	var subs []string
	for _, s := range c.SubCalls {
		subs = append(subs, s.CallID+":"+s.Name+":"+kinds(s.Value, s.Meta, s.Content))
	}
	return fmt.Sprintf("%s %s line %d host %s value-unrecordable %q result %v err %v synthetic %v replaced %v interrupted %v args %q kinds %s views %s subs %v",
		c.CallID, c.Name, c.Line, c.Host, c.ValueUnrecordable, c.HasResult, c.IsError, c.Synthetic, c.ContentReplaced, c.Interrupted, c.ArgumentsError,
		kinds(c.Value, c.Meta, c.Content, c.Error), kinds(views...), subs)
}

// summaryText is a Summary as text to compare (the header by value).
func summaryText(s *Summary) string {
	if s == nil {
		return "<nil>"
	}
	c := *s
	h := c.Header
	c.Header = nil
	return fmt.Sprintf("%+v header %+v", c, h)
}

// hasToolCallTag finds the tag wherever bytes.Contains does.
func TestHasToolCallTag(t *testing.T) {
	for _, s := range []string{``, `"tool-call`, `x"tool-call"`, `{"type":"tool-call-delta"}`, `"tool-cal`, `tool-call`, `-call"tool-call`,
		`"tool"tool-call`, `"too-call`, `-call-call"tool`, `"tool-call-call`, `ab"tool-cal"tool-call`} {
		if got, want := hasToolCallTag([]byte(s)), bytes.Contains([]byte(s), toolCallTag); got != want {
			t.Errorf("hasToolCallTag(%q) = %v, want %v", s, got, want)
		}
	}
}

// containsFrom and containsPair are bytes.Contains for every split of the needle, over
// inputs built from the needle's own pieces (near misses, overlaps).
func TestContainsFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, needle := range [][]byte{replaceOp, toolCallType, toolCallTag} {
		pieces := []string{`"`, "re", "place", `"replace`, `place"`, "x", `"re"`, string(needle[:len(needle)-1]), string(needle[1:]), `"tool`, "-call", `"`}
		for k := 0; k < len(needle); k++ {
			for n := 0; n < 2000; n++ {
				var b []byte
				for m := rng.IntN(8); m > 0; m-- {
					b = append(b, pieces[rng.IntN(len(pieces))]...)
				}
				if got, want := containsFrom(b, needle, k), bytes.Contains(b, needle); got != want {
					t.Fatalf("containsFrom(%q, %q, %d) = %v, want %v", b, needle, k, got, want)
				}
				if k+1 < len(needle) {
					if got, want := containsPair(b, needle, k), bytes.Contains(b, needle); got != want {
						t.Fatalf("containsPair(%q, %q, %d) = %v, want %v", b, needle, k, got, want)
					}
				}
			}
		}
	}
}
