package logformat

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func TestMatchGlob(t *testing.T) {
	for _, c := range []struct {
		pat, rel string
		want     bool
	}{
		{"*.jsonl", "a/b/c.jsonl", true}, // no "/": base name at any depth
		{"stdout.expected.jsonl", "x/y/stdout.expected.jsonl", true},
		{"*.expected.jsonl", "x/session.jsonl", false},
		{"a/*.jsonl", "a/b.jsonl", true},
		{"a/*.jsonl", "a/b/c.jsonl", false},
		{"a/**/c.jsonl", "a/c.jsonl", true},
		{"a/**/c.jsonl", "a/b/x/c.jsonl", true},
		{"a/**", "a/b/c.jsonl", true},
		{"a/**", "b/a/c.jsonl", false},
		{"**/snapshots/*/session.jsonl", "examples/x/tests/snapshots/s1/session.jsonl", true},
		{"**/snapshots/*/session.jsonl", "snapshots/s1/session.jsonl", true},
		{"**/snapshots/*/session.jsonl", "snapshots/s1/session.1.jsonl", false},
		{"**", "anything/at/all", true},
		{"[ab].jsonl", "b.jsonl", true},
		{"[ab].jsonl", "c.jsonl", false},
	} {
		if got := MatchGlob(c.pat, c.rel); got != c.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", c.pat, c.rel, got, c.want)
		}
	}
}

