package replay

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/goldenfile"
	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

// TestGenerate writes the verify test logs under testdata/verify from
// handcrafted values run through the ports:
//
//	go test ./replay -run TestGenerate -update
//
// Values come from the upstream worked examples in ../shared/conformance
// (the ones that need no special configuration) and, for tools without one,
// from a minimal value synthesised from the tool's output schema. Content
// and meta are what the ports compute, so a clean log verifies by
// construction; the mutated logs each carry exactly one defect.
func TestGenerate(t *testing.T) {
	if !goldenfile.Update() {
		t.Skip("run with -update to regenerate testdata/verify")
	}
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	samples := loadSamples(t)
	root := filepath.Join(sharedtest.Root(t), "testdata", "verify")
	for _, d := range []string{"clean", "mutated"} {
		os.RemoveAll(filepath.Join(root, d))
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var missing []string
	for _, tool := range reg.Tools() {
		if tool.Output == nil {
			continue
		}
		lb := newLog("clean-" + tool.Name)
		n := 0
		for _, s := range append(samples[tool.Name], synthSample(tool)) {
			if n == 3 || (n > 0 && s.synthetic) {
				break
			}
			if lb.success(tool, s.args, s.value, "") {
				n++
			}
		}
		if n == 0 {
			missing = append(missing, tool.Name)
			continue
		}
		lb.write(t, filepath.Join(root, "clean", tool.Name+".jsonl"))
	}
	if len(missing) > 0 {
		t.Logf("no value renders for: %s", strings.Join(missing, ", "))
	}
	for _, m := range mutations {
		lb := newLog("mutated-" + m.name)
		m.build(t, reg, samples, lb)
		lb.write(t, filepath.Join(root, "mutated", m.name+".jsonl"))
	}
}

type sample struct {
	args, value jsonv.Value
	synthetic   bool
}

// loadSamples reads the worked examples with a value, no configuration and
// no nesting, by tool.
func loadSamples(t *testing.T) map[string][]sample {
	out := map[string][]sample{}
	for _, file := range []string{"fs-examples.jsonl", "other-examples.jsonl"} {
		data, err := os.ReadFile(sharedtest.Dir(t, "conformance", file))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<26)
		for sc.Scan() {
			r, err := jsonv.Parse(sc.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			v := r.Get("value")
			if v.IsUndefined() || v.IsNull() || r.Has("config") || r.Get("nested").True() || r.Get("isError").True() || r.Has("resultInput") {
				continue
			}
			tool := r.Get("tool").Str()
			out[tool] = append(out[tool], sample{args: r.Get("args"), value: v})
		}
	}
	return out
}

// synthSample is a minimal valid value (and arguments) built from the
// schemas: required properties only, first oneOf branch, first enum entry.
func synthSample(tool *projector.Tool) sample {
	return sample{args: synth(tool.Parameters, 0), value: synth(tool.Output.Schema, 0), synthetic: true}
}

func synth(s jsonv.Value, depth int) jsonv.Value {
	if c := s.Get("const"); c.IsDefined() {
		return c
	}
	if e := s.Get("enum"); e.IsArray() && e.Len() > 0 {
		return e.At(0)
	}
	if o := s.Get("oneOf"); o.IsArray() && o.Len() > 0 {
		return synth(o.At(0), depth+1)
	}
	switch s.Get("type").Str() {
	case "object":
		out := jsonv.Obj()
		req := map[string]bool{}
		for _, r := range s.Get("required").Elems() {
			req[r.Str()] = true
		}
		for _, m := range s.Get("properties").Members() {
			if req[m.Key] || depth == 0 {
				out = out.With(m.Key, synth(m.Value, depth+1))
			}
		}
		return out
	case "array":
		if depth > 6 || s.Get("items").IsUndefined() {
			return jsonv.Arr()
		}
		return jsonv.Arr(synth(s.Get("items"), depth+1))
	case "string":
		return jsonv.Str("x")
	case "number", "integer":
		return jsonv.Int(1)
	case "boolean":
		return jsonv.BoolValue(false)
	case "null":
		return jsonv.NullValue()
	}
	return jsonv.Obj()
}

// logBuilder writes a small session log: a header, one turn, one step per
// call (assistant/message, tool/call, tool/result), the turn end.
type logBuilder struct {
	id    string
	lines []jsonv.Value
	seq   int
	calls int
	raw   map[int]string // raw lines inserted before line index
	side  []jsonv.Value  // values sidecar entries
}

func newLog(id string) *logBuilder {
	lb := &logBuilder{id: id, raw: map[int]string{}}
	lb.lines = append(lb.lines, jsonv.Obj(
		jsonv.M("type", jsonv.Str("session")), jsonv.M("version", jsonv.Int(0)), jsonv.M("id", jsonv.Str(id)),
		jsonv.M("createdAt", jsonv.Int(0)), jsonv.M("cwd", jsonv.Str("/repo")), jsonv.M("delegationDepth", jsonv.Int(0))))
	lb.event("turn/start", jsonv.Obj(jsonv.M("turn", jsonv.Int(1))))
	return lb
}

func (lb *logBuilder) event(typ string, data jsonv.Value, extra ...jsonv.Member) int {
	ms := []jsonv.Member{jsonv.M("type", jsonv.Str(typ)), jsonv.M("seq", jsonv.Int(lb.seq)), jsonv.M("time", jsonv.Int(0)), jsonv.M("data", data)}
	ms = append(ms, extra...)
	lb.lines = append(lb.lines, jsonv.Obj(ms...))
	lb.seq++
	return lb.seq - 1
}

// success records one successful top-level call computed through the port;
// false when render fails on this value (the sample is skipped).
func (lb *logBuilder) success(tool *projector.Tool, args, value jsonv.Value, callID string) bool {
	content, err := tool.RunRender(args, value)
	if err != nil {
		return false
	}
	meta, declared, err := tool.RunPresentationMeta(args, value)
	if err != nil {
		return false
	}
	if !declared {
		meta = jsonv.Value{}
	}
	lb.call(tool.Name, args, content, meta, value, callID)
	return true
}

// call appends the events of one call; meta/value undefined = absent.
func (lb *logBuilder) call(name string, args, content, meta, value jsonv.Value, callID string) (resultIndex int) {
	lb.calls++
	step := lb.calls
	if callID == "" {
		callID = fmt.Sprintf("call_%s_%d", name, step)
	}
	rawArgs := jsonv.Stringify(args)
	ts := jsonv.Obj(jsonv.M("turn", jsonv.Int(1)), jsonv.M("step", jsonv.Int(step)))
	lb.event("step/start", ts)
	lb.event("assistant/message", jsonv.Obj(jsonv.M("turn", jsonv.Int(1)), jsonv.M("step", jsonv.Int(step)),
		jsonv.M("message", jsonv.Obj(
			jsonv.M("id", jsonv.Str(fmt.Sprintf("msg-%d", step))), jsonv.M("role", jsonv.Str("assistant")),
			jsonv.M("content", jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("tool-call")), jsonv.M("id", jsonv.Str(callID)),
				jsonv.M("name", jsonv.Str(name)), jsonv.M("arguments", jsonv.Str(rawArgs))))),
			jsonv.M("source", jsonv.Obj(jsonv.M("kind", jsonv.Str("model")), jsonv.M("provider", jsonv.Str("test")), jsonv.M("model", jsonv.Str("test"))))))),
		jsonv.M("sourceEventSeqs", jsonv.Arr()), jsonv.M("surfaceOp", jsonv.Str("append")))
	callSeq := lb.event("tool/call", jsonv.Obj(jsonv.M("turn", jsonv.Int(1)), jsonv.M("step", jsonv.Int(step)),
		jsonv.M("callId", jsonv.Str(callID)), jsonv.M("name", jsonv.Str(name)), jsonv.M("arguments", jsonv.Str(rawArgs))))
	data := jsonv.Obj(jsonv.M("turn", jsonv.Int(1)), jsonv.M("step", jsonv.Int(step)),
		jsonv.M("message", jsonv.Obj(
			jsonv.M("source", jsonv.Obj(jsonv.M("kind", jsonv.Str("tool")), jsonv.M("callId", jsonv.Str(callID)))),
			jsonv.M("content", jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("tool-result")), jsonv.M("toolCallId", jsonv.Str(callID)),
				jsonv.M("content", content), jsonv.M("isError", jsonv.BoolValue(false))))),
			jsonv.M("role", jsonv.Str("user")), jsonv.M("id", jsonv.Str(fmt.Sprintf("result-%d", step))))))
	if meta.IsDefined() {
		data = data.With("meta", meta)
	}
	if value.IsDefined() {
		data = data.With("value", value)
	}
	lb.event("tool/result", data, jsonv.M("sourceEventSeqs", jsonv.Arr(jsonv.Int(callSeq))), jsonv.M("surfaceOp", jsonv.Str("append")))
	resultIndex = len(lb.lines) - 1
	lb.event("step/end", ts)
	return resultIndex
}

