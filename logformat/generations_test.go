package logformat

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func TestGenerationOf(t *testing.T) {
	for _, c := range []struct {
		name  string
		child string
		gen   int
		ok    bool
	}{
		{"session.jsonl", "", 0, true},
		{"session.v1.jsonl", "", 1, true},
		{"session.v3.jsonl.zstd", "", 3, true},
		{"session.v12.jsonl", "", 12, true},
		{"session.2.jsonl", "2", 0, true},
		{"session.2.v4.jsonl", "2", 4, true},
		{"session.10.v3.jsonl.zstd", "10", 3, true},
		{"session.v0.jsonl", "", 0, false},
		{"session.v03.jsonl", "", 0, false},
		{"session.V3.jsonl", "", 0, false},
		{"session.v.jsonl", "", 0, false},
		{"session.02.jsonl", "", 0, false},
		{"session.v3.v4.jsonl", "", 0, false},
		{"session.values.jsonl", "", 0, false},
		{"session.v3.values.jsonl", "", 0, false},
		{"other.jsonl", "", 0, false},
		{"sessions.jsonl", "", 0, false},
		{"session.jsonl.zst", "", 0, false},
		{"session.v99999999999.jsonl", "", 0, false},
	} {
		child, gen, ok := generationOf(c.name)
		if child != c.child || gen != c.gen || ok != c.ok {
			t.Errorf("generationOf(%q) = %q, %d, %v; want %q, %d, %v", c.name, child, gen, ok, c.child, c.gen, c.ok)
		}
	}
}

func TestNewestGenerations(t *testing.T) {
	for _, c := range []struct {
		logs       []string
		keep       string
		superseded string // old>new,...
	}{
		{[]string{"d/session.jsonl"}, "d/session.jsonl", ""},
		{[]string{"d/session.jsonl", "d/session.v2.jsonl", "d/session.v3.jsonl"}, "d/session.v3.jsonl", "d/session.jsonl>d/session.v3.jsonl,d/session.v2.jsonl>d/session.v3.jsonl"},
		{[]string{"d/session.v2.jsonl", "d/session.v10.jsonl"}, "d/session.v10.jsonl", "d/session.v2.jsonl>d/session.v10.jsonl"},
		{[]string{"d/session.1.jsonl", "d/session.1.v3.jsonl", "d/session.jsonl", "d/session.v3.jsonl"}, "d/session.1.v3.jsonl,d/session.v3.jsonl", "d/session.1.jsonl>d/session.1.v3.jsonl,d/session.jsonl>d/session.v3.jsonl"},
		{[]string{"d/session.v3.jsonl", "d/session.v3.jsonl.zstd"}, "d/session.v3.jsonl,d/session.v3.jsonl.zstd", ""},
		{[]string{"d/session.jsonl.zstd", "d/session.v2.jsonl"}, "d/session.v2.jsonl", "d/session.jsonl.zstd>d/session.v2.jsonl"},
		{[]string{"d/run.jsonl", "d/session.v0.jsonl", "d/session.jsonl", "d/session.v4.jsonl"}, "d/run.jsonl,d/session.v0.jsonl,d/session.v4.jsonl", "d/session.jsonl>d/session.v4.jsonl"},
	} {
		keep, sup := newestGenerations(c.logs)
		var pairs []string
		for o, n := range sup {
			pairs = append(pairs, o+">"+n)
		}
		sort.Strings(pairs)
		if got := strings.Join(keep, ","); got != c.keep {
			t.Errorf("%v: keep %s, want %s", c.logs, got, c.keep)
		}
		if got := strings.Join(pairs, ","); got != c.superseded {
			t.Errorf("%v: superseded %s, want %s", c.logs, got, c.superseded)
		}
	}
}

