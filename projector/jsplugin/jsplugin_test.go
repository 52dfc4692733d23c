package jsplugin_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
	"github.com/dsh-replay/dsh-replay/replay"
)

const plugins = "../../testdata/plugins"

// shortCalls bounds a projector call tightly, for the tests of code that
// never ends.
var shortCalls = jsplugin.Limits{Call: 100 * time.Millisecond}

func load(t testing.TB, name string, lim ...jsplugin.Limits) (*jsplugin.Plugin, map[string]*projector.Tool) {
	t.Helper()
	p, err := jsplugin.LoadWith(filepath.Join(plugins, name), projector.Config{}, jsplugin.LoadOptions{Limits: append(lim, jsplugin.Limits{})[0]})
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*projector.Tool{}
	for _, tool := range p.Tools(projector.Config{}) {
		tools[tool.Name] = tool
	}
	return p, tools
}

func js(s string) jsonv.Value { return jsonv.MustParse(s) }

func TestPurePlugin(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"todo", "todo.mjs"} { // the TypeScript source and the built ESM file
		t.Run(src, func(t *testing.T) {
			p, tools := load(t, src)
			if p.Name != "tool-todo-example" || len(tools) != 2 {
				t.Fatalf("plugin %q with %d tools", p.Name, len(tools))
			}
			wc := tools["word_count"]
			content, err := wc.RunRender(js(`{"text":"a b","label":"doc"}`), js(`{"words":2,"lines":1}`))
			if err != nil || jsonv.Encode(content) != `[{"type":"text","text":"doc: 2 words, 1 lines"}]` {
				t.Errorf("render: %s %v", jsonv.Encode(content), err)
			}
			meta, ok, err := wc.RunPresentationMeta(js(`{"text":""}`), js(`{"words":0,"lines":1}`))
			if !ok || err != nil || jsonv.Encode(meta) != `{"words":0,"lines":1}` {
				t.Errorf("meta: %s %v %v", jsonv.Encode(meta), ok, err)
			}
			view, err := wc.CallView(js(`{"text":"x","label":"a"}`))
			if err != nil || jsonv.Encode(view) != `{"card":"generic","title":"Count words in a","kind":"read"}` {
				t.Errorf("presentCall: %s %v", jsonv.Encode(view), err)
			}
			// defineTool's soft validation: text is required.
			if view, err := wc.CallView(js(`{"label":"a"}`)); err != nil || view.IsDefined() {
				t.Errorf("soft validation: %s %v", jsonv.Encode(view), err)
			}
			res, err := wc.ResultView(js(`{"text":"x"}`), projector.Result{Content: js(`[]`), Meta: js(`{"words":1,"lines":1}`)})
			if err != nil || jsonv.Encode(res) != `{"card":"generic","title":"1 words · 1 lines"}` {
				t.Errorf("presentResult: %s %v", jsonv.Encode(res), err)
			}
			if res, _ := wc.ResultView(js(`{"text":"x"}`), projector.Result{Content: js(`[]`)}); res.IsDefined() {
				t.Errorf("presentResult without meta returns a view: %s", jsonv.Encode(res))
			}
		})
	}
}

// The value schema DSL compiles as upstream's does: the example's
// todo_write parameters (written after upstream's tool-todo) equal the Go port's, byte
// for byte.
func TestDSLCompilesLikeThePort(t *testing.T) {
	t.Parallel()
	_, tools := load(t, "todo")
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	port := reg.Lookup("todo_write")
	if got, want := jsonv.Encode(tools["todo_write"].Parameters), jsonv.Encode(port.Parameters); got != want {
		t.Errorf("parameters\n got %s\nwant %s", got, want)
	}
	if got, want := jsonv.Encode(tools["todo_write"].Output.Schema), jsonv.Encode(port.Output.Schema); got != want {
		t.Errorf("output schema\n got %s\nwant %s", got, want)
	}
}

func TestImpurePlugin(t *testing.T) {
	t.Parallel()
	_, tools := load(t, "impure")
	_, err := tools["stamp"].RunRender(js(`{"note":"n"}`), js(`"ok"`))
	var f *projector.Failure
	if !errors.As(err, &f) || f.Class != "impure" || !strings.Contains(f.Message, "Date.now") {
		t.Errorf("render: %#v", err)
	}
	_, err = tools["stamp"].CallView(js(`{"note":"n"}`))
	if !errors.As(err, &f) || f.Class != "impure" || !strings.Contains(f.Message, "Math.random") {
		t.Errorf("presentCall: %#v", err)
	}
}

