package logformat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
)

// The small logs of formats 1-4 (testdata/logformat/formats) hold the same
// session: run_code with two sub-calls (one failing), a bash call, and a
// pruned copy of the first result in a later turn.
func TestFormatsSmallLogs(t *testing.T) {
	for _, c := range []struct {
		file    string
		format  int
		release string
		subIDs  string
		ignored int
	}{
		{"v1.jsonl", 1, "", "call_rc:code:1,call_rc:code:2", 0},
		{"v2.jsonl", 2, "0.1.3", "call_rc:code:1,call_rc:code:2", 0},
		{"v3.jsonl", 3, "0.1.5", "call_rc:ptc:1,call_rc:ptc:2", 0},
		{"v4.jsonl", 4, "0.1.7", "call_rc:ptc:1,call_rc:ptc:2", 1},
		{"sidecar/session.v3.jsonl", 3, "0.1.5", "call_rc:ptc:1,call_rc:ptc:2", 0},
	} {
		t.Run(c.file, func(t *testing.T) {
			calls, sum := mustRead(t, filepath.Join("formats", c.file))
			if len(calls) != 2 || sum.Calls != 2 || sum.SubCalls != 2 || sum.Results != 2 {
				t.Fatalf("calls %d, summary %+v", len(calls), sum)
			}
			if sum.UnknownEvents != 0 || sum.IgnoredEvents != c.ignored || sum.Host != "dsh" {
				t.Errorf("unknown %d, ignored %d, host %q", sum.UnknownEvents, sum.IgnoredEvents, sum.Host)
			}
			if sum.Header == nil || sum.Header.Version != c.format {
				t.Errorf("header %+v", sum.Header)
			}
			rc, b := calls[0], calls[1]
			var ids []string
			for _, s := range rc.SubCalls {
				ids = append(ids, s.CallID)
				if s.Format != c.format || s.Release != c.release || s.Host != "dsh" {
					t.Errorf("sub-call %s: format %d release %q host %q", s.CallID, s.Format, s.Release, s.Host)
				}
			}
			if got := strings.Join(ids, ","); got != c.subIDs {
				t.Errorf("sub-calls %s, want %s", got, c.subIDs)
			}
			if !rc.SubCalls[1].IsError || rc.SubCalls[0].IsError {
				t.Errorf("sub-call isError %v %v", rc.SubCalls[0].IsError, rc.SubCalls[1].IsError)
			}
			for _, call := range calls {
				if call.Format != c.format || call.Release != c.release || call.Host != "dsh" {
					t.Errorf("%s: format %d release %q host %q", call.CallID, call.Format, call.Release, call.Host)
				}
			}
			if rc.CallID != "call_rc" || len(rc.Views) != 1 || rc.Views[0].Content.At(0).Get("text").Str() != "[pruned]" {
				t.Errorf("run_code %s: views %+v", rc.CallID, rc.Views)
			}
			if rc.Content.At(0).Get("text").Str() != "1\n" || rc.IsError {
				t.Errorf("run_code content %s", rc.Content)
			}
			if b.CallID != "call_b" || b.Content.At(0).Get("text").Str() != "(no output)" {
				t.Errorf("bash %s content %s", b.CallID, b.Content)
			}
			side := strings.HasPrefix(c.file, "sidecar/")
			if got := rc.SubCalls[0].Value.IsDefined(); got != side {
				t.Errorf("sub-call value from the sidecar: %v", got)
			}
		})
	}
}

// Options.Release pins every call's release (--config {"release": ...}).
func TestFormatsReleasePinned(t *testing.T) {
	for _, file := range []string{"formats/v4.jsonl", "code-mode.jsonl"} {
		calls, _, err := readAll(t, td(file), Options{Release: "0.1.5"})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range calls {
			if c.Release != "0.1.5" || len(c.SubCalls) > 0 && c.SubCalls[0].Release != "0.1.5" {
				t.Errorf("%s %s: release %q", file, c.CallID, c.Release)
			}
		}
	}
	if FormatRelease(0) != "" || FormatRelease(1) != "" || FormatRelease(2) != "0.1.3" || FormatRelease(3) != "0.1.5" || FormatRelease(4) != "0.1.7" {
		t.Error("FormatRelease")
	}
}

