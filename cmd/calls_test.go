package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"

	"github.com/dsh-replay/dsh-replay/internal/goldenfile"
	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
)

// TestCallsGolden: `calls --meta` over each small test log, against golden
// NDJSON (log paths are relative to the testdata directory).
func TestCallsGolden(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "testdata", "logformat")
	for _, name := range []string{
		"packed.jsonl", "legacy.jsonl", "projected.jsonl", "code-mode.jsonl", "pruned.jsonl",
		"numbers-strings.jsonl", "synthetic.jsonl", "torn.jsonl", "stream-json.jsonl",
		"notifications.jsonl", "multi-frame.jsonl.zstd", "sidecar/session.jsonl", "unknown-events.jsonl",
		"formats/v1.jsonl", "formats/v2.jsonl", "formats/v3.jsonl", "formats/v4.jsonl", "formats/sidecar/session.v3.jsonl",
	} {
		t.Run(name, func(t *testing.T) {
			out, errs, code := cli(t, nil, "calls", "--meta", filepath.Join(dir, name))
			if code != cmdutil.ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			out = strings.ReplaceAll(out, jsonv.Quote(filepath.Join(dir, name)), jsonv.Quote(name))
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				if line == "" {
					continue
				}
				if _, err := jsonv.ParseString(line); err != nil {
					t.Fatalf("not NDJSON: %v", err)
				}
			}
			golden := filepath.Join(dir, "golden", strings.ReplaceAll(name, "/", "_")+".calls.ndjson")
			goldenfile.Check(t, golden, out)
		})
	}
}