func TestThrowingPlugin(t *testing.T) {
	t.Parallel()
	_, tools := load(t, "throws")
	_, err := tools["broken"].RunRender(js(`{"x":1}`), js(`{}`))
	var f *projector.Failure
	if !errors.As(err, &f) || f.Class != "" || f.Message != `tool "broken" returned invalid output: output.render failed: cannot render 1` {
		t.Errorf("render: %#v", err)
	}
}

func TestLoopingPlugin(t *testing.T) {
	t.Parallel()
	_, tools := load(t, "loops", shortCalls)
	_, err := tools["spin"].RunRender(js(`{}`), js(`{}`))
	var f *projector.Failure
	if !errors.As(err, &f) || f.Class != "projector-timeout" {
		t.Fatalf("render: %#v", err)
	}
	// The runtime is usable again after the interrupt.
	_, err = tools["spin"].RunRender(js(`{}`), js(`{}`))
	if !errors.As(err, &f) || f.Class != "projector-timeout" {
		t.Errorf("second render: %#v", err)
	}

}

// writePlugin writes a one-file plugin whose render runs body.
func writePlugin(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	src := `import { defineTool } from '@deepseek-ai/dsh-tools'
import * as fs from 'node:fs'
import path from 'path'
export function apply(ctx) {
  ctx.tools.register(defineTool({
    name: 'probe',
    parameters: {},
    output: { schema: { type: 'json' }, render: (args, value) => { ` + body + ` } },
  }))
}
`
	p := filepath.Join(dir, "index.ts")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSandboxGlobals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ body, global string }{
		{`return [{type:'text', text: new Date().toISOString()}]`, "Date"},
		{`return [{type:'text', text: Date()}]`, "Date"},
		{`return [{type:'text', text: String(Date.now())}]`, "Date.now"},
		{`return [{type:'text', text: String(Math.random())}]`, "Math.random"},
		{`fetch('http://127.0.0.1/'); return []`, "fetch"},
		{`return [{type:'text', text: process.env.HOME}]`, "process"},
		{`setTimeout(() => {}, 1); return []`, "setTimeout"},
		{`return [{type:'text', text: fs.readFileSync('/etc/hostname', 'utf8')}]`, "node:fs.readFileSync"},
		{`return [{type:'text', text: path.resolve('a', 'b')}]`, "node:path.resolve of a relative path"},
		{`require('child_process').execSync('ls'); return []`, "node:child_process.execSync"},
		{`return [{type:'text', text: new Date(0).toString()}]`, "Date.prototype.toString"},
		{`return [{type:'text', text: 'at ' + new Date(0)}]`, "Date.prototype.toString"},
		{`return [{type:'text', text: String(new Date(0).getHours())}]`, "Date.prototype.getHours"},
		{`return [{type:'text', text: String(new Date(2020, 0, 1).valueOf())}]`, "new Date(year, month, ...)"},
		{`return [{type:'text', text: (1234.5).toLocaleString()}]`, "Number.prototype.toLocaleString"},
		{`return [{type:'text', text: ['b', 'a'].sort((x, y) => x.localeCompare(y)).join()}]`, "String.prototype.localeCompare"},
		{`return [{type:'text', text: new Intl.NumberFormat('en').format(1)}]`, "Intl"},
	} {
		p, err := jsplugin.Load(writePlugin(t, c.body), projector.Config{})
		if err != nil {
			t.Fatalf("%s: %v", c.global, err)
		}
		_, err = p.Tools(projector.Config{})[0].RunRender(js(`{}`), js(`{}`))
		var f *projector.Failure
		if !errors.As(err, &f) || f.Class != "impure" || !strings.Contains(f.Message, "reached for "+c.global+" at ") || !strings.Contains(f.Message, "index.ts:8:") {
			t.Errorf("%s: %v", c.global, err)
		}
	}
	// The message says why: plain impurity, or what of the host it depends on.
	for body, want := range map[string]string{
		`return [{type:'text', text: String(Math.random())}]`:          `reached for Math.random at %s, which a pure projector must not use`,
		`return [{type:'text', text: String(new Date(0).getHours())}]`: `reached for Date.prototype.getHours at %s, which depends on the host's time zone`,
		`return [{type:'text', text: (1).toLocaleString()}]`:           `reached for Number.prototype.toLocaleString at %s, which depends on the host's locale`,
	} {
		path := writePlugin(t, body)
		p, err := jsplugin.Load(path, projector.Config{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Tools(projector.Config{})[0].RunRender(js(`{}`), js(`{}`))
		var f *projector.Failure
		// %s is the call's place: line 8, the column where it sits.
		before, after, _ := strings.Cut(want, "%s")
		re := regexp.MustCompile(regexp.QuoteMeta(before+path+":8:") + `\d+` + regexp.QuoteMeta(after) + `$`)
		if !errors.As(err, &f) || !re.MatchString(f.Message) {
			t.Errorf("%s: %v, want %s", body, err, re)
		}
	}
	// What is pure stays allowed: a date from a number in UTC, JSON, Math.
	p, err := jsplugin.Load(writePlugin(t, `return [{type:'text', text: new Date(0).toISOString() + ' ' + new Date(Date.UTC(2020, 1, 3)).getUTCDate() + new Date('2020-01-02T03:04:05Z').getUTCHours() + ' ' + Math.max(1, 2) + JSON.stringify({a: [1], d: new Date(1)})}]`), projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	content, err := p.Tools(projector.Config{})[0].RunRender(js(`{}`), js(`{}`))
	if err != nil || jsonv.Encode(content) != `[{"type":"text","text":"1970-01-01T00:00:00.000Z 33 2{\"a\":[1],\"d\":\"1970-01-01T00:00:00.001Z\"}"}]` {
		t.Errorf("pure code: %s %v", jsonv.Encode(content), err)
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct{ file, src, want string }{
		{"syntax.js", "export function apply( {", "bundling"},
		{"none.js", "export const name = 'x'", "the module exports no Cordis plugin"},
		{"empty.js", "export function apply() {}", "the plugin defines no tools"},
		{"throws.js", "export function apply() { throw new Error('no') }", "apply(ctx, config) threw: Error: no"},
	} {
		p := filepath.Join(dir, c.file)
		os.WriteFile(p, []byte(c.src), 0o644)
		if _, err := jsplugin.Load(p, projector.Config{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.file, err, c.want)
		}
	}
	if _, err := jsplugin.Load(filepath.Join(dir, "missing"), projector.Config{}); err == nil {
		t.Error("missing path loads")
	}
}

// Replay workers call projectors from many goroutines; each borrows its
// own runtime.
func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	_, tools := load(t, "todo")
	wc := tools["word_count"]
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				v := jsonv.Obj(jsonv.M("words", jsonv.Int(g*100+i)), jsonv.M("lines", jsonv.Int(1)))
				content, err := wc.RunRender(js(`{"text":"x"}`), v)
				want := `[{"type":"text","text":"text: ` + jsonv.Encode(jsonv.Int(g*100+i)) + ` words, 1 lines"}]`
				if err != nil || jsonv.Encode(content) != want {
					t.Errorf("goroutine %d call %d: %s %v", g, i, jsonv.Encode(content), err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

// FuzzPluginProjectors: any arguments and value reach the JavaScript
// projectors without a panic escaping; a result is lossless JSON or a
// contained failure.
func FuzzPluginProjectors(f *testing.F) {
	f.Add(`{"text":"a b","label":"x"}`, `{"words":2,"lines":1}`)
	f.Add(`{"todos":[]}`, `{"todos":[],"counts":{"pending":0,"inProgress":0,"completed":0}}`)
	f.Add(`"str"`, `[1,2]`)
	f.Add(`{"text":"\ud800"}`, `{"words":1e400}`)
	_, tools := load(f, "todo")
	f.Fuzz(func(t *testing.T, a, v string) {
		args, err1 := jsonv.ParseString(a)
		value, err2 := jsonv.ParseString(v)
		if err1 != nil || err2 != nil {
			return
		}
		for _, tool := range tools {
			if c, err := tool.RunRender(args, value); err == nil && !projector.IsLossless(c) {
				t.Fatalf("%s render returned %s", tool.Name, jsonv.Encode(c))
			}
			tool.CallView(args)
			tool.ResultView(args, projector.Result{Content: value, Meta: value})
		}
	})
}

// The cost of one call through JavaScript against the Go port of the same
// tool: todo_write, verified end to end (schema, render, presenters).
func BenchmarkVerifyCallTodo(b *testing.B) {
	call := todoCall(b)
	goReg, err := builtin.Registry(projector.Config{})
	if err != nil {
		b.Fatal(err)
	}
	jsReg, err := builtin.Registry(projector.Config{})
	if err != nil {
		b.Fatal(err)
	}
	_, tools := load(b, "todo")
	if _, err := jsReg.Replace(tools["todo_write"]); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		reg  *projector.Registry
	}{{"go-port", goReg}, {"js-plugin", jsReg}} {
		eng := replay.NewEngine(c.reg, replay.Options{})
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				rs := eng.VerifyCall(call)
				if rs[0].Status != replay.Verified || !rs[0].HasValue {
					b.Fatalf("%+v", rs[0])
				}
			}
		})
	}
}

func todoCall(b testing.TB) *logformat.Call {
	var call *logformat.Call
	_, err := logformat.ReadCalls(filepath.Join(plugins, "logs", "todo.jsonl"), logformat.Options{DecodeValues: true}, func(c *logformat.Call) error {
		if call == nil {
			cc := *c
			call = &cc
		}
		return nil
	})
	if err != nil || call == nil {
		b.Fatal(err)
	}
	return call
}

// loadSource loads a one-file plugin with the given source.
func loadSource(t *testing.T, src string, cfg projector.Config) (*jsplugin.Plugin, error) {
	t.Helper()
	return loadSourceWith(t, jsplugin.Limits{}, src, cfg)
}

func loadSourceWith(t *testing.T, lim jsplugin.Limits, src string, cfg projector.Config) (*jsplugin.Plugin, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "index.js")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return jsplugin.LoadWith(p, cfg, jsplugin.LoadOptions{Limits: lim})
}