func TestPathFilterCheck(t *testing.T) {
	for _, bad := range []PathFilter{{Include: []string{""}}, {Exclude: []string{"a/["}}} {
		if bad.Check() == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	if err := (PathFilter{Include: []string{"**/x/*.jsonl"}, Exclude: []string{"a/**"}}).Check(); err != nil {
		t.Error(err)
	}
}

func TestExpandFilterAndWalked(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a/session.jsonl", "a/stdout.expected.jsonl", "b/c/session.jsonl.zstd", "b/session.values.jsonl", "notes.txt"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("{}\n"), 0o644)
	}
	explicit := filepath.Join(dir, "a", "stdout.expected.jsonl")
	in, err := Expand([]string{dir, explicit}, PathFilter{Exclude: []string{"stdout.expected.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	for _, p := range in.Paths {
		rel, _ := filepath.Rel(dir, p)
		if in.Walked[p] {
			rel += " (walked)"
		}
		rels = append(rels, filepath.ToSlash(rel))
	}
	want := "a/session.jsonl (walked),b/c/session.jsonl.zstd (walked),a/stdout.expected.jsonl"
	if got := strings.Join(rels, ","); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestNotASessionLogKind(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		first, kind, msg string
	}{
		{`{"jsonrpc":"2.0","id":0,"result":{}}`, NotASessionLog, "JSON-RPC frame"},
		{`{"type":"result","subtype":"success"}`, NotASessionLog, `"result" record`},
		{`[1,2]`, NotASessionLog, "not an object"},
		{`{"callId":"x"}`, NotASessionLog, "not a session header"},
		{`{not json`, "", "not valid JSON"},
		{`{"type":"session","version":7}`, "", "not supported"},
	} {
		p := filepath.Join(dir, "f.jsonl")
		os.WriteFile(p, []byte(c.first+"\n"), 0o644)
		err := Classify(p)
		e, ok := err.(*Error)
		if !ok || e.Kind != c.kind || !strings.Contains(e.Msg, c.msg) || e.Line != 1 {
			t.Errorf("%s: %#v", c.first, err)
		}
		if IsNotASessionLog(err) != (c.kind != "") {
			t.Errorf("%s: IsNotASessionLog wrong", c.first)
		}
	}
	p := filepath.Join(dir, "ok.jsonl")
	os.WriteFile(p, []byte(`{"type":"session","version":0,"id":"s","createdAt":0}`+"\n{broken\n"), 0o644)
	if err := Classify(p); err != nil {
		t.Errorf("a session log with a broken body classifies as a log: %v", err)
	}
}

func TestCallsWithoutRecords(t *testing.T) {
	head := `{"type":"session","version":0,"id":"s","createdAt":0}` + "\n"
	delta := func(seq int, id string) string {
		return `{"type":"assistant/chunk","seq":` + itoa(seq) + `,"time":0,"data":{"turn":1,"step":1,"chunk":{"type":"tool-call-delta","index":0,"id":"` + id + `","name":"read","argumentsDelta":"{}"}}}` + "\n"
	}
	packed := `{"type":"tool-call-chunks","seq0":2,"time0":0,"data":{"turn":1,"step":1,"index":1,"id":"c3","name":"read","args":["{","}","x"],"dt":[0,0]}}` + "\n"
	read := func(body string) []Notice {
		sum, err := ReadCallsFrom("t.jsonl", strings.NewReader(head+body), Options{}, func(*Call) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		var out []Notice
		for _, n := range sum.Notices {
			if n.Kind == "calls-without-records" {
				out = append(out, n)
			}
		}
		return out
	}
	ns := read(delta(0, "c1") + delta(1, "c2") + packed)
	if len(ns) != 1 || ns[0].Line != 2 || !strings.Contains(ns[0].Msg, `3 tool calls (first "c1")`) {
		t.Errorf("chunks only: %+v", ns)
	}
	msg := `{"type":"assistant/message","seq":5,"time":0,"data":{"turn":1,"step":1,"message":{"id":"m","role":"assistant","content":[{"type":"tool-call","id":"c1","name":"read","arguments":"{}"},{"type":"tool-call","id":"c2","name":"read","arguments":"{}"},{"type":"tool-call","id":"c3","name":"read","arguments":"{}"}]}},"surfaceOp":"append"}` + "\n"
	if ns := read(delta(0, "c1") + delta(1, "c2") + packed + msg); len(ns) != 0 {
		t.Errorf("chunks with their message: %+v", ns)
	}
}

// FuzzMatchGlob: the glob matcher never panics, "**" matches every path,
// and a pattern without metacharacters matches exactly itself (or, without
// "/", the base name).
func FuzzMatchGlob(f *testing.F) {
	for _, s := range [][2]string{{"a/**/b", "a/x/y/b"}, {"*.jsonl", "x/y.jsonl"}, {"[a-", "a"}, {"**/**", ""}, {"a\\*", "a*"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pat, rel string) {
		got := MatchGlob(pat, rel)
		if ps, ns := strings.Split(pat, "/"), strings.Split(rel, "/"); len(ps) <= 8 && len(ns) <= 8 {
			if want := matchSegsBacktrack(ps, ns); matchSegs(ps, ns) != want {
				t.Fatalf("matchSegs(%q, %q) = %v, backtracking says %v", pat, rel, !want, want)
			}
		}
		if !MatchGlob("**", rel) {
			t.Fatalf("** does not match %q", rel)
		}
		if !strings.ContainsAny(pat, `*?[\`) && pat != "" {
			want := pat == rel || !strings.Contains(pat, "/") && pat == rel[strings.LastIndex(rel, "/")+1:]
			if got != want {
				t.Fatalf("MatchGlob(%q, %q) = %v, want %v", pat, rel, got, want)
			}
		}
	})
}

// matchSegsBacktrack is the plain recursive matcher (exponential in the
// number of "**"), the reference for matchSegs.
func matchSegsBacktrack(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchSegsBacktrack(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// Many "**" against a deep path (backtracking took 20 s on 10 against 31).
func BenchmarkMatchGlobStars(b *testing.B) {
	pat := strings.Repeat("**/", 10) + "x"
	rel := strings.Repeat("a/", 30) + "b"
	for b.Loop() {
		MatchGlob(pat, rel)
	}
}

// TestExpandSidecarsAndOrder: a walk over many directories (read on
// several goroutines) finds every log in sorted order, and marks as
// NoSidecar exactly the walked logs whose directory holds no sidecar for
// them; a log named on the command line is never marked.
func TestExpandSidecarsAndOrder(t *testing.T) {
	root := t.TempDir()
	write := func(rel string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	for i := 0; i < 40; i++ {
		for _, rel := range []string{"d%02d/a.jsonl", "d%02d/x/b.jsonl.zstd", "d%02d-c.jsonl"} {
			rel = strings.Replace(rel, "%02d", string(rune('A'+i/10))+string(rune('0'+i%10)), 1)
			write(rel)
			want = append(want, filepath.Join(root, rel))
		}
	}
	write("dA0/a.values.jsonl")   // a.jsonl's sidecar
	write("dA1/x/b.values.jsonl") // b.jsonl.zstd's
	sort.Strings(want)
	// The log named again after its directory is walked once.
	in, err := Expand([]string{root, filepath.Join(root, "dA2", "a.jsonl")}, PathFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(in.Paths, "\n") != strings.Join(want, "\n") {
		t.Fatalf("paths:\n%s\nwant:\n%s", strings.Join(in.Paths, "\n"), strings.Join(want, "\n"))
	}
	for _, p := range in.Paths {
		withSidecar := p == filepath.Join(root, "dA0", "a.jsonl") || p == filepath.Join(root, "dA1", "x", "b.jsonl.zstd")
		if in.NoSidecar[p] == withSidecar {
			t.Errorf("%s: NoSidecar %v", p, in.NoSidecar[p])
		}
	}
	in, err = Expand([]string{filepath.Join(root, "dA2", "a.jsonl")}, PathFilter{})
	if err != nil || len(in.Paths) != 1 || in.NoSidecar[in.Paths[0]] {
		t.Errorf("a named log: %v %v %v", in.Paths, in.NoSidecar, err)
	}
}
