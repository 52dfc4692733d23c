package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
)

const pluginData = "../testdata/plugins"

func TestVerifyPlugins(t *testing.T) {
	oldB := jsplugin.MemoryBudget
	jsplugin.MemoryBudget = 64 << 20
	defer func() { jsplugin.MemoryBudget = oldB }()
	// The deadline is CPU time: a string that doubles past the budget
	// takes less.
	f := testFactory
	f.PluginLimits.Call = 2 * time.Second
	for _, c := range []struct {
		plugin, log string
		code        int
		classes     string
	}{
		{"todo", "todo", ExitOK, ""},
		{"todo.mjs", "todo", ExitOK, ""},
		{"impure", "impure", ExitDivergence, "impure,impure"},
		{"throws", "throws", ExitDivergence, "render-failed"},
		{"loops", "loops", ExitDivergence, "projector-timeout"},
		{"membomb", "loops", ExitDivergence, "projector-resource"},
	} {
		t.Run(c.plugin, func(t *testing.T) {
			start := time.Now()
			out, errs, code := cliWith(t, f, nil, "verify", "--format", "json", "--plugin", pluginData+"/"+c.plugin, pluginData+"/logs/"+c.log+".jsonl")
			if code != c.code {
				t.Fatalf("exit %d, want %d: %s%s", code, c.code, out, errs)
			}
			r := parseNDJSON(t, out)
			if r.classes() != c.classes {
				t.Errorf("classes %q, want %q", r.classes(), c.classes)
			}
			if c.code == ExitOK && (r.summary["verified"] != float64(4) || r.summary["checkedWithValues"] != float64(4)) {
				t.Errorf("summary %v", r.summary)
			}
			if d := time.Since(start); d > time.Minute {
				t.Errorf("took %v: a looping projector must be stopped", d) // a hang guard, not a speed test
			}
		})
	}
	// A finding names the line and column of the plugin's source.
	out, _, _ := verifyCLI(t, "", pluginData+"/logs/throws.jsonl", "--plugin", pluginData+"/throws")
	if want := "output.render failed: cannot render 1 (thrown at " + pluginData + "/throws/index.js:12:40)"; !strings.Contains(out, want) {
		t.Errorf("no %q in\n%s", want, out)
	}
	out, _, _ = verifyCLI(t, "", pluginData+"/logs/impure.jsonl", "--plugin", pluginData+"/impure")
	if want := "reached for Date.now at " + pluginData + "/impure/index.js:12:79, which"; !strings.Contains(out, want) {
		t.Errorf("no %q in\n%s", want, out)
	}
	// Without the plugin its new tool is not verified; the first-party one is.
	out, _, _ = verifyCLI(t, "", "--format", "json", pluginData+"/logs/todo.jsonl")
	if r := parseNDJSON(t, out); r.summary["unverified"] != float64(2) || strings.Contains(out, "pluginTools") {
		t.Errorf("without --plugin: %v", r.summary)
	}
	// The report says which port a plugin tool replaced.
	out, _, _ = verifyCLI(t, "", "--plugin", pluginData+"/todo", pluginData+"/logs/todo.jsonl")
	if !strings.Contains(out, "plugin tool: todo_write from plugin tool-todo-example ("+pluginData+"/todo), replacing the Go port") ||
		!strings.Contains(out, "plugin tool: word_count from plugin tool-todo-example") || strings.Contains(out, "word_count from plugin tool-todo-example ("+pluginData+"/todo), replacing") {
		t.Errorf("text report:\n%s", out)
	}
	// So do the HTML report and the job summary.
	dir := t.TempDir()
	t.Setenv("GITHUB_STEP_SUMMARY", dir+"/summary.md")
	verifyCLI(t, "", "--format", "github", "--report", "html="+dir+"/r.html", "--plugin", pluginData+"/todo", pluginData+"/logs/todo.jsonl")
	for _, f := range []string{"summary.md", "r.html"} {
		if b := readFile(t, dir+"/"+f); !strings.Contains(b, "from plugin tool-todo-example") {
			t.Errorf("%s does not name the plugin tools", f)
		}
	}
	// --shake re-runs the JavaScript projectors too (in this process and in
	// the perturbed children).
	if out, errs, code := verifyCLI(t, "", "--shake", "2", "--plugin", pluginData+"/todo", pluginData+"/logs/todo.jsonl"); code != ExitOK {
		t.Errorf("--shake: exit %d\n%s%s", code, out, errs)
	}
	// A plugin that cannot load is exit 3 naming it.
	if _, errs, code := verifyCLI(t, "", "--plugin", pluginData+"/nope", pluginData+"/logs/todo.jsonl"); code != ExitCannot || !strings.Contains(errs, "--plugin "+pluginData+"/nope") {
		t.Errorf("missing plugin: exit %d %q", code, errs)
	}
}