// formatLog is a log of format v with body lines after its header.
func formatLog(t *testing.T, v string, body ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "session.jsonl")
	text := `{"type":"session","version":` + v + `,"id":"x","createdAt":0,"isSeeded":false,"delegationDepth":0}` + "\n" + strings.Join(body, "\n") + "\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	evCall    = `{"type":"tool/call","seq":1,"time":1,"data":{"turn":1,"step":1,"callId":"c1","name":"bash","arguments":"{}"}}`
	evTurn    = `{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}`
	evTurnEnd = `{"type":"turn/end","seq":3,"time":3,"data":{"turn":1,"reason":{"kind":"completed"}}}`
)

// streamMsg is a format 2+ assistant/message (seq 1) with stream records.
func streamMsg(records string) string {
	return `{"type":"assistant/message","seq":1,"time":1,"data":{"turn":1,"step":1,"message":{"id":"a","role":"assistant","content":[{"type":"text","text":"x"}],"source":{"kind":"model"}},"stream":[` + records + `]},"surfaceOp":"append"}`
}

func evResult(msg string) string {
	return `{"type":"tool/result","seq":2,"time":2,"data":{"turn":1,"step":1,"message":` + msg + `},"sourceEventSeqs":[1],"surfaceOp":"append"}`
}

// What each format requires of a structure: a fatal error names the
// line; a type another format retired or has not yet added is an unknown
// event.
func TestFormatsStructure(t *testing.T) {
	wrapper := `{"id":"r","role":"user","source":{"kind":"tool","callId":"c1"},"content":[{"type":"tool-result","toolCallId":"c1","content":[{"type":"text","text":"x"}],"isError":false}]}`
	toolRole := `{"role":"tool","source":{"kind":"tool","callId":"c1"},"toolCallId":"c1","content":[{"type":"text","text":"x"}],"isError":true,"id":"r"}`
	for _, c := range []struct {
		name, version string
		body          []string
		err           string // fatal error (with ":line:")
		unknown       int
		isError       bool
	}{
		{"v4 tool-role result", "4", []string{evTurn, evCall, evResult(toolRole), evTurnEnd}, "", 0, true},
		{"v4 without isError", "4", []string{evTurn, evCall, evResult(strings.Replace(toolRole, `"isError":true,`, "", 1)), evTurnEnd}, "", 0, false},
		{"v4 with a v3 wrapper", "4", []string{evTurn, evCall, evResult(wrapper), evTurnEnd}, `:4: corrupt session log: format 4 tool/result message must have role "tool"`, 0, false},
		{"v3 with a v4 message", "3", []string{evTurn, evCall, evResult(toolRole), evTurnEnd}, ":4: corrupt session log: tool/result message must contain one tool-result block", 0, false},
		{"v4 mismatched ids", "4", []string{evTurn, evCall, evResult(strings.Replace(toolRole, `"toolCallId":"c1"`, `"toolCallId":"c2"`, 1)), evTurnEnd}, ":4: corrupt session log: tool/result message has mismatched tool call ids", 0, false},
		{"v4 isError a string", "4", []string{evTurn, evCall, evResult(strings.Replace(toolRole, `"isError":true`, `"isError":"yes"`, 1)), evTurnEnd}, ":4: corrupt session log: tool/result isError must be a boolean", 0, false},
		{"v4 content not an array", "4", []string{evTurn, evCall, evResult(strings.Replace(toolRole, `"content":[{"type":"text","text":"x"}]`, `"content":"x"`, 1)), evTurnEnd}, ":4: corrupt session log: tool/result message content must be an array", 0, false},
		{"v4 source not a tool", "4", []string{evTurn, evCall, evResult(strings.Replace(toolRole, `"kind":"tool"`, `"kind":"user"`, 1)), evTurnEnd}, ":4: corrupt session log: tool/result message must have tool source", 0, false},
		{"v2 assistant/chunk", "2", []string{evTurn, `{"type":"assistant/chunk","seq":1,"time":1,"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"delta":"x"}}}`}, "", 1, false},
		{"v2 packed row", "2", []string{evTurn, `{"type":"text-chunks","seq0":1,"time0":1,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["x"]}}`}, "", 1, false},
		{"v3 code-dispatch", "3", []string{evTurn, `{"type":"tool/code-dispatch-start","seq":1,"time":1,"data":{"rootCallId":"c","parentCallId":"c","subCallId":"c:code:1","name":"read","arguments":{}}}`}, "", 1, false},
		{"v2 system/message", "2", []string{evTurn, `{"type":"system/message","seq":1,"time":1,"data":{"turn":1,"step":1,"message":{"id":"s","role":"system","source":{"kind":"system-prompt"},"content":[]}},"surfaceOp":"append"}`}, "", 1, false},
		{"v3 developer/message", "3", []string{evTurn, `{"type":"developer/message","seq":1,"time":1,"data":{"turn":1,"step":1,"message":{"id":"d","role":"developer","source":{"kind":"tool-registry"},"content":[]}},"surfaceOp":"append"}`}, "", 1, false},
		{"v0 ptc-dispatch", "0", []string{evTurn, `{"type":"tool/ptc-dispatch-start","seq":1,"time":1,"data":{"rootCallId":"c","parentCallId":"c","subCallId":"c:ptc:1","name":"read","arguments":{}}}`}, "", 1, false},
		{"v1 steering/message", "1", []string{evTurn, `{"type":"steering/message","seq":1,"time":1,"data":{"content":[]}}`}, "", 1, false},
		{"v4 plugin event ignorable", "4", []string{evTurn, `{"type":"plugin:x/y","seq":1,"time":1,"data":{},"ignorable":true}`}, "", 0, false},
		{"v4 plugin event required", "4", []string{evTurn, `{"type":"plugin:x/y","seq":1,"time":1,"data":{}}`}, "", 1, false},
		{"v4 error without isError", "4", []string{evTurn, evCall, strings.Replace(evResult(strings.Replace(toolRole, `"isError":true,`, "", 1)), `}},"sourceEventSeqs"`, `},"error":{"name":"E","code":"X"}},"sourceEventSeqs"`, 1), evTurnEnd}, ":4: corrupt session log: tool/result carries an error but isError is not true", 0, false},
		{"v3 error without isError", "3", []string{evTurn, evCall, strings.Replace(evResult(wrapper), `}},"sourceEventSeqs"`, `},"error":{"name":"E","code":"X"}},"sourceEventSeqs"`, 1), evTurnEnd}, ":4: corrupt session log: tool/result carries an error but isError is not true", 0, false},
		{"v2 error without isError", "2", []string{evTurn, evCall, strings.Replace(evResult(wrapper), `}},"sourceEventSeqs"`, `},"error":{"name":"E","code":"X"}},"sourceEventSeqs"`, 1), evTurnEnd}, "", 0, false},
		{"v3 surface event without surfaceOp", "3", []string{evTurn, evCall, strings.Replace(evResult(wrapper), `,"surfaceOp":"append"`, "", 1), evTurnEnd}, ":4: corrupt session log: format 3 tool/result without surfaceOp", 0, false},
		{"v2 surface event without surfaceOp", "2", []string{evTurn, evCall, strings.Replace(evResult(wrapper), `,"surfaceOp":"append"`, "", 1), evTurnEnd}, "", 0, false},
		{"v2 stream dt length", "2", []string{evTurn, streamMsg(`{"type":"text-chunks","time0":1,"index":0,"dt":[1,1],"texts":["a","b"]}`), evTurnEnd}, ":3: corrupt session log: malformed assistant/message stream: record 0: text-chunks record dt length 2 does not match 2 members", 0, false},
		{"v3 stream empty texts", "3", []string{evTurn, streamMsg(`{"type":"chunk","time":1,"chunk":{}},{"type":"reasoning-chunks","time0":1,"index":0,"dt":[],"texts":[]}`), evTurnEnd}, ":3: corrupt session log: malformed assistant/message stream: record 1: reasoning-chunks record texts must be a non-empty string array", 0, false},
		{"v4 stream tool-call id", "4", []string{evTurn, streamMsg(`{"type":"tool-call-chunks","time0":1,"index":0,"id":7,"dt":[],"args":["{}"]}`), evTurnEnd}, ":3: corrupt session log: malformed assistant/message stream: record 0: tool-call-chunks record id must be a string", 0, false},
		{"v2 stream chunk time", "2", []string{evTurn, streamMsg(`{"type":"chunk","time":1.5,"chunk":{}}`), evTurnEnd}, ":3: corrupt session log: malformed assistant/message stream: record 0: chunk record time must be a safe integer", 0, false},
		{"v2 stream sound", "2", []string{evTurn, streamMsg(`{"type":"chunk","time":1,"chunk":{"type":"finish"}},{"type":"tool-call-chunks","time0":1,"index":0,"id":"c","name":"n","dt":[0],"args":["{","}"]},{"type":"later-kind","x":1}`), evTurnEnd}, "", 0, false},
		{"v5", "5", []string{evTurn}, ":1: session log format version 5 is not supported: it was written by a newer harness (this build reads versions 0 to 4)", 0, false},
		{"v-1", "-1", []string{evTurn}, ":1: session log format version -1 is not supported: it was written by a different harness", 0, false},
		{"v1e3", "1e3", []string{evTurn}, ":1: session log format version 1e3 is not supported: it was written by a newer harness", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := formatLog(t, c.version, c.body...)
			calls, sum, err := readAll(t, p, Options{})
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), p) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sum.UnknownEvents != c.unknown {
				t.Errorf("unknown events %d, want %d (%s)", sum.UnknownEvents, c.unknown, noticeKinds(sum))
			}
			if len(calls) > 0 && calls[0].IsError != c.isError {
				t.Errorf("isError %v", calls[0].IsError)
			}
		})
	}
}

