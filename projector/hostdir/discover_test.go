package hostdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// layout writes files (path -> content) under a temp dir and makes links
// (path -> target, relative to the link's directory).
func layout(t *testing.T, files, links map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for p, target := range links {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.FromSlash(target), full); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func pkg(name, version string, deps ...string) string {
	s := `{"name":"` + name + `","version":"` + version + `","main":"lib/index.js","dependencies":{`
	for i, d := range deps {
		if i > 0 {
			s += ","
		}
		s += `"` + d + `":"^` + version + `"`
	}
	return s + `}}`
}

const toolCode = "import { defineTool } from '@deepseek-ai/dsh-tools'\nexport function apply(ctx) { ctx.tools.register(defineTool({})) }\n"
const libCode = "export const x = 1\n"

func TestDiscover(t *testing.T) {
	type want struct {
		layout, host, version string
		pkgs                  []string // name@version
		from                  string   // VersionFrom, relative to the dir
	}
	cases := []struct {
		name   string
		files  map[string]string
		links  map[string]string
		at     string // the directory passed, relative to the layout
		want   want
		errHas string
	}{
		{
			name: "source tree",
			files: map[string]string{
				"package.json":                        `{"name":"@deepseek-ai/dsh-root","version":"0.1.9","workspaces":["packages/*/*"]}`,
				"apps/cli/package.json":               pkg("@deepseek-ai/dsh", "0.2.0"),
				"packages/fs/tool-fs/package.json":    pkg("@deepseek-ai/dsh-tool-fs", "0.2.0"),
				"packages/fs/tool-fs/lib/index.js":    toolCode,
				"packages/fs/fs/package.json":         pkg("@deepseek-ai/dsh-fs", "0.2.0"),
				"packages/fs/fs/lib/index.js":         libCode,
				"packages/core/tools/package.json":    pkg("@deepseek-ai/dsh-tools", "0.2.0"),
				"packages/core/tools/src/schema.ts":   "export function defineTool(d) { return d }\n",
				"packages/x/tool-y/package.json":      pkg("@deepseek-ai/dsh-tool-y", "0.2.0"),
				"packages/x/tool-y/src/index.ts":      "export * from './tools.ts'\n",
				"packages/x/tool-y/src/tools.ts":      toolCode,
				"packages/x/only-tests/package.json":  pkg("@deepseek-ai/dsh-only-tests", "0.2.0"),
				"packages/x/only-tests/tests/a.ts":    toolCode,
				"packages/x/only-tests/src/a.test.ts": toolCode,
				"packages/x/third/package.json":       pkg("someone-else", "1.0.0"),
				"packages/x/third/lib/index.js":       toolCode,
			},
			want: want{SourceTree, "dsh", "0.2.0", []string{"@deepseek-ai/dsh-tool-fs@0.2.0", "@deepseek-ai/dsh-tool-y@0.2.0", "@deepseek-ai/dsh-tools@0.2.0"}, "apps/cli/package.json"},
		},
		{
			name: "source tree without a CLI: the root's version",
			files: map[string]string{
				"package.json": `{"name":"lasmex-root","version":"0.1.0","workspaces":["packages/*/*"]}`,
				"packages/memory/tool-memory/package.json": pkg("lasmex-tool-memory", "0.1.0"),
				"packages/memory/tool-memory/lib/index.js": toolCode,
			},
			want: want{SourceTree, "lasmex", "0.1.0", []string{"lasmex-tool-memory@0.1.0"}, "package.json"},
		},
		{
			name: "npm node_modules of a project",
			files: map[string]string{
				"package.json": `{"name":"my-ci","dependencies":{"@deepseek-ai/dsh-tool-fs":"^0.3.0"}}`,
				"node_modules/@deepseek-ai/dsh-tool-fs/package.json": pkg("@deepseek-ai/dsh-tool-fs", "0.3.0", "@deepseek-ai/dsh-tools"),
				"node_modules/@deepseek-ai/dsh-tool-fs/lib/index.js": toolCode,
				"node_modules/@deepseek-ai/dsh-tools/package.json":   pkg("@deepseek-ai/dsh-tools", "0.3.0"),
				"node_modules/@deepseek-ai/dsh-tools/lib/index.js":   "export function defineTool(d) { return d }\n",
				"node_modules/@deepseek-ai/cordis/package.json":      pkg("@deepseek-ai/cordis", "1.0.0"),
				"node_modules/left-pad/package.json":                 pkg("left-pad", "1.0.0"),
			},
			want: want{NodeModules, "dsh", "0.3.0", []string{"@deepseek-ai/dsh-tool-fs@0.3.0", "@deepseek-ai/dsh-tools@0.3.0"}, "node_modules/@deepseek-ai/dsh-tools/package.json"},
		},
		{
			name: "the node_modules directory itself",
			files: map[string]string{
				"node_modules/lasmex-tool-web/package.json": pkg("lasmex-tool-web", "0.4.1"),
				"node_modules/lasmex-tool-web/lib/index.js": toolCode,
			},
			at:   "node_modules",
			want: want{NodeModules, "lasmex", "0.4.1", []string{"lasmex-tool-web@0.4.1"}, "node_modules/lasmex-tool-web/package.json"},
		},
		{
			name: "npm global install: the CLI with its dependencies nested",
			files: map[string]string{
				"lib/node_modules/@deepseek-ai/dsh/package.json":                                           pkg("@deepseek-ai/dsh", "0.5.0", "@deepseek-ai/dsh-tool-bash"),
				"lib/node_modules/@deepseek-ai/dsh/lib/bin.js":                                             libCode,
				"lib/node_modules/@deepseek-ai/dsh/node_modules/@deepseek-ai/dsh-tool-bash/package.json":   pkg("@deepseek-ai/dsh-tool-bash", "0.5.0", "@deepseek-ai/dsh-shell"),
				"lib/node_modules/@deepseek-ai/dsh/node_modules/@deepseek-ai/dsh-tool-bash/lib/index.js":   toolCode,
				"lib/node_modules/@deepseek-ai/dsh/node_modules/@deepseek-ai/dsh-shell/package.json":       pkg("@deepseek-ai/dsh-shell", "0.5.0"),
				"lib/node_modules/@deepseek-ai/dsh/node_modules/@deepseek-ai/dsh-shell/lib/index.js":       libCode,
				"lib/node_modules/@deepseek-ai/dsh/node_modules/@deepseek-ai/dsh-tool-pwsh/package.json":   pkg("@deepseek-ai/dsh-tool-pwsh", "0.4.0"),
				"lib/node_modules/@deepseek-ai/dsh/node_modules/@deepseek-ai/dsh-tool-pwsh/lib/index.js":   toolCode,
				"lib/node_modules/@deepseek-ai/dsh/node_modules/@deepseek-ai/dsh-tool-bash/node_modules/x": "",
			},
			at:   "lib/node_modules/@deepseek-ai/dsh",
			want: want{NodeModules, "dsh", "0.5.0", []string{"@deepseek-ai/dsh-tool-bash@0.5.0", "@deepseek-ai/dsh-tool-pwsh@0.4.0"}, "lib/node_modules/@deepseek-ai/dsh/package.json"},
		},
		{
			name: "the global prefix's node_modules",
			files: map[string]string{
				"lib/node_modules/@deepseek-ai/dsh/package.json":                                         pkg("@deepseek-ai/dsh", "0.5.0", "@deepseek-ai/dsh-tool-bash"),
				"lib/node_modules/@deepseek-ai/dsh/node_modules/@deepseek-ai/dsh-tool-bash/package.json": pkg("@deepseek-ai/dsh-tool-bash", "0.5.0"),
				"lib/node_modules/@deepseek-ai/dsh/node_modules/@deepseek-ai/dsh-tool-bash/lib/index.js": toolCode,
			},
			at:   "lib/node_modules",
			want: want{NodeModules, "dsh", "0.5.0", []string{"@deepseek-ai/dsh-tool-bash@0.5.0"}, "lib/node_modules/@deepseek-ai/dsh/package.json"},
		},
		{
			name: "pnpm: dependencies linked as siblings in the store, others only in the store",
			files: map[string]string{
				"node_modules/.pnpm/@deepseek-ai+dsh@0.6.0/node_modules/@deepseek-ai/dsh/package.json":                     pkg("@deepseek-ai/dsh", "0.6.0", "@deepseek-ai/dsh-tool-todo"),
				"node_modules/.pnpm/@deepseek-ai+dsh-tool-todo@0.6.0/node_modules/@deepseek-ai/dsh-tool-todo/package.json": pkg("@deepseek-ai/dsh-tool-todo", "0.6.0"),
				"node_modules/.pnpm/@deepseek-ai+dsh-tool-todo@0.6.0/node_modules/@deepseek-ai/dsh-tool-todo/lib/index.js": toolCode,
				"node_modules/.pnpm/@deepseek-ai+dsh-tool-lsp@0.6.0/node_modules/@deepseek-ai/dsh-tool-lsp/package.json":   pkg("@deepseek-ai/dsh-tool-lsp", "0.6.0"),
				"node_modules/.pnpm/@deepseek-ai+dsh-tool-lsp@0.6.0/node_modules/@deepseek-ai/dsh-tool-lsp/lib/index.js":   toolCode,
			},
			links: map[string]string{
				"node_modules/@deepseek-ai/dsh": "../.pnpm/@deepseek-ai+dsh@0.6.0/node_modules/@deepseek-ai/dsh",
				"node_modules/.pnpm/@deepseek-ai+dsh@0.6.0/node_modules/@deepseek-ai/dsh-tool-todo": "../../../@deepseek-ai+dsh-tool-todo@0.6.0/node_modules/@deepseek-ai/dsh-tool-todo",
			},
			want: want{NodeModules, "dsh", "0.6.0", []string{"@deepseek-ai/dsh-tool-lsp@0.6.0", "@deepseek-ai/dsh-tool-todo@0.6.0"}, "node_modules/.pnpm/@deepseek-ai+dsh@0.6.0/node_modules/@deepseek-ai/dsh/package.json"},
		},
		{
			name:   "missing",
			at:     "nope",
			errHas: "nope: no such directory",
		},
		{
			name:   "a file",
			files:  map[string]string{"f": "x"},
			at:     "f",
			errHas: "not a directory",
		},
		{
			name:   "not an install",
			files:  map[string]string{"package.json": `{"name":"x"}`, "node_modules/left-pad/package.json": pkg("left-pad", "1.0.0")},
			errHas: "not a DSH or LasmeX install",
		},
		{
			name:   "a source tree of something else",
			files:  map[string]string{"package.json": `{"name":"x","workspaces":["packages/*"]}`, "packages/a/b/package.json": pkg("b", "1.0.0")},
			errHas: "not a DSH or LasmeX install",
		},
		{
			name: "an install without tools",
			files: map[string]string{
				"node_modules/@deepseek-ai/dsh-fs/package.json": pkg("@deepseek-ai/dsh-fs", "0.2.0"),
				"node_modules/@deepseek-ai/dsh-fs/lib/index.js": libCode,
			},
			errHas: "none of which defines a tool",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := layout(t, c.files, c.links)
			in, err := Discover(filepath.Join(root, filepath.FromSlash(c.at)))
			if c.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), c.errHas) {
					t.Fatalf("err = %v, want one containing %q", err, c.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range in.Packages {
				got = append(got, p.Name+"@"+p.Version)
				if p.Plugin != pluginName(p.Name) || strings.HasPrefix(p.Plugin, "dsh-") {
					t.Errorf("%s: plugin name %q", p.Name, p.Plugin)
				}
				if _, err := os.Stat(filepath.Join(p.Dir, "package.json")); err != nil {
					t.Errorf("%s: dir %s: %v", p.Name, p.Dir, err)
				}
			}
			if diff := cmp.Diff(c.want.pkgs, got); diff != "" {
				t.Errorf("packages (-want +got):\n%s", diff)
			}
			if in.Layout != c.want.layout || in.Host != c.want.host || in.Version != c.want.version {
				t.Errorf("got %s/%s/%s, want %s/%s/%s", in.Layout, in.Host, in.Version, c.want.layout, c.want.host, c.want.version)
			}
			if c.want.from != "" {
				realRoot, _ := filepath.EvalSymlinks(root)
				from, _ := filepath.EvalSymlinks(in.VersionFrom)
				if want := filepath.Join(realRoot, filepath.FromSlash(c.want.from)); from != want {
					t.Errorf("version from %s, want %s", from, want)
				}
			}
		})
	}
}

func TestPluginName(t *testing.T) {
	for in, want := range map[string]string{
		"@deepseek-ai/dsh-tool-fs":   "tool-fs",
		"lasmex-tool-fs":             "tool-fs",
		"@deepseek-ai/dsh-plan-mode": "plan-mode",
		"lasmex-tools":               "tools",
	} {
		if got := pluginName(in); got != want {
			t.Errorf("pluginName(%q) = %q, want %q", in, got, want)
		}
	}
}