func TestToolsPlugin(t *testing.T) {
	out, _, code := goldenCLI(t, "tools", "--plugin", pluginData+"/todo")
	if code != ExitOK || !strings.Contains(out, "word_count  tool-todo-example  render,presentationMeta,presentCall,presentResult") ||
		!strings.Contains(out, "2 tools") || !strings.Contains(out, "todo_write from plugin tool-todo-example ("+pluginData+"/todo), replacing the Go port") {
		t.Errorf("tools --plugin: exit %d\n%s", code, out)
	}
	out, _, _ = goldenCLI(t, "tools", "schema", "word_count", "--plugin", pluginData+"/todo")
	if !strings.Contains(out, `"required": [`) {
		t.Errorf("tools schema:\n%s", out)
	}
}

func TestShowAndGoldenPlugin(t *testing.T) {
	out, _, code := goldenCLI(t, "show", "--no-pager", "--plugin", pluginData+"/todo", pluginData+"/logs/todo.jsonl")
	if code != ExitOK || !strings.Contains(out, "notes: 4 words, 2 lines") || !strings.Contains(out, "● 4 words · 2 lines") {
		t.Errorf("show --plugin: exit %d\n%s", code, out)
	}
	dir := copyTree(t, pluginData+"/logs")
	if _, errs, code := goldenCLI(t, "golden", "update", "--no-review", "--plugin", pluginData+"/todo", dir+"/todo.jsonl"); code != ExitOK {
		t.Fatalf("golden update --plugin: exit %d %s", code, errs)
	}
	if out, _, code := goldenCLI(t, "golden", "check", "--plugin", pluginData+"/todo", dir+"/todo.jsonl"); code != ExitOK {
		t.Errorf("golden check --plugin: exit %d\n%s", code, out)
	}
	// The cards drawn without the plugin differ: check says so.
	if _, _, code := goldenCLI(t, "golden", "check", dir+"/todo.jsonl"); code != ExitDivergence {
		t.Errorf("golden check without the plugin: exit %d", code)
	}
}