// A malformed stream after the last turn/end is a torn tail, as a
// malformed packed row is in format 0.
func TestFormatsStreamTornTail(t *testing.T) {
	bad := strings.Replace(streamMsg(`{"type":"text-chunks","time0":1,"index":0,"dt":[],"texts":["a","b"]}`), `"seq":1`, `"seq":2`, 1)
	end := strings.Replace(evTurnEnd, `"seq":3`, `"seq":1`, 1)
	_, sum, err := readAll(t, formatLog(t, "2", evTurn, end, bad), Options{})
	if err != nil || sum.TornTails != 1 || !strings.Contains(sum.Notices[0].Msg, "malformed assistant/message stream") {
		t.Errorf("%v %+v", err, sum.Notices)
	}
}

// Format 2's seeding (header isSeeded, session/end-seed {inherited: true})
// must agree, and a failed attempt's streamed tool calls that nothing
// records are reported as v0's streamed chunks were.
func TestFormatsSeedAndAttempts(t *testing.T) {
	endSeed := `{"type":"session/end-seed","seq":1,"time":1,"data":{"inherited":true}}`
	attempt := `{"type":"assistant/attempt","seq":1,"time":1,"data":{"turn":1,"step":1,"stream":[{"type":"tool-call-chunks","time0":1,"index":0,"id":"lost","name":"bash","dt":[],"args":["{}"]},{"type":"chunk","time":2,"chunk":{"type":"block-end","index":1,"block":{"type":"tool-call","id":"lost2","name":"read","arguments":"{}"}}}]}}`
	for _, c := range []struct {
		name, seeded string
		body         []string
		notices      string
	}{
		{"unseeded", "false", []string{evTurn}, ""},
		{"seeded with its marker", "true", []string{evTurn, endSeed}, ""},
		{"seeded without a marker", "true", []string{evTurn}, "seed-mismatch"},
		{"a marker in an unseeded log", "false", []string{evTurn, endSeed}, "seed-mismatch"},
		{"a failed attempt's tool calls", "false", []string{evTurn, attempt}, "calls-without-records"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := formatLog(t, "2", c.body...)
			b, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(string(b), `"isSeeded":false`, `"isSeeded":`+c.seeded, 1)), 0o644)
			_, sum, err := readAll(t, p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := noticeKinds(sum); got != c.notices {
				t.Errorf("notices %q, want %q", got, c.notices)
			}
			if c.notices == "calls-without-records" && !strings.Contains(sum.Notices[0].Msg, `2 tool calls (first "lost")`) {
				t.Errorf("notice %s", sum.Notices[0].Msg)
			}
		})
	}
}

