package upstreamtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree writes a fake tree: the files given, with contents.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCheck(t *testing.T) {
	prepared := map[string]string{
		"package.json":                     `{"name": "@deepseek-ai/dsh-root"}`,
		"packages/fs/tool-fs/package.json": `{}`,
		"node_modules/tsx/package.json":    `{}`,
	}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for a, b := range prepared {
			m[a] = b
		}
		if v == "" {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	for _, tc := range []struct {
		name  string
		host  string
		files map[string]string
		want  string // a part of the problem, "" for none
	}{
		{"prepared dsh", "dsh", prepared, ""},
		{"prepared lasmex", "lasmex", with("package.json", `{"name": "lasmex-root"}`), ""},
		{"no package.json", "dsh", with("package.json", ""), "not an upstream tree"},
		{"bad package.json", "dsh", with("package.json", `{`), "package.json:"},
		{"other host's tree", "dsh", with("package.json", `{"name": "lasmex-root"}`), "goes in DSH_REPLAY_UPSTREAM_LASMEX"},
		{"other host's tree, lasmex", "lasmex", prepared, "goes in DSH_REPLAY_UPSTREAM"},
		{"unknown root", "dsh", with("package.json", `{"name": "x"}`), `names "x"`},
		{"no packages", "dsh", with("packages/fs/tool-fs/package.json", ""), "no packages/"},
		{"not installed", "dsh", with("node_modules/tsx/package.json", ""), "not installed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Lookup(tc.host).Check(tree(t, tc.files))
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("Check = %q, want %q", got, tc.want)
			}
		})
	}
}

// fakeT records what a helper asked of the test and stops it there, as
// Skipf and Fatalf do.
type fakeT struct {
	testing.TB
	skip, fatal string
}

type stopped struct{}

func (f *fakeT) Helper() {}
func (f *fakeT) Skipf(format string, args ...any) {
	f.skip = fmt.Sprintf(format, args...)
	panic(stopped{})
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	panic(stopped{})
}

func run(f *fakeT, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopped); !ok {
				panic(r)
			}
		}
	}()
	fn()
}

func TestTree(t *testing.T) {
	h := Lookup("dsh")
	good := tree(t, map[string]string{
		"package.json": `{"name": "@deepseek-ai/dsh-root"}`, "packages/x": "", "node_modules/tsx/package.json": "{}",
	})
	for _, tc := range []struct {
		name, env         string
		skip, fatal, tree string
	}{
		{"unset", "", "DSH_REPLAY_UPSTREAM is not set", "", ""},
		{"missing", filepath.Join(good, "nope"), "", "not an upstream tree", ""},
		{"prepared", good, "", "", good},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(h.Env, tc.env)
			f := &fakeT{TB: t}
			got := ""
			run(f, func() { got = h.Tree(f) })
			if !strings.Contains(f.skip, tc.skip) || (tc.skip == "") != (f.skip == "") {
				t.Errorf("skip %q, want %q", f.skip, tc.skip)
			}
			if !strings.Contains(f.fatal, tc.fatal) || (tc.fatal == "") != (f.fatal == "") {
				t.Errorf("fatal %q, want %q", f.fatal, tc.fatal)
			}
			if got != tc.tree {
				t.Errorf("tree %q, want %q", got, tc.tree)
			}
		})
	}
}

func TestRequireBuilt(t *testing.T) {
	h := Lookup("lasmex")
	for _, tc := range []struct {
		name  string
		files map[string]string
		fatal string
	}{
		{"built", map[string]string{BuiltMarker: ""}, ""},
		{"not built", map[string]string{"packages/goal/goal/src/index.ts": ""}, "host libraries are not built"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeT{TB: t}
			run(f, func() { h.RequireBuilt(f, tree(t, tc.files)) })
			if !strings.Contains(f.fatal, tc.fatal) || (tc.fatal == "") != (f.fatal == "") {
				t.Errorf("fatal %q, want %q", f.fatal, tc.fatal)
			}
		})
	}
}

func TestAtLeast(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"v22.19.0", true},
		{"v22.23.3", true},
		{"v24.0.0", true},
		{"v22.18.9", false},
		{"v20.20.2", false},
		{"22.19.0", true},
		{"v22.19", false},
		{"v22.x.0", false},
		{"", false},
	} {
		if got := AtLeast(tc.v, MinNode); got != tc.want {
			t.Errorf("AtLeast(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

func FuzzAtLeast(f *testing.F) {
	for _, s := range []string{"v22.19.0", "v20.1.2", "", "v1.2.3.4", "v-1.0.0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		// Anything at least 22.19 is at least 0.0.0 too.
		if AtLeast(v, MinNode) && !AtLeast(v, [3]int{}) {
			t.Errorf("%q: at least %v but not at least 0.0.0", v, MinNode)
		}
	})
}