// TestPluginFromARecordedDefinition: a real log defines a tool at run time
// (cordis_define with the plugin's code) and calls it from Code Mode. The
// code, loaded as a plugin (a Cordis function plugin), registers through
// the same host calls the stand-in offers (harness.registerTool(ctx,
// harness.defineTool(...))), and its call is then no longer unverified.
func TestPluginFromARecordedDefinition(t *testing.T) {
	t.Parallel()
	log := sharedtest.Dir(t, "fixtures", "lasmex", "scripts", "snapshots", "python-sdk-single-exe", "advanced", "session.jsonl")
	var code string
	_, err := logformat.ReadCalls(log, logformat.Options{}, func(c *logformat.Call) error {
		if c.Name == "cordis_define" && code == "" {
			code = c.Arguments.Get("code").Get("host").Str()
		}
		return nil
	})
	if err != nil || code == "" {
		t.Fatalf("no cordis_define code in %s (%v)", log, err)
	}
	plugin := filepath.Join(t.TempDir(), "defined.js")
	// The host code is a function body returning the plugin, here a
	// function plugin: the module's default export.
	src := "export default (function () {\n" + code + "\n})()\n"
	if err := os.WriteFile(plugin, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code2 := verifyCLI(t, "", "--format", "json", log)
	if code2 != ExitOK || !strings.Contains(out, `"tool":"snapshot_double","projector":"-"`) {
		t.Fatalf("without the plugin snapshot_double is unverified: exit %d %s", code2, errs)
	}
	out, errs, code2 = verifyCLI(t, "", "--format", "json", "--plugin", plugin, log)
	r := parseNDJSON(t, out)
	if code2 != ExitOK || strings.Contains(r.classes(), "no-projector") || r.summary["unverified"] != float64(0) {
		t.Errorf("with the recorded definition as a plugin: exit %d, classes %q, summary %v %s", code2, r.classes(), r.summary, errs)
	}
}

// runPrinted runs a command a report printed ("dsh-replay ARGS..."), as
// printed (the test paths need no quoting).
func runPrinted(t *testing.T, line string) (string, int) {
	t.Helper()
	fields := strings.Fields(line)
	if len(fields) < 2 || fields[0] != "dsh-replay" {
		t.Fatalf("not a dsh-replay command: %q", line)
	}
	out, errs, code := goldenCLI(t, fields[1:]...)
	return out + errs, code
}

// printedAfter is the rest of the first line of out that follows marker.
func printedAfter(t *testing.T, out, marker string) string {
	t.Helper()
	i := strings.Index(out, marker)
	if i < 0 {
		t.Fatalf("no %q in:\n%s", marker, out)
	}
	line, _, _ := strings.Cut(out[i+len(marker):], "\n")
	return line
}

// TestPrintedCommandsLoadTheSameProjectors: the show and regenerate
// commands a run prints carry its --config and --plugin, so what they
// show or write is what the run checked.
func TestPrintedCommandsLoadTheSameProjectors(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfg, []byte(`{"plugins":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	plugin := pluginData + "/impure"
	out, _, code := verifyCLI(t, "", "--config", cfg, "--plugin", plugin, pluginData+"/logs/impure.jsonl")
	show := printedAfter(t, out, "→ see both sides: ")
	if code != ExitDivergence || !strings.HasSuffix(show, " --diff --config "+cfg+" --plugin "+plugin) {
		t.Fatalf("exit %d, show command %q", code, show)
	}
	if got, code := runPrinted(t, show); code != ExitOK || !strings.Contains(got, "stamp") {
		t.Errorf("%s: exit %d\n%s", show, code, got)
	}
	for _, format := range []string{"json", "github", "junit"} {
		out, _, _ := verifyCLI(t, "", "--format", format, "--config", cfg, "--plugin", plugin, pluginData+"/logs/impure.jsonl")
		if !strings.Contains(out, "--diff --config "+cfg+" --plugin "+plugin) {
			t.Errorf("%s report: the show command lacks the flags:\n%s", format, out)
		}
	}
	// A card golden made with the plugin drifts; the regenerate command
	// check prints carries --plugin, and after running it check passes.
	logs := copyTree(t, pluginData+"/logs")
	if _, errs, code := goldenCLI(t, "golden", "update", "--no-review", "--plugin", pluginData+"/todo", logs+"/todo.jsonl"); code != ExitOK {
		t.Fatalf("golden update: exit %d %s", code, errs)
	}
	golden := logs + "/todo.cards.txt"
	if err := os.WriteFile(golden, []byte(readFile(t, golden)+"drift\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := goldenCLI(t, "golden", "check", "--plugin", pluginData+"/todo", logs+"/todo.jsonl")
	regen := "dsh-replay" + printedAfter(t, out+errs, "to regenerate: dsh-replay")
	if code != ExitDivergence || !strings.Contains(regen, "--plugin "+pluginData+"/todo") {
		t.Fatalf("golden check: exit %d, regenerate %q\n%s%s", code, regen, out, errs)
	}
	if got, code := runPrinted(t, regen); code != ExitOK {
		t.Fatalf("%s: exit %d\n%s", regen, code, got)
	}
	if out, _, code := goldenCLI(t, "golden", "check", "--plugin", pluginData+"/todo", logs+"/todo.jsonl"); code != ExitOK {
		t.Errorf("check after the printed regenerate: exit %d\n%s", code, out)
	}
}

// TestSandboxUnsupportedIsUnverified: a plugin projector that uses what the
// sandbox lacks leaves its calls unverified with a warning naming it (exit
// 0), a failure only under --strict.
func TestSandboxUnsupportedIsUnverified(t *testing.T) {
	t.Parallel()
	plugin := filepath.Join(t.TempDir(), "index.js")
	src := `export function apply(ctx) {
  ctx.tools.register({ name: 'word_count', parameters: { type: 'object' }, output: { schema: {},
    render: (args, v) => [{ type: 'text', text: new URLSearchParams('w=' + v.words).get('w') }],
    presentationMeta: (args, v) => ({ host: new URLSearchParams('h=x').get('h') }) } })
}`
	if err := os.WriteFile(plugin, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := verifyCLI(t, "", "--format", "json", "--plugin", plugin, pluginData+"/logs/todo.jsonl")
	r := parseNDJSON(t, out)
	if code != ExitOK || r.classes() != "sandbox-unsupported,sandbox-unsupported,sandbox-unsupported,sandbox-unsupported" || r.summary["unverified"] != float64(2) || r.summary["diverged"] != float64(0) {
		t.Fatalf("exit %d, classes %q, summary %v\n%s", code, r.classes(), r.summary, errs)
	}
	if !strings.Contains(out, `used URLSearchParams at `) || !strings.Contains(out, `"severity":"warning"`) {
		t.Errorf("the finding does not name URLSearchParams as a warning:\n%s", out)
	}
	if _, _, code := verifyCLI(t, "", "--strict", "--plugin", plugin, pluginData+"/logs/todo.jsonl"); code != ExitDivergence {
		t.Errorf("--strict: exit %d, want %d", code, ExitDivergence)
	}
}
