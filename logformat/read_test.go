package logformat

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/dsh-replay/dsh-replay/internal/benchgen"
	"github.com/dsh-replay/dsh-replay/jsonv"
)

func td(name string) string { return filepath.Join("..", "testdata", "logformat", name) }

func readAll(t *testing.T, path string, opts Options) ([]*Call, *Summary, error) {
	t.Helper()
	var calls []*Call
	sum, err := ReadCalls(path, opts, func(c *Call) error { calls = append(calls, c); return nil })
	return calls, sum, err
}

func mustRead(t *testing.T, name string) ([]*Call, *Summary) {
	t.Helper()
	calls, sum, err := readAll(t, td(name), Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return calls, sum
}

func noticeKinds(s *Summary) string {
	var k []string
	for _, n := range s.Notices {
		k = append(k, n.Kind)
	}
	return strings.Join(k, ",")
}

func TestSmallLogs(t *testing.T) {
	type want struct {
		events, calls, results, meta, errs, subs, values, torn, unknown, ignored int
		notices                                                                  string
	}
	cases := []struct {
		file string
		want want
	}{
		{"packed.jsonl", want{events: 27, calls: 1, results: 1, meta: 1, values: 1}},
		{"legacy.jsonl", want{events: 8, calls: 1, results: 1}},
		{"projected.jsonl", want{events: 10, calls: 1, results: 1, meta: 1}},
		{"code-mode.jsonl", want{events: 11, calls: 1, results: 1, subs: 2, values: 1}},
		{"pruned.jsonl", want{events: 16, calls: 2, results: 2}},
		{"unknown-events.jsonl", want{events: 4, unknown: 1, ignored: 1, notices: "unknown-event"}},
		{"numbers-strings.jsonl", want{events: 7, calls: 1, results: 1, meta: 1, values: 1}},
		{"synthetic.jsonl", want{events: 16, calls: 4, results: 3, errs: 3}},
		{"torn.jsonl", want{events: 10, calls: 2, results: 1, torn: 1, notices: "torn-tail"}},
		{"torn-garbled.jsonl", want{events: 10, calls: 2, results: 1, torn: 1, notices: "torn-tail"}},
		{"stream-json.jsonl", want{events: 7, calls: 1, results: 1}},
		{"notifications.jsonl", want{events: 7, calls: 1, results: 1}},
		{"multi-frame.jsonl.zstd", want{events: 14, calls: 2, results: 2}},
		{"multi-frame.torn.jsonl.zstd", want{events: 8, calls: 1, results: 1, torn: 1, notices: "torn-tail"}},
		{"sidecar/session.jsonl", want{events: 12, calls: 2, results: 2, values: 2, notices: "orphan-value"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			calls, s := mustRead(t, c.file)
			got := want{s.Events, s.Calls, s.Results, s.ResultsWithMeta, s.ResultsWithErr, s.SubCalls, s.Values, s.TornTails, s.UnknownEvents, s.IgnoredEvents, noticeKinds(s)}
			if got != c.want {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
			if len(calls) != s.Calls {
				t.Errorf("%d calls delivered, summary says %d", len(calls), s.Calls)
			}
		})
	}
}

func TestErrorsNameFileAndLine(t *testing.T) {
	cases := []struct {
		file string
		line int
		msg  string
	}{
		{"corrupt.jsonl", 4, "unparsable record"},
		{"packed-malformed.jsonl", 17, "malformed text-chunks storage row: dt length 1 does not match 3 members"},
		{"bad-envelope.jsonl", 4, `unexpected key "tim#"`},
	}
	for _, c := range cases {
		_, _, err := readAll(t, td(c.file), Options{})
		var le *Error
		if !errors.As(err, &le) {
			t.Fatalf("%s: want *Error, got %v", c.file, err)
		}
		if le.File != td(c.file) || le.Line != c.line || !strings.Contains(le.Msg, c.msg) {
			t.Errorf("%s: got %v", c.file, err)
		}
	}
}

func TestPairing(t *testing.T) {
	byID := func(calls []*Call) map[string]*Call {
		m := map[string]*Call{}
		for _, c := range calls {
			m[c.CallID] = c
		}
		return m
	}
	t.Run("packed read call", func(t *testing.T) {
		calls, _ := mustRead(t, "packed.jsonl")
		c := calls[0]
		if c.CallID != "call_r" || c.Name != "read" || !c.Requested || !c.Started || !c.HasResult || c.IsError {
			t.Fatalf("call %+v", c)
		}
		if c.Line != 13 || c.CallLine != 12 || c.Seq != 16 || c.Turn != 1 || c.Step != 1 {
			t.Errorf("provenance line=%d callLine=%d seq=%d turn=%d step=%d", c.Line, c.CallLine, c.Seq, c.Turn, c.Step)
		}
		if c.Arguments.Get("file_path").Str() != "a.txt" || c.RawArguments != `{"file_path":"a.txt"}` {
			t.Errorf("arguments %s / %q", c.Arguments, c.RawArguments)
		}
		if c.Meta.Get("totalLines").Num() != 1 || c.Value.Path("lines").Len() != 1 || c.Content.At(0).Get("type").Str() != "text" {
			t.Errorf("meta %s value %s content %s", c.Meta, c.Value, c.Content)
		}
	})
	t.Run("legacy", func(t *testing.T) {
		calls, _ := mustRead(t, "legacy.jsonl")
		c := calls[0]
		if !c.Requested || !c.HasResult || c.Content.At(0).Get("text").Str() != "hi\n" {
			t.Errorf("legacy call %+v", c)
		}
	})
	t.Run("code mode", func(t *testing.T) {
		calls, _ := mustRead(t, "code-mode.jsonl")
		root := calls[0]
		if len(root.SubCalls) != 2 {
			t.Fatalf("sub-calls %d", len(root.SubCalls))
		}
		a, b := root.SubCalls[0], root.SubCalls[1]
		if !a.IsSubCall || a.RootCallID != "call_rc" || a.ParentCallID != "call_rc" || a.CallID != "call_rc:code:1" || a.Name != "bash" {
			t.Errorf("sub-call %+v", a)
		}
		if a.RawArguments != `{"command":"echo 1","description":"Echo one"}` || a.Arguments.Get("command").Str() != "echo 1" {
			t.Errorf("sub-call arguments %q", a.RawArguments)
		}
		if !a.Value.IsDefined() || a.IsError || !b.IsError || b.Value.IsDefined() || a.Meta.IsDefined() {
			t.Errorf("sub-call results a=%+v b=%+v", a, b)
		}
		if a.CallLine != 6 || a.Line != 7 || a.Turn != 1 {
			t.Errorf("sub-call provenance %d %d", a.CallLine, a.Line)
		}
	})
	t.Run("pruned view", func(t *testing.T) {
		calls, _ := mustRead(t, "pruned.jsonl")
		m := byID(calls)
		big := m["call_big"]
		if len(calls) != 2 || big == nil || len(big.Views) != 1 || big.Views[0].Line != 16 {
			t.Fatalf("views %+v", big)
		}
		if big.Views[0].Content.At(0).Get("text").Str() != "[pruned]" || !strings.HasPrefix(big.Content.At(0).Get("text").Str(), "a lot") {
			t.Errorf("view content %s", big.Views[0].Content)
		}
		// Without the prepass (stdin) the copy comes too late and is reported.
		f, _ := os.Open(td("pruned.jsonl"))
		defer f.Close()
		var n int
		s, err := ReadCallsFrom("-", f, Options{}, func(c *Call) error { n += len(c.Views); return nil })
		if err != nil || n != 0 || noticeKinds(s) != "late-view" {
			t.Errorf("stdin: views %d, notices %s, err %v", n, noticeKinds(s), err)
		}
	})
	t.Run("synthetic and interrupted", func(t *testing.T) {
		calls, _ := mustRead(t, "synthetic.jsonl")
		m := byID(calls)
		for id, want := range map[string]string{"call_a": "aborted", "call_d": "aborted-before-dispatch", "call_u": "outcome-unknown"} {
			if c := m[id]; c == nil || c.Synthetic != want || !c.IsError || c.Error.Get("code").Str() == "" {
				t.Errorf("%s: %+v", id, c)
			}
		}
		never := m["call_never"]
		if never == nil || !never.Interrupted || never.Started || never.HasResult || never.Seq != -1 || never.ArgumentsError == "" {
			t.Errorf("never-started call %+v", never)
		}
		if calls[len(calls)-1] != never {
			t.Errorf("calls are not in order of first appearance")
		}
	})
	t.Run("sidecar", func(t *testing.T) {
		calls, s := mustRead(t, "sidecar/session.jsonl")
		m := byID(calls)
		if v := m["call_s1"]; !v.Value.IsDefined() || v.Value.Get("exitCode").Num() != 0 || !v.ContentReplaced {
			t.Errorf("sidecar value %+v", v)
		}
		if v := m["call_s2"]; !v.Value.Get("inline").True() || v.Value.Has("fromSidecar") {
			t.Errorf("inline value must win: %s", v.Value)
		}
		n := s.Notices[0]
		if !strings.HasSuffix(n.File, "session.values.jsonl") || n.Line != 3 {
			t.Errorf("orphan notice %+v", n)
		}
		_, s2, _ := readAll(t, td("sidecar/session.jsonl"), Options{NoSidecar: true})
		if s2.Values != 1 || len(s2.Notices) != 0 {
			t.Errorf("NoSidecar: values %d notices %v", s2.Values, s2.Notices)
		}
	})
	t.Run("sidecar unrecordable", func(t *testing.T) {
		calls, s := mustRead(t, "sidecar-unrecordable/session.jsonl")
		c := byID(calls)["call_s1"]
		if c.Value.IsDefined() || c.ValueUnrecordable != "NaN at /exitCode" {
			t.Errorf("unrecordable line: value %s, reason %q", c.Value, c.ValueUnrecordable)
		}
		if s.Values != 1 || len(s.Notices) != 0 {
			t.Errorf("values %d (want the inline one only), notices %v", s.Values, s.Notices)
		}
		if got := string(AppendCallJSON(nil, c, CallJSONOptions{})); !strings.Contains(got, `"valueUnrecordable":"NaN at /exitCode"`) {
			t.Errorf("calls JSON lacks the reason: %s", got)
		}
	})
	t.Run("numbers and strings", func(t *testing.T) {
		calls, _ := mustRead(t, "numbers-strings.jsonl")
		c := calls[0]
		if got := jsonv.Encode(c.Meta); got != `{"n":1E21,"big":12345678901234567890123,"neg":-0,"frac":1.50}` {
			t.Errorf("meta lexemes: %s", got)
		}
		if got := jsonv.Stringify(c.Meta); got != `{"n":1e+21,"big":1.2345678901234568e+22,"neg":0,"frac":1.5}` {
			t.Errorf("meta as JSON.stringify: %s", got)
		}
		if p := c.Value.Get("path").Str(); !jsonv.HasLoneSurrogate(p) || jsonv.Len16(p) != len("lone-")+2+1+len(".txt") {
			t.Errorf("lone surrogates: %q", p)
		}
		if c.Arguments.Get("offset").Lexeme() != "9007199254740993" || c.Arguments.Get("limit").Num() != 1e21 {
			t.Errorf("arguments %s", jsonv.Encode(c.Arguments))
		}
	})
}

func TestZstdTornNotice(t *testing.T) {
	_, s := mustRead(t, "multi-frame.torn.jsonl.zstd")
	n := s.Notices[0]
	if n.Offset != 1344 || !strings.Contains(n.Msg, "compressed byte 678") {
		t.Errorf("notice %+v", n)
	}
}

// frames builds a chained-frame zstd file from plaintext batches.
func frames(t *testing.T, batches ...string) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var out []byte
	for _, b := range batches {
		out = enc.EncodeAll([]byte(b), out)
	}
	return out
}

func TestZstdFrameRules(t *testing.T) {
	plain, err := os.ReadFile(td("torn.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(plain), "\n")
	header, body := lines[0], strings.Join(lines[1:11], "")
	dir := t.TempDir()
	cases := []struct {
		name string
		data []byte
		line int
		msg  string
	}{
		{"header-frame-torn-header", frames(t, header[:10], header[10:]+body), 1, "the first frame ends inside the header line"},
		{"frame-ends-mid-record", frames(t, header, body[:100], body[100:]), 3, "complete frame contains a torn JSONL record"},
		{"first-frame-torn", frames(t, header)[:10], 1, "header-less"},
		{"bad-magic-after-frames", append(frames(t, header, body), 1, 2, 3, 4, 5, 6), 12, "invalid frame magic"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name+".jsonl.zstd")
		os.WriteFile(p, c.data, 0o644)
		_, _, err := readAll(t, p, Options{})
		var le *Error
		if !errors.As(err, &le) || le.Line != c.line || !strings.Contains(le.Msg, c.msg) {
			t.Errorf("%s: got %v", c.name, err)
		}
	}
	// A checksum failure in a complete frame is corruption.
	good := frames(t, header, body)
	bad := bytes.Clone(good)
	bad[len(bad)-1] ^= 0xFF
	p := filepath.Join(dir, "checksum.jsonl.zstd")
	os.WriteFile(p, bad, 0o644)
	if _, _, err := readAll(t, p, Options{}); err == nil || !strings.Contains(err.Error(), "corrupt zstd") {
		t.Errorf("checksum: %v", err)
	}
	// Detected by magic, whatever the name.
	p = filepath.Join(dir, "no-suffix.log")
	os.WriteFile(p, good, 0o644)
	if _, s, err := readAll(t, p, Options{}); err != nil || s.Events != 10 {
		t.Errorf("magic detection: %v %+v", err, s)
	}
}

func TestLongLineAndLimit(t *testing.T) {
	dir := t.TempDir()
	plain, _ := os.ReadFile(td("torn.jsonl"))
	lines := strings.SplitAfter(string(plain), "\n")
	big := strings.Repeat("x", 300<<10) // one line far over 64 KB
	res := `{"type":"tool/result","seq":5,"time":1,"data":{"turn":1,"step":1,"message":{"id":"r","role":"user","source":{"kind":"tool","callId":"call_b"},"content":[{"type":"tool-result","toolCallId":"call_b","content":[{"type":"text","text":"` + big + `"}],"isError":false}]}},"sourceEventSeqs":[4],"surfaceOp":"append"}` + "\n"
	text := strings.Join(lines[:5], "") + res + strings.Join(lines[6:10], "")
	p := filepath.Join(dir, "long.jsonl")
	os.WriteFile(p, []byte(text), 0o644)
	calls, _, err := readAll(t, p, Options{})
	if err != nil || len(calls) != 1 || len(calls[0].Content.At(0).Get("text").Str()) != len(big) {
		t.Fatalf("long line: %v", err)
	}
	_, _, err = readAll(t, p, Options{MaxRecordBytes: 100 << 10})
	var le *Error
	if !errors.As(err, &le) || le.Line != 6 || !strings.Contains(le.Msg, "longer than") {
		t.Errorf("limit: %v", err)
	}
}

func TestExpandPaths(t *testing.T) {
	got, err := ExpandPaths([]string{td("sidecar"), "-", td("legacy.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{td("sidecar/session.jsonl"), "-", td("legacy.jsonl")}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %v", got)
	}
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("x"), 0o644)
	if _, err := ExpandPaths([]string{empty}); err == nil || !strings.Contains(err.Error(), "no session logs") {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := ExpandPaths([]string{filepath.Join(empty, "missing.jsonl")}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing: %v", err)
	}
	if SidecarPath("x/session.jsonl.zstd") != "x/session.values.jsonl" || SidecarPath("a.jsonl") != "a.values.jsonl" {
		t.Error("SidecarPath")
	}
}

func TestCallbackErrorStops(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	_, err := ReadCalls(td("synthetic.jsonl"), Options{}, func(*Call) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("err %v after %d calls", err, n)
	}
}

func TestJobsAgree(t *testing.T) {
	for _, name := range []string{"packed.jsonl", "code-mode.jsonl", "synthetic.jsonl", "multi-frame.jsonl.zstd"} {
		var out [2]string
		for i, jobs := range []int{1, 4} {
			calls, _, err := readAll(t, td(name), Options{Jobs: jobs})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range calls {
				out[i] += callJSON(c) + "\n"
			}
		}
		if out[0] != out[1] {
			t.Errorf("%s: output depends on Jobs", name)
		}
	}
}

// TestHostDetection: the default identity line of a request header's system
// prompt names the host; a log without one leaves it unknown.
func TestHostDetection(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"../testdata/recorded/dsh/todo/session.jsonl", "dsh"},
		{"../testdata/recorded/lasmex/todo/session.jsonl", "lasmex"},
		{"../testdata/example/session.jsonl", ""},
	} {
		calls, s, err := readAll(t, c.path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if s.Host != c.want || len(calls) == 0 || calls[0].Host != c.want {
			t.Errorf("%s: summary host %q, call host %q; want %q", c.path, s.Host, calls[0].Host, c.want)
		}
	}
	for _, c := range []struct{ raw, want string }{
		{`{"header":{"system":"You are an AI agent powered by DeepSeek Harness.\n\nUse"}}`, "dsh"},
		{`{"header":{"system":"You are an AI agent powered by LasmeX."}}`, "lasmex"},
		{`{"header":{"system":"{{system}}"}}`, ""},
	} {
		if got := HostOfSystemPrompt([]byte(c.raw)); got != c.want {
			t.Errorf("HostOfSystemPrompt(%s) = %q, want %q", c.raw, got, c.want)
		}
	}
}

// Decoding workers are started per batch up to Jobs, never by the flag
// alone: a 4 MB log (about eight 512 KB batches) with a huge Jobs starts
// at most one per batch.
func TestReadWorkersBounded(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(64))
	var log bytes.Buffer
	if _, err := benchgen.Generate(&log, benchgen.Options{Bytes: 4 << 20, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "big.jsonl")
	os.WriteFile(p, log.Bytes(), 0o644)
	batches := log.Len()/(512<<10) + 1
	sum, err := ReadCalls(p, Options{Jobs: 1_000_000, NoViewPrepass: true, NoSidecar: true}, func(*Call) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	workers := sum.Workers
	// Batches end on line boundaries, so there may be a few more than the
	// size says; the bound is the work, far from the flag.
	if workers == 0 || workers > batches+2 {
		t.Errorf("%d workers started for about %d batches with Jobs 1e6 (want 1..%d)", workers, batches, batches+2)
	}
}

// The torn-tail notice says "after the last turn/end" only when a turn
// ended before it.
func TestTornTailWhere(t *testing.T) {
	head := `{"type":"session","version":0,"id":"s","createdAt":0}` + "\n"
	ended := `{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}` + "\n" + `{"type":"turn/end","seq":1,"time":0,"data":{"turn":1}}` + "\n"
	for _, c := range []struct{ body, want string }{
		{"{broken\n", "torn tail (no turn/end before it): unparsable record"},
		{ended + "{broken\n", "torn tail after the last turn/end: unparsable record"},
		{`{"type":"x"`, "torn tail (no turn/end before it): the last line has no newline (11 bytes)"},
	} {
		sum, err := ReadCallsFrom("t.jsonl", strings.NewReader(head+c.body), Options{}, func(*Call) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, n := range sum.Notices {
			if n.Kind == "torn-tail" {
				found = strings.HasPrefix(n.Msg, c.want)
				if !found {
					t.Errorf("%q: %s", c.body, n.Msg)
				}
			}
		}
		if !found && !t.Failed() {
			t.Errorf("%q: no torn-tail notice in %+v", c.body, sum.Notices)
		}
	}
}

// A v3/v4 log's release is its format's, unless its system head is one
// upstream's v2→v3 migration made: then it was first written in format 2
// or older and is checked against format 2's release, like its v2 twin.
func TestReleaseOfMigratedLog(t *testing.T) {
	const head = `{"type":"session","version":%d,"id":"s","createdAt":1,"isSeeded":false,"delegationDepth":0}
{"type":"step/start","seq":0,"time":1,"data":{"turn":1,"step":1}}
{"type":"system/message","seq":1,"time":1,"data":{"turn":1,"step":1,"message":{"id":"%s","role":"system","source":{"kind":"system-prompt"},"content":[]}},"surfaceOp":"append"}
{"type":"tool/call","seq":2,"time":2,"data":{"turn":1,"step":1,"callId":"c1","name":"todo_read","arguments":"{}"}}
`
	for _, c := range []struct {
		version     int
		id, pin     string
		wantRelease string
		wantFormat  int
	}{
		{3, "sys-1", "", "0.1.5", 3},
		{4, "sys-1", "", "0.1.7", 4},
		{3, "v2-to-v3-system-3ce7", "", "0.1.3", 3},
		{4, "v2-to-v3-system-3ce7", "", "0.1.3", 4},
		{4, "v2-to-v3-system-3ce7", "0.1.7", "0.1.7", 4},
	} {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("session.v%d.jsonl", c.version))
		if err := os.WriteFile(path, fmt.Appendf(nil, head, c.version, c.id), 0o644); err != nil {
			t.Fatal(err)
		}
		calls, _, err := readAll(t, path, Options{Release: c.pin})
		if err != nil {
			t.Fatal(err)
		}
		if len(calls) != 1 || calls[0].Release != c.wantRelease || calls[0].Format != c.wantFormat {
			t.Errorf("v%d id %s pin %q: %d calls, release %q format %d; want release %q format %d", c.version, c.id, c.pin, len(calls), calls[0].Release, calls[0].Format, c.wantRelease, c.wantFormat)
		}
	}
}