// edit rewrites the data of line i.
func (lb *logBuilder) edit(i int, f func(data jsonv.Value) jsonv.Value) {
	lb.lines[i] = lb.lines[i].With("data", f(lb.lines[i].Get("data")))
}

// resultContent edits the content array inside a tool/result data.
func resultContent(data jsonv.Value, f func(content jsonv.Value) jsonv.Value) jsonv.Value {
	msg := data.Get("message")
	blk := msg.Get("content").At(0)
	blk = blk.With("content", f(blk.Get("content")))
	return data.With("message", msg.With("content", jsonv.Arr(blk)))
}

// editText applies f to the first text block.
func editText(f func(string) string) func(jsonv.Value) jsonv.Value {
	return func(content jsonv.Value) jsonv.Value {
		els := append([]jsonv.Value(nil), content.Elems()...)
		els[0] = els[0].With("text", jsonv.Str(f(els[0].Get("text").Str())))
		return jsonv.Arr(els...)
	}
}

func (lb *logBuilder) write(t *testing.T, path string) {
	lb.event("turn/end", jsonv.Obj(jsonv.M("turn", jsonv.Int(1)), jsonv.M("reason", jsonv.Obj(jsonv.M("kind", jsonv.Str("completed"))))))
	var b strings.Builder
	for i, l := range lb.lines {
		if r, ok := lb.raw[i]; ok {
			b.WriteString(r)
			b.WriteByte('\n')
		}
		b.WriteString(jsonv.Encode(l))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if len(lb.side) > 0 {
		var sb strings.Builder
		for _, e := range lb.side {
			sb.WriteString(jsonv.Encode(e) + "\n")
		}
		if err := os.WriteFile(strings.TrimSuffix(path, ".jsonl")+".values.jsonl", []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// mutation is one defective log; the expected outcome lives in the cmd
// table test (VerifyCases below keeps the two in one place).
type mutation struct {
	name  string
	build func(t *testing.T, reg *projector.Registry, samples map[string][]sample, lb *logBuilder)
}

// readCall records a clean read call and returns the index of its result.
func readCall(t *testing.T, reg *projector.Registry, samples map[string][]sample, lb *logBuilder) int {
	t.Helper()
	tool := reg.Lookup("read")
	s := samples["read"][0]
	if !lb.success(tool, s.args, s.value, "") {
		t.Fatal("read sample does not render")
	}
	return len(lb.lines) - 2
}

func bashSpillValue() (args, value jsonv.Value) {
	out := "SPILL_START-" + strings.Repeat("x", 2000) + "-SPILL_END"
	return jsonv.MustParse(`{"command":"node -e \"process.stdout.write('SPILL_START-' + 'x'.repeat(2000) + '-SPILL_END')\"","description":"Print large deterministic output"}`),
		jsonv.Obj(jsonv.M("kind", jsonv.Str("foreground")), jsonv.M("exitCode", jsonv.Int(0)), jsonv.M("signal", jsonv.NullValue()),
			jsonv.M("timedOut", jsonv.BoolValue(false)), jsonv.M("aborted", jsonv.BoolValue(false)), jsonv.M("timeoutMs", jsonv.Int(120000)),
			jsonv.M("stdout", jsonv.Obj(jsonv.M("text", jsonv.Str(out)), jsonv.M("truncated", jsonv.BoolValue(false)))),
			jsonv.M("stderr", jsonv.Obj(jsonv.M("text", jsonv.Str("")), jsonv.M("truncated", jsonv.BoolValue(false)))))
}

const spillLocator = "/tmp/dsh-spill-Ab12Cd/session-5e53dc8acfe4/2ce9d7a31a38-bash.txt"

var mutations = []mutation{
	{"content-byte", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		i := readCall(t, reg, s, lb)
		lb.edit(i, func(d jsonv.Value) jsonv.Value {
			return resultContent(d, editText(func(x string) string { return strings.Replace(x, "hello", "hellO", 1) }))
		})
	}},
	{"crlf-only", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		i := readCall(t, reg, s, lb)
		lb.edit(i, func(d jsonv.Value) jsonv.Value {
			return resultContent(d, editText(func(x string) string { return strings.ReplaceAll(x, "\n", "\r\n") }))
		})
	}},
	{"trailing-newline", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		i := readCall(t, reg, s, lb)
		lb.edit(i, func(d jsonv.Value) jsonv.Value {
			return resultContent(d, editText(func(x string) string { return x + "\n" }))
		})
	}},
	{"whitespace-only", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		i := readCall(t, reg, s, lb)
		lb.edit(i, func(d jsonv.Value) jsonv.Value {
			return resultContent(d, editText(func(x string) string { return strings.Replace(x, "1: hello", "1:  hello", 1) }))
		})
	}},
	{"meta-key-removed", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		i := readCall(t, reg, s, lb)
		lb.edit(i, func(d jsonv.Value) jsonv.Value {
			return d.With("meta", d.Get("meta").With("totalLines", jsonv.Value{}))
		})
	}},
	{"meta-key-added", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		i := readCall(t, reg, s, lb)
		lb.edit(i, func(d jsonv.Value) jsonv.Value { return d.With("meta", d.Get("meta").With("lang", jsonv.Str("text"))) })
	}},
	{"meta-absent", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		i := readCall(t, reg, s, lb)
		lb.edit(i, func(d jsonv.Value) jsonv.Value { return d.With("meta", jsonv.Value{}) })
	}},
	{"meta-null", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		i := readCall(t, reg, s, lb)
		lb.edit(i, func(d jsonv.Value) jsonv.Value { return d.With("meta", jsonv.NullValue()) })
	}},
	{"schema-invalid", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		i := readCall(t, reg, s, lb)
		lb.edit(i, func(d jsonv.Value) jsonv.Value { return d.With("value", d.Get("value").With("offset", jsonv.Str("1"))) })
	}},
	{"content-replaced", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		i := readCall(t, reg, s, lb)
		lb.edit(i, func(d jsonv.Value) jsonv.Value {
			d = resultContent(d, func(jsonv.Value) jsonv.Value { return projector.TextContent("[redacted by a post-execute hook]") })
			return d.With("contentReplaced", jsonv.BoolValue(true))
		})
	}},
	{"spill-preview", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		tool := reg.Lookup("bash")
		args, value := bashSpillValue()
		content, err := tool.RunRender(args, value)
		if err != nil {
			t.Fatal(err)
		}
		text, _ := textOf(content)
		spilled, ok := SpillReplacement(text, 800, spillLocator)
		if !ok {
			t.Fatal("bash output does not spill")
		}
		lb.call("bash", args, projector.TextContent(spilled), jsonv.Value{}, value, "")
	}},
	{"spill-preview-tampered", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		tool := reg.Lookup("bash")
		args, value := bashSpillValue()
		content, _ := tool.RunRender(args, value)
		text, _ := textOf(content)
		spilled, _ := SpillReplacement(text, 800, spillLocator)
		spilled = strings.Replace(spilled, "(Omitted ", "(Omitted 1", 1)
		lb.call("bash", args, projector.TextContent(spilled), jsonv.Value{}, value, "")
	}},
	{"unknown-tool", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		lb.call("frobnicate", jsonv.MustParse(`{"level":11}`), projector.TextContent("frobnicated"), jsonv.Value{}, jsonv.MustParse(`{"ok":true}`), "")
	}},
	{"subcall-meta", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		runCode := reg.Lookup("run_code")
		read := reg.Lookup("read")
		rs := s["read"][0]
		subContent, err := read.RunRender(rs.args, rs.value)
		if err != nil {
			t.Fatal(err)
		}
		subMeta, _, _ := read.RunPresentationMeta(rs.args, rs.value)
		rootArgs := jsonv.MustParse(`{"description":"read a file","code":"const r = await tools.read({file_path: 'a.txt'}); return r.totalLines"}`)
		rootValue := jsonv.MustParse(`{"logs":[],"result":2}`)
		rootContent, err := runCode.RunRender(rootArgs, rootValue)
		if err != nil {
			t.Fatal(err)
		}
		root := "call_run_code_1"
		sub := root + ":code:1"
		ids := []jsonv.Member{jsonv.M("rootCallId", jsonv.Str(root)), jsonv.M("parentCallId", jsonv.Str(root)),
			jsonv.M("subCallId", jsonv.Str(sub)), jsonv.M("name", jsonv.Str("read")), jsonv.M("arguments", rs.args)}
		// The sub-call events sit between the root's tool/call and tool/result.
		ri := lb.call("run_code", rootArgs, rootContent, jsonv.Value{}, rootValue, root)
		result, stepEnd := lb.lines[ri], lb.lines[ri+1]
		lb.lines = lb.lines[:ri]
		lb.seq = int(result.Get("seq").Num())
		lb.event("tool/code-dispatch-start", jsonv.Obj(ids...))
		lb.event("tool/code-dispatch", jsonv.Obj(append(ids, jsonv.M("isError", jsonv.BoolValue(false)),
			jsonv.M("content", subContent), jsonv.M("meta", subMeta), jsonv.M("value", rs.value))...))
		lb.lines = append(lb.lines, result.With("seq", jsonv.Int(lb.seq)), stepEnd.With("seq", jsonv.Int(lb.seq+1)))
		lb.seq += 2
	}},
	{"sidecar", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		i := readCall(t, reg, s, lb)
		d := lb.lines[i].Get("data")
		id := d.Path("message", "source", "callId")
		lb.side = append(lb.side, jsonv.Obj(jsonv.M("callId", id), jsonv.M("value", d.Get("value"))))
		lb.edit(i, func(d jsonv.Value) jsonv.Value { return d.With("value", jsonv.Value{}) })
	}},
	{"sidecar-mismatch", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		i := readCall(t, reg, s, lb)
		d := lb.lines[i].Get("data")
		id := d.Path("message", "source", "callId")
		v := d.Get("value")
		v = v.With("totalLines", jsonv.Int(int(v.Get("totalLines").Num())+1))
		lb.side = append(lb.side, jsonv.Obj(jsonv.M("callId", id), jsonv.M("value", v)),
			jsonv.Obj(jsonv.M("callId", jsonv.Str("call_nobody")), jsonv.M("value", jsonv.NullValue())))
		lb.edit(i, func(d jsonv.Value) jsonv.Value { return d.With("value", jsonv.Value{}) })
	}},
	{"unknown-event", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		readCall(t, reg, s, lb)
		lb.event("frobnicate/start", jsonv.Obj(jsonv.M("turn", jsonv.Int(1))))
	}},
	{"corrupt-line", func(t *testing.T, reg *projector.Registry, s map[string][]sample, lb *logBuilder) {
		readCall(t, reg, s, lb)
		lb.raw[3] = `{"type":"step/start","seq":1,"time":0,"data":{"turn":1,"st`
	}},
}

// TestGeneratedLogsPresent guards against a forgotten regeneration: every
// mutation has its log.
func TestGeneratedLogsPresent(t *testing.T) {
	root := filepath.Join(sharedtest.Root(t), "testdata", "verify")
	for _, m := range mutations {
		if _, err := os.Stat(filepath.Join(root, "mutated", m.name+".jsonl")); err != nil {
			t.Errorf("missing %s (run go test ./replay -run TestGenerate -update)", m.name)
		}
	}
}