// A tree of every generation: each session is walked once, at its newest
// generation, by Expand and ExpandStream alike; named, an old one is read.
func TestExpandGenerations(t *testing.T) {
	dir := t.TempDir()
	v0, err := os.ReadFile(td("code-mode.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"a/session.jsonl": "", "a/session.v2.jsonl": "formats/v2.jsonl", "a/session.v3.jsonl": "formats/v3.jsonl",
		"a/session.v3.values.jsonl": "formats/sidecar/session.v3.values.jsonl",
		"a/session.1.jsonl":         "", "a/session.1.v4.jsonl": "formats/v4.jsonl",
		"b/session.jsonl":    "",
		"c/session.v4.jsonl": "formats/v4.jsonl", "c/session.v2.jsonl": "formats/v2.jsonl",
		"c/notes.jsonl": "",
	}
	for name, src := range files {
		data := v0
		if src != "" {
			if data, err = os.ReadFile(td(src)); err != nil {
				t.Fatal(err)
			}
		}
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wantPaths := []string{"a/session.1.v4.jsonl", "a/session.v3.jsonl", "b/session.jsonl", "c/notes.jsonl", "c/session.v4.jsonl"}
	wantSup := "a/session.1.jsonl>session.1.v4.jsonl,a/session.jsonl>session.v3.jsonl,a/session.v2.jsonl>session.v3.jsonl,c/session.v2.jsonl>session.v4.jsonl"
	check := func(what string, in Inputs) {
		var got, sup []string
		for _, p := range in.Paths {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		for _, n := range SupersededNotices(in.Superseded) {
			rel, _ := filepath.Rel(dir, n.File)
			if n.Kind != Superseded {
				t.Errorf("%s: notice kind %s", what, n.Kind)
			}
			newest := in.Superseded[n.File]
			sup = append(sup, filepath.ToSlash(rel)+">"+filepath.Base(newest))
			if !strings.Contains(n.Msg, filepath.Base(newest)) {
				t.Errorf("%s: notice %q does not name %s", what, n.Msg, newest)
			}
		}
		if strings.Join(got, ",") != strings.Join(wantPaths, ",") {
			t.Errorf("%s: paths %v, want %v", what, got, wantPaths)
		}
		if strings.Join(sup, ",") != wantSup {
			t.Errorf("%s: superseded %s, want %s", what, strings.Join(sup, ","), wantSup)
		}
	}
	in, err := Expand([]string{dir}, PathFilter{})
	if err != nil {
		t.Fatal(err)
	}
	check("Expand", in)
	s, err := ExpandStream(dir, PathFilter{})
	if err != nil {
		t.Fatal(err)
	}
	check("ExpandStream", s.Inputs())
	// Named on the command line, an older generation is read.
	old := filepath.Join(dir, "a", "session.v2.jsonl")
	in, err = Expand([]string{old, filepath.Join(dir, "a", "session.jsonl")}, PathFilter{})
	if err != nil || len(in.Paths) != 2 || len(in.Superseded) != 0 {
		t.Errorf("named: %v %v %v", in.Paths, in.Superseded, err)
	}
	// The sidecar of session.v3.jsonl is session.v3.values.jsonl.
	calls, sum, err := readAll(t, filepath.Join(dir, "a", "session.v3.jsonl"), Options{})
	if err != nil || sum.Values != 2 || len(calls) != 2 {
		t.Errorf("a/session.v3.jsonl: %d calls, %d values, %v", len(calls), sum.Values, err)
	}
}

var generationPattern = regexp.MustCompile(`^session(?:\.([1-9][0-9]*))?(?:\.v([1-9][0-9]*))?\.jsonl(?:\.zstd)?$`)

// generationOf agrees with upstream's pattern (plus a child's number and
// .zstd) on every name.
func FuzzGenerationOf(f *testing.F) {
	for _, s := range []string{"session.jsonl", "session.v3.jsonl", "session.2.v4.jsonl.zstd", "session.v0.jsonl", "session.02.jsonl", "session..jsonl", "session.v.jsonl"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		child, gen, ok := generationOf(name)
		m := generationPattern.FindStringSubmatch(name)
		if m != nil && (len(m[1]) > 9 || len(m[2]) > 9) {
			m = nil // generationOf refuses numbers past 9 digits
		}
		if ok != (m != nil) {
			t.Fatalf("generationOf(%q) ok %v, pattern %v", name, ok, m)
		}
		if !ok {
			return
		}
		wantGen := 0
		if m[2] != "" {
			wantGen, _ = strconv.Atoi(m[2])
		}
		if child != m[1] || gen != wantGen {
			t.Fatalf("generationOf(%q) = %q, %d; pattern %q, %d", name, child, gen, m[1], wantGen)
		}
	})
}
