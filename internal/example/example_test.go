package example

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd"
	"github.com/dsh-replay/dsh-replay/internal/goldenfile"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

const logPath = "../../testdata/example/session.jsonl"

type step struct {
	tool, args, value string
	isError           bool
	errorText         string // content of a failed call (no value)
	errorInfo         string // {name, code}
}

var steps = []step{
	{tool: "read", args: `{"file_path":"src/config.ts"}`,
		value: `{"path":"/repo/src/config.ts","offset":1,"lines":[{"number":1,"text":"export const config = {"},{"number":2,"text":"  retryLimit: 3,"},{"number":3,"text":"  timeoutMs: 5000,"},{"number":4,"text":"};"}],"totalLines":4}`},
	{tool: "grep", args: `{"pattern":"retryLimit"}`,
		value: `{"matches":[{"path":"src/config.ts","lineNumber":2,"line":"  retryLimit: 3,"},{"path":"src/client.ts","lineNumber":14,"line":"    if (attempt > config.retryLimit) throw err;"},{"path":"test/client.test.ts","lineNumber":8,"line":"  expect(config.retryLimit).toBe(3);"}]}`},
	{tool: "edit", args: `{"file_path":"src/config.ts","old_string":"  retryLimit: 3,","new_string":"  retryLimit: 5,"}`,
		value: `{"path":"/repo/src/config.ts","before":"export const config = {\n  retryLimit: 3,\n  timeoutMs: 5000,\n};\n","after":"export const config = {\n  retryLimit: 5,\n  timeoutMs: 5000,\n};\n"}`},
	{tool: "bash", args: `{"command":"npm test -- client","description":"Run the client tests"}`,
		value: `{"kind":"foreground","exitCode":1,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":120000,"stdout":{"text":"FAIL test/client.test.ts\n  ✕ retries up to the limit (4 ms)\n\n  expect(received).toBe(expected)\n  Expected: 3\n  Received: 5\n","truncated":false},"stderr":{"text":"","truncated":false}}`},
	{tool: "edit", args: `{"file_path":"test/client.test.ts","old_string":"toBe(3)","new_string":"toBe(5)"}`,
		value: `{"path":"/repo/test/client.test.ts","before":"import { config } from '../src/config';\n\ntest('retries up to the limit', () => {\n  expect(config.retryLimit).toBe(3);\n});\n","after":"import { config } from '../src/config';\n\ntest('retries up to the limit', () => {\n  expect(config.retryLimit).toBe(5);\n});\n"}`},
	{tool: "bash", args: `{"command":"npm test -- client","description":"Run the client tests again"}`,
		value: `{"kind":"foreground","exitCode":0,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":120000,"stdout":{"text":"PASS test/client.test.ts\n  ✓ retries up to the limit (3 ms)\n","truncated":false},"stderr":{"text":"","truncated":false}}`},
	{tool: "read", args: `{"file_path":"CHANGELOG.md"}`, isError: true,
		errorText: `Error: file not found: /repo/CHANGELOG.md`, errorInfo: `{"name":"FsError","code":"FS_NOT_FOUND"}`},
}

