package logformat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
)

// independentCounts counts results by a plain scan with encoding/json:
// append-origin tool/result events (wrapped streams unwrapped), those with
// meta, with error, and with isError.
type counts struct{ results, meta, errs, isErr int }

func independentCounts(t *testing.T, path string) counts {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".zstd") {
		dec, _ := zstd.NewReader(bytes.NewReader(raw), zstd.WithDecoderConcurrency(1))
		var out bytes.Buffer
		io.Copy(&out, dec) // a torn last frame stops with an error: keep what decoded
		dec.Close()
		raw = out.Bytes()
		if i := bytes.LastIndexByte(raw, '\n'); i >= 0 {
			raw = raw[:i+1]
		}
	}
	var c counts
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		if ev, ok := m["event"].(map[string]any); ok {
			m = ev
		} else if p, ok := m["params"].(map[string]any); ok {
			if ev, ok := p["event"].(map[string]any); ok {
				m = ev
			}
		}
		if m["type"] != "tool/result" {
			continue
		}
		if op, ok := m["surfaceOp"].(map[string]any); ok && op["op"] == "replace" {
			continue
		}
		c.results++
		d, _ := m["data"].(map[string]any)
		if _, ok := d["meta"]; ok {
			c.meta++
		}
		if _, ok := d["error"]; ok {
			c.errs++
		}
		isErr := d["isError"] == true
		if msg, ok := d["message"].(map[string]any); ok && msg["role"] == "tool" {
			isErr = msg["isError"] == true // format 4: the message is the result
		} else if ok {
			if blocks, ok := msg["content"].([]any); ok && len(blocks) > 0 {
				if b, ok := blocks[0].(map[string]any); ok {
					isErr = b["isError"] == true
				}
			}
		}
		if isErr {
			c.isErr++
		}
	}
	return c
}

type tsvRow map[string]string

func loadTSV(t *testing.T) map[string]tsvRow {
	path := sharedtest.Dir(t, "spec", "fixtures.tsv")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	hdr := strings.Split(lines[0], "\t")
	rows := map[string]tsvRow{}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != len(hdr) {
			continue
		}
		r := tsvRow{}
		for i, h := range hdr {
			r[h] = f[i]
		}
		rows[r["repo"]+"/"+r["path"]] = r
	}
	return rows
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("bad count %q", s)
	}
	return n
}

// TestFixtures reads every real log in ../shared/fixtures and checks the
// per-file counts against the fixture catalogue and an independent scan.
func TestFixtures(t *testing.T) {
	root := sharedtest.Dir(t, "fixtures")
	rows := loadTSV(t)
	var files []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		if name := info.Name(); !IsSidecar(name) && (strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".jsonl.zstd")) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 100 {
		t.Fatalf("only %d fixture files", len(files))
	}
	checked := 0
	for _, p := range files {
		rel, _ := filepath.Rel(root, p)
		t.Run(rel, func(t *testing.T) {
			calls := 0
			sum, err := ReadCalls(p, Options{}, func(c *Call) error {
				calls++
				if c.File != p || c.CallID == "" {
					t.Errorf("call without provenance: %+v", c)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("ReadCalls: %v", err)
			}
			ind := independentCounts(t, p)
			got := counts{sum.Results, sum.ResultsWithMeta, sum.ResultsWithErr, sum.ErrorResults}
			if got != ind {
				t.Errorf("counts %+v, independent scan %+v", got, ind)
			}
			if sum.Calls != calls {
				t.Errorf("Summary.Calls %d, delivered %d", sum.Calls, calls)
			}
			key := ""
			switch {
			case strings.HasPrefix(rel, "lasmex/"):
				key = "LasmeX/" + strings.TrimPrefix(rel, "lasmex/")
			case strings.HasPrefix(rel, "dsh/"):
				key = "DSH/" + strings.TrimPrefix(rel, "dsh/")
			}
			if r, ok := rows[key]; ok {
				checked++
				want := counts{atoi(t, r["tool_results"]), atoi(t, r["with_meta"]), atoi(t, r["with_error"]), atoi(t, r["is_error"])}
				if got != want {
					t.Errorf("counts %+v, fixtures.tsv %+v", got, want)
				}
				if ev := atoi(t, r["logical_events"]); sum.Events != ev {
					t.Errorf("events %d, fixtures.tsv %d", sum.Events, ev)
				}
				if strings.HasPrefix(r["kind"], "session-log") && sum.Calls < atoi(t, r["tool_calls"]) {
					t.Errorf("calls %d, fixtures.tsv tool_calls %s", sum.Calls, r["tool_calls"])
				}
			} else if key != "" {
				t.Errorf("no fixtures.tsv row for %s", key)
			}
			torn := strings.Contains(rel, ".torn.")
			if torn != (sum.TornTails == 1) {
				t.Errorf("torn tails %d", sum.TornTails)
			}
			if torn {
				n := sum.Notices[0]
				if n.Kind != "torn-tail" || n.Offset <= 0 || !strings.Contains(n.Msg, "compressed byte") {
					t.Errorf("torn notice %+v", n)
				}
			}
		})
	}
	t.Logf("%d files read, %d cross-checked against fixtures.tsv", len(files), checked)
}

// TestZstdMatchesPlain: a zstd fixture yields the same calls as its plain twin.
func TestZstdMatchesPlain(t *testing.T) {
	root := sharedtest.Dir(t, "fixtures")
	for name, plain := range map[string]string{
		"fs-policy-reject":        "lasmex/examples/acp-agent/tests/snapshots/fs-policy-reject/session.jsonl",
		"goal-multi-turn-actions": "lasmex/apps/web/tests/snapshots/goal-multi-turn-actions/session.jsonl",
	} {
		t.Run(name, func(t *testing.T) {
			a := collect(t, filepath.Join(root, plain))
			b := collect(t, filepath.Join(root, "zstd", name+".session.jsonl.zstd"))
			if len(a) != len(b) {
				t.Fatalf("%d calls plain, %d zstd", len(a), len(b))
			}
			for i := range a {
				x, y := a[i], b[i]
				x.File, y.File = "", ""
				if callJSON(x) != callJSON(y) {
					t.Errorf("call %d differs:\n%s\n%s", i, callJSON(x), callJSON(y))
				}
			}
		})
	}
}

func collect(t *testing.T, path string) []*Call {
	t.Helper()
	var out []*Call
	if _, err := ReadCalls(path, Options{}, func(c *Call) error { out = append(out, c); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func callJSON(c *Call) string {
	return string(AppendCallJSON(nil, c, CallJSONOptions{Meta: true, Content: true, Value: true}))
}
