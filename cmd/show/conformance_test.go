package show

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

// conformanceLog writes a one-call session log for a worked example: the
// requesting assistant/message, tool/call with JSON.stringify(args), and the
// append-origin tool/result carrying the presenter input of the record.
func conformanceLog(t *testing.T, dir string, i int, rec jsonv.Value) string {
	t.Helper()
	in := rec.Get("resultInput")
	content, isError, meta := in.Get("content"), in.Get("isError").True(), in.Get("meta")
	if in.IsUndefined() {
		content, isError = rec.Get("content"), rec.Get("isError").True()
		if !rec.Get("meta_absent").True() {
			meta = rec.Get("meta")
		}
	}
	if content.IsString() {
		content = projector.TextContent(content.Str())
	}
	if !content.IsArray() {
		content = jsonv.Arr()
	}
	args := jsonv.Stringify(rec.Get("args"))
	tool := rec.Get("tool")
	id := jsonv.Str("call_1")
	block := jsonv.Obj(jsonv.M("type", jsonv.Str("tool-call")), jsonv.M("id", id), jsonv.M("name", tool), jsonv.M("arguments", jsonv.Str(args)))
	resultData := jsonv.Obj(jsonv.M("turn", jsonv.Int(1)), jsonv.M("step", jsonv.Int(1)),
		jsonv.M("message", jsonv.Obj(jsonv.M("id", jsonv.Str("r1")), jsonv.M("role", jsonv.Str("user")),
			jsonv.M("source", jsonv.Obj(jsonv.M("kind", jsonv.Str("tool")), jsonv.M("callId", id))),
			jsonv.M("content", jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("tool-result")), jsonv.M("toolCallId", id),
				jsonv.M("content", content), jsonv.M("isError", jsonv.BoolValue(isError))))))))
	if meta.IsDefined() {
		resultData = resultData.With("meta", meta)
	}
	ev := func(seq int, typ string, data jsonv.Value, extra ...jsonv.Member) string {
		ms := append([]jsonv.Member{jsonv.M("type", jsonv.Str(typ)), jsonv.M("seq", jsonv.Int(seq)), jsonv.M("time", jsonv.Num(1785000000000+float64(seq))), jsonv.M("data", data)}, extra...)
		return jsonv.Stringify(jsonv.Obj(ms...))
	}
	lines := []string{
		`{"type":"session","version":0,"id":"00000000-0000-0000-0000-000000000000","createdAt":1785000000000,"cwd":"/repo","delegationDepth":0}`,
		ev(0, "turn/start", jsonv.MustParse(`{"turn":1}`)),
		ev(1, "step/start", jsonv.MustParse(`{"turn":1,"step":1}`)),
		ev(2, "assistant/message", jsonv.Obj(jsonv.M("turn", jsonv.Int(1)), jsonv.M("step", jsonv.Int(1)),
			jsonv.M("message", jsonv.Obj(jsonv.M("id", jsonv.Str("m1")), jsonv.M("role", jsonv.Str("assistant")), jsonv.M("content", jsonv.Arr(block)),
				jsonv.M("source", jsonv.MustParse(`{"kind":"model","provider":"p","model":"m"}`))))), jsonv.M("surfaceOp", jsonv.Str("append"))),
		ev(3, "tool/call", jsonv.Obj(jsonv.M("turn", jsonv.Int(1)), jsonv.M("step", jsonv.Int(1)), jsonv.M("callId", id), jsonv.M("name", tool), jsonv.M("arguments", jsonv.Str(args)))),
		ev(4, "tool/result", resultData, jsonv.M("sourceEventSeqs", jsonv.Arr(jsonv.Int(3))), jsonv.M("surfaceOp", jsonv.Str("append"))),
		ev(5, "step/end", jsonv.MustParse(`{"turn":1,"step":1}`)),
		ev(6, "turn/end", jsonv.MustParse(`{"turn":1,"reason":{"kind":"completed"}}`)),
	}
	path := filepath.Join(dir, "rec"+jsonv.FormatNumber(float64(i))+".jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestShowJSONConformance: for every worked example with a callView or
// resultView, `show --json` over a log built from it prints exactly that view
// (a null view: the key is absent). Records of tools without a port yet are
// counted, not failed.
func TestShowJSONConformance(t *testing.T) {
	t.Parallel()
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	type example struct {
		name string // file:line of the record
		rec  jsonv.Value
		path string
	}
	var examples []example
	for _, name := range []string{"fs-examples.jsonl", "other-examples.jsonl"} {
		f, err := os.Open(sharedtest.Dir(t, "conformance", name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		n := 0
		for sc.Scan() {
			n++
			rec, err := jsonv.Parse(sc.Bytes())
			if err != nil {
				t.Fatalf("%s:%d: %v", name, n, err)
			}
			if !rec.Has("callView") && !rec.Has("resultView") {
				continue
			}
			path := conformanceLog(t, dir, len(examples)+1, rec)
			examples = append(examples, example{name + ":" + jsonv.FormatNumber(float64(n)), rec, path})
		}
		f.Close()
	}
	// one run over the directory: one object per log, keyed by "log"
	out, errs, code := showCLI(t, "show", "--json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	byLog := map[string]jsonv.Value{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		v, err := jsonv.ParseString(line)
		if err != nil {
			t.Fatalf("bad NDJSON line %q: %v", line, err)
		}
		byLog[v.Get("log").Str()] = v
	}
	var total, pass, noPort, configDependent, keyOrder int
	for _, ex := range examples {
		rec, name := ex.rec, ex.name
		total++
		tool := rec.Get("tool").Str()
		got, ok := byLog[ex.path]
		if !ok {
			t.Errorf("%s (%s): no NDJSON object for %s", name, tool, ex.path)
			continue
		}
		var diffs []string
		orderOnly := true // every difference is key order alone (jsonv.Equal holds)
		for _, k := range []string{"callView", "resultView"} {
			if !rec.Has(k) {
				continue
			}
			want := rec.Get(k)
			if want.IsNull() {
				if got.Has(k) {
					diffs = append(diffs, k+": want absent, got "+jsonv.Stringify(got.Get(k)))
				}
			} else if g := got.Get(k); g.IsUndefined() || jsonv.Stringify(g) != jsonv.Stringify(want) {
				diffs = append(diffs, k+":\n  want "+jsonv.Stringify(want)+"\n   got "+jsonv.Short(g, 2000))
				orderOnly = orderOnly && jsonv.Equal(g, want)
			}
		}
		switch {
		case len(diffs) == 0:
			pass++
		case reg.Lookup(tool) == nil:
			noPort++
		case rec.Has("config"):
			configDependent++ // the record needs a non-default configuration
		case orderOnly:
			// The port builds the right view with its keys in another order
			// than upstream's object literal: a port bug, reported here but
			// owned (and failed) by the port's own conformance tests.
			keyOrder++
			t.Logf("KEY ORDER %s (%s):\n%s", name, tool, strings.Join(diffs, "\n"))
		default:
			t.Errorf("%s (%s, %s):\n%s", name, tool, rec.Get("source").Str(), strings.Join(diffs, "\n"))
		}
	}
	t.Logf("show --json reproduced %d/%d presenter views byte for byte (%d of tools without a port, %d needing a configuration, %d right but in another key order)",
		pass, total, noPort, configDependent, keyOrder)
}