const echoTool = `defineTool({ name: 'echo', parameters: { s: { type: 'string', required: true } },
  output: { schema: { type: 'string' }, render: (args, v) => [{ type: 'text', text: CONFIG + v }] } })`

// TestPluginForms: the plugin shapes Cordis applies, as it applies them
// (the loader's unwrapping: the default export, else the module; a
// callback with a prototype constructed, any other called without this;
// Config's standard-schema validate first; ctx.plugin, ctx.inject, an
// async apply) and the ways a plugin reaches the tools service all
// register the tool, with its options.
func TestPluginForms(t *testing.T) {
	t.Parallel()
	head := "import { defineTool } from '@deepseek-ai/dsh-tools'\nlet CONFIG = ''\n"
	for _, c := range []struct{ name, src string }{
		{"namespace apply", `export const name = 'forms'
export function apply(ctx, config) { CONFIG = config.prefix; ctx.tools.register(` + echoTool + `) }`},
		{"default object", `export default { name: 'forms', inject: ['tools'], apply(ctx, config) { CONFIG = config.prefix; ctx.tools.register(` + echoTool + `) } }`},
		{"default function", `export const name = 'forms'
export default (ctx, config) => { CONFIG = config.prefix; ctx.get('tools').register(` + echoTool + `) }`},
		{"default class", `export const name = 'forms'
export default class Forms { constructor(ctx, config) { CONFIG = config.prefix; ctx.tools.register(` + echoTool + `) } }`},
		{"default plain function, constructed", `export const name = 'forms'
export default function Forms(ctx, config) { if (!(this instanceof Forms)) throw new Error('called, not constructed'); CONFIG = config.prefix; ctx.tools.register(` + echoTool + `) }`},
		{"object method, called without this", `export default { name: 'forms', apply(ctx, config) { if (this !== undefined) throw new Error('this is bound'); CONFIG = config.prefix; ctx.tools.register(` + echoTool + `) } }`},
		{"default export wins over the module's apply", `export const name = 'forms'
export function apply() { throw new Error('the namespace was applied') }
export default { name: 'forms', apply(ctx, config) { CONFIG = config.prefix; ctx.tools.register(` + echoTool + `) } }`},
		{"Config validated first", `export const name = 'forms'
export const Config = { '~standard': { version: 1, vendor: 'test', validate: (c) => ({ value: { prefix: c.prefix + c.prefix } }) } }
export function apply(ctx, config) { CONFIG = config.prefix.slice(2); ctx.tools.register(` + echoTool + `) }`},
		{"ctx.inject child", `export const name = 'forms'
export function apply(ctx, config) { ctx.inject(['fs'], (inner) => { CONFIG = config.prefix; inner.tools.register(` + echoTool + `) }) }`},
		{"async apply", `export const name = 'forms'
export async function apply(ctx, config) { await null; CONFIG = config.prefix; ctx.tools.register(` + echoTool + `) }`},
		{"when a root agent is created", `export const name = 'forms'
export function apply(ctx, config) { ctx.on('agent/created', ({ agent }) => { CONFIG = config.prefix; agent.ctx.effect(() => agent.ctx.tools.register(` + echoTool + `)) }) }`},
		{"on a continuable subagent", `export const name = 'forms'
export function apply(ctx, config) { ctx.subagents.registerContinuableSetup((child) => { CONFIG = config.prefix; child.tools.register(` + echoTool + `) }) }`},
		{"the tools service's own Code Mode transport", `export const name = 'forms'
export default class ToolRuntime { constructor(ctx, config) { this.prefix = config.prefix } requireCodeTransport() { CONFIG = this.prefix; return ` + echoTool + ` } }`},
		{"a stub service's limits at load", `export const name = 'forms'
export function apply(ctx, config) { if (1 > ctx.memory.limits.maxResults || ctx.get('codeRuntime') !== undefined) throw new Error('limits'); CONFIG = config.prefix; ctx.tools.register(` + echoTool + `) }`},
		{"child plugin", `export const name = 'forms'
const child = { apply(ctx, config) { CONFIG = config.prefix; ctx.tools.register(` + echoTool + `) } }
export function apply(ctx, config) { ctx.plugin(child, config) }`},
		{"effect", `export const name = 'forms'
export function apply(ctx, config) { CONFIG = config.prefix; ctx.effect(() => ctx.tools.register(` + echoTool + `)) }`},
	} {
		cfg := projector.Config{Plugins: js(`{"forms":{"prefix":"> "}}`)}
		p, err := loadSource(t, head+c.src, cfg)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		tools := p.Tools(cfg)
		if len(tools) != 1 || tools[0].Name != "echo" || tools[0].RawPresenters {
			t.Errorf("%s: tools %v", c.name, tools)
			continue
		}
		if p.Name != "forms" {
			t.Errorf("%s: name %q", c.name, p.Name)
		}
		content, err := tools[0].RunRender(js(`{"s":"x"}`), js(`"hi"`))
		if err != nil || jsonv.Encode(content) != `[{"type":"text","text":"> hi"}]` {
			t.Errorf("%s: render %s %v", c.name, jsonv.Encode(content), err)
		}
	}
}