func TestCallsSummary(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "testdata", "logformat")
	out, errs, code := cli(t, nil, "calls", "--summary", "--json", filepath.Join(dir, "torn.jsonl"), filepath.Join(dir, "code-mode.jsonl"))
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := `{"logs":2,"failed":0,"events":21,"records":21,"calls":3,"results":2,"resultsWithMeta":0,"resultsWithError":0,"errorResults":0,"subCalls":2,"values":1,"unknownEvents":0,"ignoredEvents":0,"tornTails":1,"format0Logs":2,"format1Logs":0,"format2Logs":0,"format3Logs":0,"format4Logs":0}` + "\n"
	if out != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	if !strings.Contains(errs, "torn.jsonl:12: torn-tail:") {
		t.Errorf("torn tail warning missing from stderr: %q", errs)
	}
	out, _, code = cli(t, nil, "calls", "--summary", filepath.Join(dir, "code-mode.jsonl"))
	if code != cmdutil.ExitOK || !strings.Contains(out, "sub-calls") || !strings.Contains(out, "calls ") {
		t.Errorf("text summary: %d %q", code, out)
	}
	// stdin
	f, err := os.Open(filepath.Join(dir, "multi-frame.jsonl.zstd"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, errs, code = cli(t, f, "calls", "--summary", "--json", "-")
	if code != cmdutil.ExitOK || !strings.Contains(out, `"calls":2,`) {
		t.Errorf("stdin: %d %s %s", code, out, errs)
	}
}

// TestCallsBadInput: every bad input gives one clear message naming the file
// (and line where there is one) and the right exit code, never a panic.
func TestCallsBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	header := `{"type":"session","version":0,"id":"x","createdAt":0,"cwd":"/w","delegationDepth":0}` + "\n"
	turnEnd := `{"type":"turn/end","seq":1,"time":0,"data":{"turn":1,"reason":{"kind":"completed"}}}` + "\n"
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	garbage := make([]byte, 4096)
	for i := range garbage {
		garbage[i] = byte(i*7 + i/13)
	}
	noLogs := filepath.Join(dir, "empty-dir")
	os.Mkdir(noLogs, 0o755)
	os.WriteFile(filepath.Join(noLogs, "readme.txt"), []byte("x"), 0o644)

	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no paths", []string{"calls"}, cmdutil.ExitUsage, "needs at least one PATH"},
		{"unknown flag", []string{"calls", "--nope", "x"}, cmdutil.ExitUsage, "unknown flag"},
		{"json without summary", []string{"calls", "--json", "x"}, cmdutil.ExitUsage, "--json goes with --summary"},
		{"missing file", []string{"calls", filepath.Join(dir, "missing.jsonl")}, cmdutil.ExitCannot, "missing.jsonl: no such file or directory"},
		{"directory without logs", []string{"calls", noLogs}, cmdutil.ExitCannot, "empty-dir: directory holds no session logs"},
		{"empty file", []string{"calls", write("empty.jsonl", nil)}, cmdutil.ExitCannot, "empty.jsonl: empty file"},
		{"truncated inside the header", []string{"calls", write("trunc-header.jsonl", []byte(header[:30]))}, cmdutil.ExitCannot, "trunc-header.jsonl:1: empty or header-less"},
		{"binary garbage", []string{"calls", write("garbage.jsonl", garbage)}, cmdutil.ExitCannot, "garbage.jsonl:1: not a session log"},
		{"not a session log", []string{"calls", write("other.jsonl", []byte("{\"a\":1}\n{\"b\":2}\n"))}, cmdutil.ExitCannot, "other.jsonl:1: not a session log: the first line is not a session header"},
		{"newer format", []string{"calls", write("v5.jsonl", []byte(`{"type":"session","version":5,"id":"x","createdAt":0}`+"\n"))}, cmdutil.ExitCannot, "v5.jsonl:1: session log format version 5 is not supported: it was written by a newer harness (this build reads versions 0 to 4)"},
		{"fractional format", []string{"calls", write("v2.5.jsonl", []byte(`{"type":"session","version":2.5,"id":"x","createdAt":0}`+"\n"))}, cmdutil.ExitCannot, "v2.5.jsonl:1: session log format version 2.5 is not supported: it was written by a different harness"},
		{"invalid UTF-8 in the header", []string{"calls", write("utf8-header.jsonl", []byte("{\"type\":\"session\",\"id\":\"\xff\"}\n"))}, cmdutil.ExitCannot, "utf8-header.jsonl:1: not a session log: invalid UTF-8"},
		{"invalid UTF-8 before a turn/end", []string{"calls", write("utf8.jsonl", []byte(header+"{\"type\":\"turn/start\",\"seq\":0,\"time\":0,\"data\":{\"turn\":1,\"x\":\"\xc3\x28\"}}\n"+turnEnd))}, cmdutil.ExitCannot, "utf8.jsonl:2: corrupt session log: unparsable record: invalid UTF-8"},
		{"nested 100000 deep before a turn/end", []string{"calls", write("deep.jsonl", []byte(header+`{"type":"turn/start","seq":0,"time":0,"data":`+deep+"}\n"+turnEnd))}, cmdutil.ExitCannot, "deep.jsonl:2: corrupt session log: unparsable record: nesting deeper than 10000 levels"},
		{"nested 100000 deep as the header", []string{"calls", write("deep-header.jsonl", []byte(deep+"\n"))}, cmdutil.ExitCannot, "deep-header.jsonl:1: not a session log"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := cli(t, nil, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, errs)
			}
			if !strings.Contains(errs, c.msg) {
				t.Errorf("stderr %q lacks %q", errs, c.msg)
			}
			if strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Errorf("want one message, got %q", errs)
			}
			if strings.Contains(errs, "internal error") || out != "" {
				t.Errorf("stdout %q stderr %q", out, errs)
			}
		})
	}

	// A file cut in the middle of its body is a torn tail, as upstream reads
	// it: a warning, exit 0.
	_, errs, code := cli(t, nil, "calls", write("cut.jsonl", []byte(header+`{"type":"turn/start","seq":0,"time":0,"da`)))
	if code != cmdutil.ExitOK || !strings.Contains(errs, "cut.jsonl:2: torn-tail:") {
		t.Errorf("cut body: exit %d %q", code, errs)
	}
}

// TestCallsHugeLine: a 200 MB single line is refused with file and line,
// without reading it into memory whole.
func TestCallsHugeLine(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes 200 MB")
	}
	p := filepath.Join(t.TempDir(), "huge.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"session","version":0,"id":"x","createdAt":0}` + "\n")
	f.WriteString(`{"type":"user/message","seq":0,"time":0,"data":{"text":"`)
	chunk := bytes.Repeat([]byte("abcdefgh"), 1<<17) // 1 MiB
	for i := 0; i < 200; i++ {
		f.Write(chunk)
	}
	f.WriteString(`"}}` + "\n" + `{"type":"turn/end","seq":1,"time":0,"data":{"turn":1,"reason":{"kind":"completed"}}}` + "\n")
	f.Close()
	_, errs, code := cli(t, nil, "calls", p)
	if code != cmdutil.ExitCannot || !strings.Contains(errs, "huge.jsonl:2: record longer than") {
		t.Errorf("exit %d: %q", code, errs)
	}
}

// TestCallsFixtures: every real log reads without error through the CLI.
func TestCallsFixtures(t *testing.T) {
	t.Parallel()
	root := sharedtest.Dir(t, "fixtures")
	out, errs, code := cli(t, nil, "calls", "--summary", "--json", root)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	v, err := jsonv.ParseString(out)
	if err != nil || v.Get("failed").Num() != 0 || v.Get("logs").Num() < 100 || v.Get("tornTails").Num() != 1 {
		t.Errorf("summary %s (%v)", out, err)
	}
}