// From format 3 the system prompt is a system/message: the host is read
// from it (an empty head names none and keeps what was known).
func TestFormatsHostFromSystemMessage(t *testing.T) {
	sys := func(seq, text string) string {
		content := `[]`
		if text != "" {
			content = `[{"type":"text","text":"` + text + `"}]`
		}
		return `{"type":"system/message","seq":` + seq + `,"time":0,"data":{"turn":1,"step":1,"message":{"id":"s` + seq + `","role":"system","source":{"kind":"system-prompt"},"content":` + content + `}},"surfaceOp":"append"}`
	}
	call := func(seq, id string) string {
		return `{"type":"tool/call","seq":` + seq + `,"time":0,"data":{"turn":1,"step":1,"callId":"` + id + `","name":"bash","arguments":"{}"}}`
	}
	p := formatLog(t, "3", evTurn,
		sys("1", `You are an AI agent powered by LasmeX.\n\nx`), call("2", "a"),
		sys("3", ""), call("4", "b"),
		sys("5", `You are an AI agent powered by DeepSeek Harness.`), call("6", "c"))
	calls, sum, err := readAll(t, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range calls {
		got = append(got, c.Host)
	}
	if strings.Join(got, ",") != "lasmex,lasmex,dsh" || sum.Host != "lasmex" {
		t.Errorf("hosts %v, summary %q", got, sum.Host)
	}
}

// Every migrated twin (../shared/fixtures/formats/migrated) pairs the same
// calls, sub-calls and sidecar values as its v0 original in
// testdata/recorded, with the same content.
func TestFormatsMigratedTwinsPairLikeV0(t *testing.T) {
	root := sharedtest.Dir(t, "fixtures", "formats", "migrated")
	originals, _ := filepath.Glob("../testdata/recorded/*/*/session.jsonl")
	if len(originals) == 0 {
		t.Fatal("no recorded sessions")
	}
	twins := 0
	for _, orig := range originals {
		rel, _ := filepath.Rel("../testdata/recorded", filepath.Dir(orig))
		if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
			t.Logf("%s: not migrated yet (no twins in the reference data)", rel)
			continue
		}
		want := flatCalls(t, orig)
		for _, v := range []string{"2", "3", "4"} {
			twin := filepath.Join(root, rel, "session.v"+v+".jsonl")
			if _, err := os.Stat(twin); err != nil {
				t.Errorf("%s: no twin of format %s", rel, v)
				continue
			}
			twins++
			got := flatCalls(t, twin)
			if len(got) != len(want) {
				t.Errorf("%s v%s: %d calls, v0 %d", rel, v, len(got), len(want))
				continue
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s v%s: call %d\n got %s\nwant %s", rel, v, i, got[i], want[i])
					break
				}
			}
		}
	}
	if twins < 100 {
		t.Errorf("only %d twins", twins)
	}
}

