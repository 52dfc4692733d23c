package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// TestBadPluginsAreBounded: a plugin that does not bundle, throws while
// loading, registers nothing, or loops while loading (in its module code,
// its apply, or a promise job) ends the command with one clear error naming
// the plugin and the cause, exit 3, never a hang.
func TestBadPluginsAreBounded(t *testing.T) {
	t.Parallel()
	f := testFactory
	f.PluginLimits.Load = 300 * time.Millisecond
	for _, c := range []struct{ name, src, want string }{
		{"does not bundle", "export function apply( {", "bundling: index.js:1:"},
		{"imports what is not there", "import { x } from './missing.js'\nexport function apply() {}", `Could not resolve "./missing.js"`},
		{"throws at load", "throw new Error('no config here')\nexport function apply() {}", "running the bundle: Error: no config here (at "},
		{"apply throws", "export function apply() { throw new TypeError('bad ctx') }", "apply(ctx, config) threw: TypeError: bad ctx"},
		{"registers nothing", "export function apply(ctx) { ctx.memory.list() }", "the plugin defines no tools: apply(ctx, config) registered none with ctx.tools.register(def); it used ctx.memory"},
		{"exports no plugin", "export const answer = 42", "the module exports no Cordis plugin"},
		{"loops at load", "while (true) {}\nexport function apply() {}", "running the bundle: did not finish within 300ms and was stopped"},
		{"loops in apply", "export function apply() { for (;;) {} }", "apply(ctx, config) threw: did not finish within 300ms and was stopped at "},
		{"loops in a promise job", "export async function apply() { for (;;) { await null } }", "apply(ctx, config) threw: did not finish within 300ms and was stopped"},
		{"recurses at load", "function f() { return f() + 1 }\nf()\nexport function apply() {}", "running the bundle: overflowed the stack at " + "${dir}/index.js:1:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			plugin := filepath.Join(dir, "index.js")
			if err := os.WriteFile(plugin, []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			out, errOut, code := cliWith(t, f, nil, "verify", "--plugin", plugin, pluginData+"/logs/todo.jsonl")
			if code != cmdutil.ExitCannot {
				t.Fatalf("exit %d, want %d\n%s%s", code, cmdutil.ExitCannot, out, errOut)
			}
			want := strings.ReplaceAll(c.want, "${dir}", dir)
			lines := strings.Split(strings.TrimSpace(errOut), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "dsh-replay: --plugin "+plugin+": ") || !strings.Contains(lines[0], want) {
				t.Errorf("stderr %q, want one line naming the plugin and %q", errOut, want)
			}
			t.Logf("%v: %s", time.Since(start).Round(time.Millisecond), lines[0])
		})
	}
}
