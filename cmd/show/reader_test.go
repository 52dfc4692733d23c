package show

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// useReader makes show read logs with logformat.ReadCalls, or, while that is
// not implemented, with minimalReadCalls (current-shape plain .jsonl only), so
// the rendering side can be tested on its own.
func useReader(t *testing.T) {
	t.Helper()
	_, err := logformat.ReadCalls("../../testdata/show/fs.jsonl", logformat.Options{}, func(*logformat.Call) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "not implemented") {
		return
	}
	t.Logf("logformat.ReadCalls is not implemented yet: using the minimal test reader")
	readCalls = minimalReadCalls
	t.Cleanup(func() { readCalls = logformat.ReadCalls })
}

// minimalReadCalls pairs assistant/message blocks, tool/call, append-origin
// tool/result and Code Mode dispatch events of a plain current-shape log.
func minimalReadCalls(path string, _ logformat.Options, fn func(*logformat.Call) error) (*logformat.Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &logformat.Error{File: path, Msg: err.Error()}
	}
	defer f.Close()
	var order []*logformat.Call
	byID := map[string]*logformat.Call{}
	get := func(id, name string, line int) *logformat.Call {
		if c, ok := byID[id]; ok {
			return c
		}
		c := &logformat.Call{File: path, Line: line, CallID: id, Name: name, Seq: -1}
		byID[id] = c
		order = append(order, c)
		return c
	}
	setArgs := func(c *logformat.Call, raw string) {
		c.RawArguments = raw
		a, err := jsonv.ParseString(raw)
		if err != nil {
			c.Arguments, c.ArgumentsError = jsonv.Value{}, err.Error()
		} else {
			c.Arguments, c.ArgumentsError = a, ""
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	line := 0
	for sc.Scan() {
		line++
		if line == 1 {
			continue
		}
		ev, err := jsonv.Parse(sc.Bytes())
		if err != nil {
			return nil, &logformat.Error{File: path, Line: line, Msg: err.Error()}
		}
		d := ev.Get("data")
		turn := int(d.Get("turn").Num())
		switch ev.Get("type").Str() {
		case "assistant/message":
			for _, b := range d.Path("message", "content").Elems() {
				if b.Get("type").Str() == "tool-call" {
					c := get(b.Get("id").Str(), b.Get("name").Str(), line)
					c.Requested, c.Turn = true, turn
					setArgs(c, b.Get("arguments").Str())
				}
			}
		case "tool/call":
			c := get(d.Get("callId").Str(), d.Get("name").Str(), line)
			c.Started, c.Line, c.CallLine, c.Turn = true, line, line, turn
			setArgs(c, d.Get("arguments").Str())
		case "tool/code-dispatch-start", "tool/code-dispatch":
			root := byID[d.Get("rootCallId").Str()]
			if root == nil {
				continue
			}
			id := d.Get("subCallId").Str()
			var sub *logformat.Call
			for _, s := range root.SubCalls {
				if s.CallID == id {
					sub = s
				}
			}
			if sub == nil {
				sub = &logformat.Call{File: path, Line: line, CallLine: line, CallID: id, Name: d.Get("name").Str(), Turn: root.Turn,
					IsSubCall: true, RootCallID: root.CallID, ParentCallID: d.Get("parentCallId").Str(), Started: true, Seq: -1}
				sub.Arguments = d.Get("arguments")
				sub.RawArguments = jsonv.Stringify(sub.Arguments)
				root.SubCalls = append(root.SubCalls, sub)
			}
			if ev.Get("type").Str() == "tool/code-dispatch" {
				sub.Line, sub.HasResult, sub.Content, sub.IsError = line, true, d.Get("content"), d.Get("isError").True()
			}
		case "tool/result":
			if op := ev.Get("surfaceOp"); op.IsDefined() && !(op.IsString() && op.Str() == "append") {
				continue
			}
			id := d.Path("message", "source", "callId").Str()
			c := get(id, "", line)
			blk := d.Path("message", "content").At(0)
			c.Line, c.HasResult, c.Content, c.IsError = line, true, blk.Get("content"), blk.Get("isError").True()
			c.Error, c.Meta = d.Get("error"), d.Get("meta")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &logformat.Error{File: path, Msg: err.Error()}
	}
	sum := &logformat.Summary{File: path}
	for _, c := range order {
		c.Interrupted = !c.HasResult
		sum.Calls++
		if err := fn(c); err != nil {
			return sum, err
		}
	}
	return sum, nil
}