// flatCalls lists a log's calls and sub-calls as what must not depend on
// the format: ids, names, arguments, content, flags, value.
func flatCalls(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	add := func(c *Call) {
		c.File, c.Line, c.CallLine, c.Seq, c.Format, c.Release = "", 0, 0, 0, 0, ""
		for i := range c.Views {
			c.Views[i].Line, c.Views[i].Seq = 0, 0
		}
		out = append(out, string(AppendCallJSON(nil, c, CallJSONOptions{Meta: true, Content: true, Value: true})))
	}
	_, err := ReadCalls(path, Options{}, func(c *Call) error {
		subs := c.SubCalls
		c.SubCalls = nil
		add(c)
		for _, s := range subs {
			add(s)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every format reads from chained zstd frames (the header alone in the
// first, as upstream writes them) with the calls of the plain file, and a
// torn last line or frame is a torn tail, as in format 0.
func TestFormatsZstdAndTorn(t *testing.T) {
	for _, v := range []string{"v2.jsonl", "v3.jsonl", "v4.jsonl"} {
		t.Run(v, func(t *testing.T) {
			data, err := os.ReadFile(td(filepath.Join("formats", v)))
			if err != nil {
				t.Fatal(err)
			}
			plain := flatCalls(t, td(filepath.Join("formats", v)))
			lines := strings.SplitAfter(string(data), "\n")
			mid := len(lines) / 2
			dir := t.TempDir()
			z := filepath.Join(dir, "session."+strings.TrimSuffix(v, ".jsonl")+".jsonl.zstd")
			os.WriteFile(z, frames(t, lines[0], strings.Join(lines[1:mid], ""), strings.Join(lines[mid:], "")), 0o644)
			if got := flatCalls(t, z); strings.Join(got, "\n") != strings.Join(plain, "\n") {
				t.Errorf("zstd calls differ:\n%s\n---\n%s", strings.Join(got, "\n"), strings.Join(plain, "\n"))
			}
			// The last line cut in half (after the last turn/end's line is
			// gone too): a torn tail, the calls before it intact.
			torn := filepath.Join(dir, "torn.jsonl")
			last := lines[len(lines)-2] // the final turn/end
			os.WriteFile(torn, []byte(strings.Join(lines[:len(lines)-2], "")+last[:len(last)/2]), 0o644)
			calls, sum, err := readAll(t, torn, Options{})
			if err != nil || sum.TornTails != 1 || len(calls) != 2 || noticeKinds(sum) != "torn-tail" {
				t.Errorf("torn: %v, %d torn tails, %d calls, notices %s", err, sum.TornTails, len(calls), noticeKinds(sum))
			}
			// A garbled line before a turn/end is corruption, not a tail.
			bad := filepath.Join(dir, "bad.jsonl")
			garbled := append(append([]string{}, lines[:3]...), "{\"type\":\n")
			os.WriteFile(bad, []byte(strings.Join(append(garbled, lines[3:]...), "")), 0o644)
			if _, _, err := readAll(t, bad, Options{}); err == nil || !strings.Contains(err.Error(), ":4: corrupt session log: unparsable record") {
				t.Errorf("garbled: %v", err)
			}
		})
	}
}

// A wrapped event stream has no header: its calls take the format its
// events show (and that format's release), as the log's would.
func TestFormatsOfWrappedStreams(t *testing.T) {
	for _, c := range []struct {
		file, release string
		format        int
		migrated      bool
	}{
		{"v1.jsonl", "", 0, false},
		{"v2.jsonl", "0.1.3", 2, false},
		{"v3.jsonl", "0.1.5", 3, false},
		{"v4.jsonl", "0.1.7", 4, false},
		{"v4.jsonl", "0.1.3", 4, true},
	} {
		data, err := os.ReadFile(td(filepath.Join("formats", c.file)))
		if err != nil {
			t.Fatal(err)
		}
		var stream strings.Builder
		for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if i == 0 {
				continue // the header
			}
			if c.migrated {
				l = strings.Replace(l, `"id":"sys-head"`, `"id":"v2-to-v3-system-0a1b"`, 1)
			}
			stream.WriteString(`{"type":"session_event","event":` + l + "}\n")
		}
		p := filepath.Join(t.TempDir(), "stream.jsonl")
		os.WriteFile(p, []byte(stream.String()), 0o644)
		calls, sum, err := readAll(t, p, Options{})
		if err != nil || len(calls) != 2 || sum.UnknownEvents != 0 {
			t.Fatalf("%s: %v, %d calls, %d unknown", c.file, err, len(calls), sum.UnknownEvents)
		}
		for _, call := range append(calls, calls[0].SubCalls...) {
			if call.Format != c.format || call.Release != c.release {
				t.Errorf("%s (migrated %v): %s format %d release %q, want %d %q", c.file, c.migrated, call.CallID, call.Format, call.Release, c.format, c.release)
			}
		}
	}
}