// TestToolsService: registration follows the tools service's contract
// (a disposer that unregisters; duplicates and run_code refused), get and
// schemas see what is registered, and a definition not made by defineTool
// keeps its JSON schema and unvalidated presenters.
func TestToolsService(t *testing.T) {
	t.Parallel()
	raw := `export function apply(ctx) {
  const gone = ctx.tools.register({ name: 'gone', parameters: { type: 'object', properties: {} }, output: { schema: {}, render: () => [] } })
  gone()
  ctx.tools.register({ name: 'raw', description: 'd', parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    output: { schema: { type: 'number' }, render: (a, v) => [{ type: 'text', text: String(v) }] },
    presentCall: (args) => ({ card: 'generic', kind: 'other', title: 'raw ' + JSON.stringify(args) }) })
  if (ctx.tools.get('raw') === undefined || ctx.tools.get('gone') !== undefined) throw new Error('get')
  const s = ctx.tools.schemas()
  if (s.length !== 1 || s[0].name !== 'raw' || s[0].presentCall !== undefined) throw new Error('schemas ' + JSON.stringify(s))
  if (ctx.tools.executionMode({ name: 'raw', arguments: {} }) !== 'exclusive') throw new Error('executionMode')
  ctx.tools.presentAs('code')(); ctx.tools.restrict({ deny: ['x'] })(); ctx.tools.guard(() => undefined)()
}`
	p, err := loadSource(t, raw, projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	tools := p.Tools(projector.Config{})
	if len(tools) != 1 || tools[0].Name != "raw" || !tools[0].RawPresenters {
		t.Fatalf("tools %v", tools)
	}
	if got := jsonv.Encode(tools[0].Parameters); got != `{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}` {
		t.Errorf("parameters %s", got)
	}
	// No soft validation: the presenter sees arguments the schema rejects.
	view, err := tools[0].RunPresentCall(js(`{"n":"not a number"}`))
	if err != nil || jsonv.Encode(view) != `{"card":"generic","kind":"other","title":"raw {\"n\":\"not a number\"}"}` {
		t.Errorf("presentCall %s %v", jsonv.Encode(view), err)
	}
	for _, c := range []struct{ src, want string }{
		{`export function apply(ctx) { ctx.tools.register({ name: 'a', output: { render() {} } }); ctx.tools.register({ name: 'a', output: { render() {} } }) }`, "tool \"a\" is already registered (for a per-agent variant, register through that agent's `agent.ctx` instead)"},
		{`export function apply(ctx) { ctx.tools.register({ name: 'run_code', output: { render() {} } }) }`, `tool name "run_code" is reserved for the Code Mode presentation transport`},
		{`export function apply(ctx) { ctx.tools.register({ name: 'a' }) }`, `TypeError: tool "a" must declare output { schema, render, presentationMeta? }`},
		{`export function apply(ctx) { ctx.tools.register({ name: 'a', output: { render() {}, presentationMeta: 1 } }) }`, `tool "a" must declare output`},
		{`export function apply(ctx) { ctx.tools.register({ name: 'a', timeoutMs: -1, output: { render() {} } }) }`, `TypeError: tool "a" timeoutMs must be a positive finite number`},
		{`export function apply(ctx) { ctx.tool({ name: 'a' }); ctx.registerTool({ name: 'b' }) }`, "it used ctx.tool, ctx.registerTool, which the stand-in host leaves inert"},
		{`export const Config = {}`, "the module exports no Cordis plugin (a default export, or an apply(ctx, config) export): its module is object"},
		{`export default 42`, "its default export is number"},
		{`export function apply(ctx) { ctx.plugin(42) }`, `invalid plugin, expect function or object with an "apply" method, received number`},
		{`export const Config = { '~standard': { validate: () => ({ issues: [{ message: 'x is required', path: ['x'] }] }) } }
export function apply() {}`, "ValidationError: invalid config:\n  - x is required (at x)"},
		{`export async function apply() { await null; throw new Error('late') }`, "apply(ctx, config) rejected: Error: late"},
		{`import { registerTool } from '@deepseek-ai/dsh-tools'
export function apply(ctx) { registerTool(ctx, { name: 'a' }) }`, "the plugin defines no tools"}, // the harness exports no registerTool
	} {
		if _, err := loadSource(t, c.src, projector.Config{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}

// TestToolsServiceMembers: the stand-in's tools service has every method
// LasmeX's Cordis inspector lists for the real one (a recorded
// cordis_inspect_query of the tools service).
func TestToolsServiceMembers(t *testing.T) {
	t.Parallel()
	log := sharedtest.Dir(t, "fixtures", "lasmex", "examples", "acp-agent", "tests", "snapshots", "cordis-inspect-jsdoc", "session.jsonl")
	var methods []string
	_, err := logformat.ReadCalls(log, logformat.Options{}, func(c *logformat.Call) error {
		if c.Name != "cordis_inspect_query" || len(methods) > 0 {
			return nil
		}
		for _, b := range c.Content.Elems() {
			v, err := jsonv.ParseString(b.Get("text").Str())
			if err != nil || v.Get("data").Get("service").Get("key").Str() != "tools" {
				continue
			}
			for _, m := range v.Get("data").Get("service").Get("methods").Elems() {
				sig := strings.TrimPrefix(m.Get("signature").Str(), "async ")
				methods = append(methods, sig[:strings.IndexByte(sig, '(')])
			}
		}
		return nil
	})
	if err != nil || len(methods) == 0 {
		t.Fatalf("no tools service description in %s (%v)", log, err)
	}
	src := `const want = ` + jsonv.Encode(jsonv.Strs(methods...)) + `
export function apply(ctx) {
  const missing = want.filter((m) => typeof ctx.tools[m] !== 'function' || ctx.tools[m] !== ctx.get('tools')[m])
  ctx.tools.register({ name: 'missing:' + missing.join(','), output: { render() {} } })
}`
	p, err := loadSource(t, src, projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Tools(projector.Config{})[0].Name; got != "missing:" {
		t.Errorf("the stand-in's tools service lacks %s (upstream lists %v)", strings.TrimPrefix(got, "missing:"), methods)
	}
	t.Logf("upstream's tools service methods: %v", methods)
}

// TestValuesReachJSAsJSONParseMakesThem: a lone surrogate and a number
// past the double range reach the projector as in Node (the string kept,
// Infinity), and what it returns comes back exactly.
func TestValuesReachJSAsJSONParseMakesThem(t *testing.T) {
	t.Parallel()
	p, err := loadSource(t, `export function apply(ctx) {
  ctx.tools.register({ name: 'echo', parameters: { type: 'object' }, output: { schema: {},
    render: (args, v) => [{ type: 'text', text: args.s + '|' + args.s.length + '|' + String(v.n) + '|' + Object.keys(v.o).join() }] } })
}`, projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	content, err := p.Tools(projector.Config{})[0].RunRender(js(`{"s":"a\ud800"}`), js(`{"n":1e400,"o":{"b":1,"2":1,"a":1,"1":1}}`))
	if want := `[{"type":"text","text":"a\ud800|2|Infinity|1,2,b,a"}]`; err != nil || jsonv.Stringify(content) != want {
		t.Errorf("render = %s %v, want %s", jsonv.Stringify(content), err, want)
	}
}

// TestFinalizeContent: a plugin tool's finalizeContent runs on render's
// content as upstream's finish step does (exec with the arguments, the
// frozen result with the value), and what it returns is what the log
// records; undefined keeps the content, a throw is a render failure.
func TestFinalizeContent(t *testing.T) {
	p, err := loadSource(t, `export function apply(ctx) {
  ctx.tools.register({ name: 'capped', parameters: { type: 'object' },
    output: { schema: {}, render: (args, v) => [{ type: 'text', text: v.text }] },
    finalizeContent(exec, result) {
      if (exec.arguments.keep) return undefined
      if (exec.arguments.boom) throw new Error('no cap')
      if (exec.signal.aborted || exec.name !== 'capped' || result.isError) throw new Error('bad exec')
      return [{ type: 'text', text: result.content[0].text.slice(0, exec.arguments.max) + '[' + result.value.text.length + ']' + JSON.stringify(result.meta) }]
    } })
}`, projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	tool := p.Tools(projector.Config{})[0]
	for _, c := range []struct{ args, meta, want, err string }{
		{`{"max":3}`, ``, `[{"type":"text","text":"abc[6]undefined"}]`, ""},
		{`{"max":3}`, `{"m":1}`, `[{"type":"text","text":"abc[6]{\"m\":1}"}]`, ""},
		{`{"keep":true}`, ``, `[{"type":"text","text":"abcdef"}]`, ""},
		{`{"boom":true}`, ``, ``, "no cap"},
	} {
		r := projector.Result{Content: js(`[{"type":"text","text":"abcdef"}]`)}
		if c.meta != "" {
			r.Meta = js(c.meta)
		}
		got, err := tool.RunFinalizeContent(js(c.args), js(`{"text":"abcdef"}`), r)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err %v, want %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil || jsonv.Encode(got) != c.want {
			t.Errorf("%s: %s %v, want %s", c.args, jsonv.Encode(got), err, c.want)
		}
	}
}

// TestSourceLocations: a throw, an impure call and a stopped loop name the
// line and column of the plugin's own source, TypeScript included (the
// bundle carries a source map), counted from 1 as editors do.
func TestSourceLocations(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := `import { defineTool } from '@deepseek-ai/dsh-tools'
interface Args { mode: string }
type Value = { n: number }
function shout(v: Value): string {
  if (v.n < 0) throw new Error('negative')
  return String(v.n)
}
export function apply(ctx: any) {
  ctx.tools.register(defineTool({
    name: 'where', parameters: { mode: { type: 'string', required: true } },
    output: { schema: { type: 'json' }, render: (args: Args, v: Value) => {
      if (args.mode === 'clock') return [{ type: 'text', text: String(Date.now()) }]
      if (args.mode === 'spin') { while (true) {} }
      return [{ type: 'text', text: shout(v) }]
    } },
  }))
}
`
	if err := os.WriteFile(filepath.Join(dir, "index.ts"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := jsplugin.LoadWith(filepath.Join(dir, "index.ts"), projector.Config{}, jsplugin.LoadOptions{Limits: shortCalls})
	if err != nil {
		t.Fatal(err)
	}
	tool := p.Tools(projector.Config{})[0]
	file := filepath.Join(dir, "index.ts")
	for _, c := range []struct{ args, value, want string }{
		{`{"mode":"x"}`, `{"n":-1}`, file + ":5:22"},       // new Error, inside shout
		{`{"mode":"clock"}`, `{}`, " at " + file + ":12:"}, // Date.now()
		{`{"mode":"spin"}`, `{}`, "stopped at " + file + ":1"},
	} {
		_, err := tool.RunRender(js(c.args), js(c.value))
		var f *projector.Failure
		if !errors.As(err, &f) {
			t.Fatalf("%s: %v", c.args, err)
		}
		if got := f.At + "|" + f.Message; !strings.Contains(got, c.want) {
			t.Errorf("%s: at %q, message %q; want %q", c.args, f.At, f.Message, c.want)
		}
	}
}

// TestResultsWithGetters: a returned value is read under the same traps and
// deadline as the projector (a getter is projector code), and unusual
// values (a Proxy, a key with a lone surrogate) come back exactly.
func TestResultsWithGetters(t *testing.T) {
	t.Parallel()
	p, err := loadSourceWith(t, shortCalls, `export function apply(ctx) {
  ctx.tools.register({ name: 'odd', parameters: { type: 'object' }, output: { schema: {},
    render: (args) => {
      const text = { get text() { if (args.m === 'throw') throw new Error('getter broke'); if (args.m === 'clock') return String(Date.now()); if (args.m === 'spin') for (;;) {} return 'got' } }
      if (args.m === 'proxy') return new Proxy([{ type: 'text', text: 'p' }], {})
      if (args.m === 'key') return [{ type: 'text', text: 'k', ['\ud800']: 1 }]
      // lossless() reads a value once, and JSON.stringify once more.
      if (args.m === 'second') { let n = 0; return [{ type: 'text', get text() { if (n++) throw new Error('second read'); return 'x' } }] }
      return [Object.assign({ type: 'text' }, { get text() { return text.text } })]
    } } })
}`, projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	tool := p.Tools(projector.Config{})[0]
	for _, c := range []struct{ mode, want, class, msg string }{
		{"plain", `[{"type":"text","text":"got"}]`, "", ""},
		{"proxy", `[{"type":"text","text":"p"}]`, "", ""},
		{"key", `[{"type":"text","text":"k","\ud800":1}]`, "", ""},
		{"throw", "", "", "getter broke"},
		{"second", "", "", "second read"},
		{"clock", "", "impure", "Date.now"},
		{"spin", "", "projector-timeout", "stopped"},
	} {
		content, err := tool.RunRender(js(`{"m":"`+c.mode+`"}`), jsonv.NullValue())
		if c.want != "" {
			if err != nil || jsonv.Stringify(content) != c.want {
				t.Errorf("%s: %s %v, want %s", c.mode, jsonv.Stringify(content), err, c.want)
			}
			continue
		}
		var f *projector.Failure
		if !errors.As(err, &f) || f.Class != c.class || !strings.Contains(f.Message, c.msg) {
			t.Errorf("%s: %v, want class %q with %q", c.mode, err, c.class, c.msg)
		}
	}
}

// TestEntryPointFromExports: a package directory is entered where its
// package.json "exports" points, as a bundler resolves the package.
func TestEntryPointFromExports(t *testing.T) {
	t.Parallel()
	for _, exports := range []string{
		`"./lib/entry.js"`,
		`{".": "./lib/entry.js"}`,
		`{".": {"types": "./lib/entry.d.ts", "import": "./lib/entry.js", "require": "./lib/nope.cjs"}, "./package.json": "./package.json"}`,
		`{"node": {"import": "./lib/entry.js"}, "default": "./lib/other.js"}`, // the first matching condition wins
	} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "lib"), 0o755)
		os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"x","main":"./index.js","exports":`+exports+`}`), 0o644)
		os.WriteFile(filepath.Join(dir, "index.js"), []byte(`export function apply() {}`), 0o644)
		os.WriteFile(filepath.Join(dir, "lib", "entry.js"), []byte(`export function apply(ctx) { ctx.tools.register({ name: 'from_exports', parameters: { type: 'object' }, output: { render() {} } }) }`), 0o644)
		os.WriteFile(filepath.Join(dir, "lib", "other.js"), []byte(`export function apply(ctx) { ctx.tools.register({ name: 'wrong_condition', parameters: { type: 'object' }, output: { render() {} } }) }`), 0o644)
		p, err := jsplugin.Load(dir, projector.Config{})
		if err != nil || p.Tools(projector.Config{})[0].Name != "from_exports" {
			t.Errorf("exports %s: %v", exports, err)
		}
	}
}

// TestInstalledHostPackages: a harness package installed beside the plugin
// is bundled for real, defineTool included (what it makes is marked, so its
// presenters are soft-validated as defineTool's); one that cannot run in
// the sandbox leaves the stand-in alone, as for a plugin without
// node_modules, and StandIn says why.
func TestInstalledHostPackages(t *testing.T) {
	t.Parallel()
	write := func(dir, rel, src string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plugin := `import { defineTool, shout } from '@deepseek-ai/dsh-tools'
export function apply(ctx) {
  ctx.tools.register(defineTool({ name: 'loud', parameters: { s: { type: 'string', required: true } },
    output: { schema: { type: 'string' }, render: (args, v) => [{ type: 'text', text: shout(v) === 'HI!' ? 'helper' : 'no helper' }] } }))
}
`
	pkg := `{"name":"@deepseek-ai/dsh-tools","version":"0.0.0","main":"index.js"}`
	real := `export function shout(s) { return s.toUpperCase() + '!' }
export function defineTool(o) {
  return { ...o, parameters: { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] },
    output: { schema: { type: 'string' }, render: (a, v) => o.output.render(a, v).concat([{ type: 'text', text: 'real defineTool' }]) } }
}
`
	for _, c := range []struct{ name, index, want, standIn string }{
		{"the installed package runs", real, "helper|real defineTool", ""},
		{"throws at import", real + "throw new Error('needs a real Node')\n", "no helper", "running the bundle: Error: needs a real Node"},
		{"does not bundle", "export function defineTool(", "no helper", "bundling: "},
	} {
		dir := t.TempDir()
		write(dir, "index.js", plugin)
		write(dir, "node_modules/@deepseek-ai/dsh-tools/package.json", pkg)
		write(dir, "node_modules/@deepseek-ai/dsh-tools/index.js", c.index)
		p, err := jsplugin.Load(dir, projector.Config{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if c.standIn == "" && p.StandIn != "" || !strings.Contains(p.StandIn, c.standIn) {
			t.Errorf("%s: StandIn %q, want %q", c.name, p.StandIn, c.standIn)
		}
		tool := p.Tools(projector.Config{})[0]
		content, err := tool.RunRender(js(`{"s":"x"}`), js(`"hi"`))
		var texts []string
		for _, b := range content.Elems() {
			texts = append(texts, b.Get("text").Str())
		}
		if got := strings.Join(texts, "|"); err != nil || got != c.want || tool.RawPresenters {
			t.Errorf("%s: %q %v (raw %v), want %q", c.name, got, err, tool.RawPresenters, c.want)
		}
	}
}
