package replay

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

var (
	fuzzOnce sync.Once
	fuzzEng  *Engine
	fuzzList []string
)

func fuzzEngine(t testing.TB) (*Engine, []string) {
	fuzzOnce.Do(func() {
		reg, err := builtin.Registry(projector.Config{})
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range reg.Tools() {
			fuzzList = append(fuzzList, tl.Name)
		}
		reg.Add(echoTool("echo"))
		fuzzList = append(fuzzList, "echo", "unknown")
		fuzzEng = NewEngine(reg, Options{})
	})
	return fuzzEng, fuzzList
}

// FuzzVerifyCall feeds arbitrary recorded data to every tool: the engine
// must classify, never fail internally (ports may throw or panic: that is
// contained and reported as their own class).
func FuzzVerifyCall(f *testing.F) {
	f.Add(uint8(0), `{"file_path":"a.txt"}`, `{"path":"/abs/a.txt","offset":1,"lines":[{"number":1,"text":"hi"}],"totalLines":1}`, `[{"type":"text","text":"x"}]`, `null`, false, false)
	f.Add(uint8(3), ``, `{"text":"hi","n":1}`, `[{"type":"text","text":"hi"}]`, `{"n":1}`, true, false)
	f.Add(uint8(7), `{"command":"ls"}`, `"oops"`, `"not an array"`, ``, false, true)
	f.Add(uint8(9), `[1,2`, `[]`, `[{"type":"image"}]`, `[]`, true, true)
	f.Fuzz(func(t *testing.T, which uint8, args, value, content, meta string, sub, isErr bool) {
		e, names := fuzzEngine(t)
		c := &logformat.Call{File: "f.jsonl", Line: 1, CallID: "c", Name: names[int(which)%len(names)],
			RawArguments: args, Started: true, HasResult: true, IsError: isErr, IsSubCall: sub}
		if v, err := jsonv.ParseString(args); err == nil {
			c.Arguments = v
		} else {
			c.ArgumentsError = err.Error()
		}
		c.Value, _ = jsonv.ParseString(value)
		c.Content, _ = jsonv.ParseString(content)
		c.Meta, _ = jsonv.ParseString(meta)
		for _, r := range e.VerifyCall(c) {
			for _, f := range r.Findings {
				if f.Class == InternalError {
					t.Fatalf("%s: %s\n%s", c.Name, f.Message, strings.Join(f.DiffLines(), "\n"))
				}
				if f.Class == "" || f.Message == "" {
					t.Fatalf("unclassified finding %+v", f)
				}
			}
		}
	})
}

// FuzzTextDiff: any two texts diff without panicking, within the cap, and
// equal texts give no changed lines; the result is the one of the plain
// line-by-line trim (textDiffRef).
func FuzzTextDiff(f *testing.F) {
	f.Add("a\r\nb\tc  \nd", "a\nb\tc\nd\n")
	f.Add("", "\n")
	f.Add("\x1b[31mred\x1b[0m", "\xed\xa0\x80")
	f.Fuzz(func(t *testing.T, a, b string) {
		d := TextDiff(a, b, DiffLimit)
		if want := textDiffRef(a, b, DiffLimit); !slices.Equal(d, want) {
			t.Fatalf("TextDiff(%q, %q) =\n%q\nbefore:\n%q", a, b, d, want)
		}
		if len(d) > DiffLimit+1 {
			t.Fatalf("%d lines over the cap", len(d))
		}
		if a == b {
			for _, l := range d {
				if strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "+ ") {
					t.Fatalf("equal texts gave a change: %q", l)
				}
			}
		}
	})
}