// build writes the log through the ports: content and meta come from
// render and presentationMeta of each value.
func build(t *testing.T) []byte {
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":0,"id":"0b6c7d0e-5f1a-4c39-9e0b-3f7a2d1c9e42","createdAt":1767225600000,"cwd":"/repo","delegationDepth":0}` + "\n")
	seq := 0
	time := int64(1767225600000) // ms: past 32 bits
	ev := func(typ string, data jsonv.Value, extra ...jsonv.Member) {
		ms := []jsonv.Member{jsonv.M("type", jsonv.Str(typ)), jsonv.M("seq", jsonv.Int(seq)), jsonv.M("time", jsonv.Num(float64(time))), jsonv.M("data", data)}
		ms = append(ms, extra...)
		b.WriteString(jsonv.Stringify(jsonv.Obj(ms...)) + "\n")
		seq++
		time += 250
	}
	turnStep := func(step int, rest ...jsonv.Member) jsonv.Value {
		return jsonv.Obj(append([]jsonv.Member{jsonv.M("turn", jsonv.Int(1)), jsonv.M("step", jsonv.Int(step))}, rest...)...)
	}
	ev("turn/start", jsonv.Obj(jsonv.M("turn", jsonv.Int(1))))
	ev("user/message", jsonv.Obj(jsonv.M("id", jsonv.Str("msg-user-1")), jsonv.M("role", jsonv.Str("user")),
		jsonv.M("content", jsonv.Arr(projector.Text("Raise the client retry limit to 5 and keep the tests green."))),
		jsonv.M("source", jsonv.Obj(jsonv.M("kind", jsonv.Str("user"))))), jsonv.M("surfaceOp", jsonv.Str("append")))
	for i, s := range steps {
		n := i + 1
		id := "call_" + strconv.Itoa(n) + "_" + s.tool
		ev("step/start", turnStep(n))
		ev("assistant/message", turnStep(n, jsonv.M("message", jsonv.Obj(
			jsonv.M("id", jsonv.Str("msg-assistant-"+strconv.Itoa(n))), jsonv.M("role", jsonv.Str("assistant")),
			jsonv.M("content", jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("tool-call")), jsonv.M("id", jsonv.Str(id)),
				jsonv.M("name", jsonv.Str(s.tool)), jsonv.M("arguments", jsonv.Str(s.args))))),
			jsonv.M("source", jsonv.Obj(jsonv.M("kind", jsonv.Str("model")), jsonv.M("provider", jsonv.Str("deepseek")), jsonv.M("model", jsonv.Str("deepseek-chat"))))))),
			jsonv.M("sourceEventSeqs", jsonv.Arr()), jsonv.M("surfaceOp", jsonv.Str("append")))
		callSeq := seq
		ev("tool/call", turnStep(n, jsonv.M("callId", jsonv.Str(id)), jsonv.M("name", jsonv.Str(s.tool)), jsonv.M("arguments", jsonv.Str(s.args))))
		tool := reg.Lookup(s.tool)
		if tool == nil {
			t.Fatalf("no port for %s", s.tool)
		}
		args := jsonv.MustParse(s.args)
		var content, meta, value jsonv.Value
		if s.isError {
			content = projector.TextContent(s.errorText)
		} else {
			value = jsonv.MustParse(s.value)
			if v := tool.ValidateValue(value); len(v) > 0 {
				t.Fatalf("%s: value fails its schema: %v", id, v)
			}
			if content, err = tool.RunRender(args, value); err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			if m, ok, err := tool.RunPresentationMeta(args, value); err != nil {
				t.Fatalf("%s: %v", id, err)
			} else if ok {
				meta = m
			}
		}
		data := []jsonv.Member{jsonv.M("turn", jsonv.Int(1)), jsonv.M("step", jsonv.Int(n)),
			jsonv.M("message", jsonv.Obj(
				jsonv.M("source", jsonv.Obj(jsonv.M("kind", jsonv.Str("tool")), jsonv.M("callId", jsonv.Str(id)))),
				jsonv.M("content", jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("tool-result")), jsonv.M("toolCallId", jsonv.Str(id)),
					jsonv.M("content", content), jsonv.M("isError", jsonv.BoolValue(s.isError))))),
				jsonv.M("role", jsonv.Str("user")), jsonv.M("id", jsonv.Str("msg-result-"+strconv.Itoa(n)))))}
		if s.errorInfo != "" {
			data = append(data, jsonv.M("error", jsonv.MustParse(s.errorInfo)))
		}
		if meta.IsDefined() {
			data = append(data, jsonv.M("meta", meta))
		}
		if value.IsDefined() {
			data = append(data, jsonv.M("value", value))
		}
		ev("tool/result", jsonv.Obj(data...), jsonv.M("sourceEventSeqs", jsonv.Arr(jsonv.Int(callSeq))), jsonv.M("surfaceOp", jsonv.Str("append")))
		ev("step/end", turnStep(n))
	}
	ev("turn/end", jsonv.Obj(jsonv.M("turn", jsonv.Int(1)), jsonv.M("reason", jsonv.Obj(jsonv.M("kind", jsonv.Str("completed"))))))
	return b.Bytes()
}

func TestExampleLogIsCurrent(t *testing.T) {
	want := build(t)
	if goldenfile.Update() {
		if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(logPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatalf("%v (regenerate: go test ./internal/example -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("testdata/example/session.jsonl is stale; regenerate: go test ./internal/example -update")
	}
}

// The README promises that verify passes on the example and show draws it.
func TestExampleVerifiesAndShows(t *testing.T) {
	var out, errb bytes.Buffer
	if code := cmd.Run([]string{"verify", "--deterministic", logPath}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("verify exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "7 calls") {
		t.Errorf("verify output does not count 7 calls:\n%s", out.String())
	}
	out.Reset()
	errb.Reset()
	if code := cmd.Run([]string{"show", "--no-pager", "--color", "never", "--width", "100", logPath}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("show exit %d\n%s", code, errb.String())
	}
	for _, want := range []string{"Read src/config.ts", "npm test -- client", "retryLimit"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("show output lacks %q", want)
		}
	}
}
