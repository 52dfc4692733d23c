package jsplugin

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/go-sourcemap/sourcemap"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

//go:embed host.js
var hostJS string

//go:embed node.js
var nodeJS string

//go:embed nodemods.js
var nodeModsJS string

// Limits bound the time a plugin's code may run.
type Limits struct {
	// Call bounds one projector or presenter call.
	Call time.Duration
	// Load bounds bundling's output evaluation and apply().
	Load time.Duration
}

// DefaultLimits: goja runs 20-50 times slower than V8 (upstream's
// web_fetch converts a 100 KB page with turndown in about 1 s here, 20 ms
// in Node), so the bounds leave room for that and a loaded machine.
var DefaultLimits = Limits{Call: 10 * time.Second, Load: 10 * time.Second}

func (l Limits) orDefault() Limits {
	if l.Call <= 0 {
		l.Call = DefaultLimits.Call
	}
	if l.Load <= 0 {
		l.Load = DefaultLimits.Load
	}
	return l
}

// maxCallStack bounds a runtime's call depth.
const maxCallStack = 20000

// ImpureError: a projector reached for a global a pure function must not
// use (Date.now, Math.random, fetch, process, a node:* module, ...).
type ImpureError struct {
	Tool, Projector, Global string
	// Why, when set, says how the global depends on the host.
	Why string
	// At is where in the plugin's source (file:line:col), when known.
	At string
}

func (e *ImpureError) Error() string {
	why := e.Why
	if why == "" {
		why = "a pure projector must not use"
	}
	return fmt.Sprintf("%s of plugin tool %q reached for %s%s, which %s", e.Projector, e.Tool, e.Global, at(e.At), why)
}

func at(where string) string {
	if where == "" {
		return ""
	}
	return " at " + where
}

// FindingClass names the verify finding class.
func (e *ImpureError) FindingClass() string { return "impure" }

// TimeoutError: a projector ran past Limits.Call and was interrupted.
type TimeoutError struct {
	Tool, Projector string
	After           time.Duration
	At              string // where it was stopped (file:line:col), when known
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s of plugin tool %q did not return within %v and was stopped%s", e.Projector, e.Tool, e.After, at(e.At))
}

// FindingClass names the verify finding class.
func (e *TimeoutError) FindingClass() string { return "projector-timeout" }

// ResourceError: a projector grew the heap past MemoryBudget and was
// stopped.
type ResourceError struct {
	Tool, Projector string
	Budget          uint64
	At              string // where it was stopped (file:line:col), when known
}

func (e *ResourceError) Error() string {
	return fmt.Sprintf("%s of plugin tool %q grew the heap past its memory budget (%d MiB; %s sets it) and was stopped%s", e.Projector, e.Tool, e.Budget>>20, MemoryEnv, at(e.At))
}

// FindingClass names the verify finding class.
func (e *ResourceError) FindingClass() string { return "projector-resource" }

// UnsupportedError: a projector used something Node gives it that the
// sandbox does not (URL, Buffer, a regular expression with \p{...} or named
// groups, ...): the call cannot be checked, which is not the plugin's fault.
type UnsupportedError struct {
	Tool, Projector, Feature string
	// Why says how the sandbox falls short when it has the feature but
	// cannot match V8 on it; empty: it does not provide it.
	Why string
	At  string // where in the plugin's source, when known
}

func (e *UnsupportedError) Error() string {
	why := e.Why
	if why == "" {
		why = "dsh-replay's JavaScript sandbox does not provide"
	}
	return fmt.Sprintf("%s of plugin tool %q used %s%s, which %s: not verified", e.Projector, e.Tool, e.Feature, at(e.At), why)
}

// FindingClass names the verify finding class.
func (e *UnsupportedError) FindingClass() string { return "sandbox-unsupported" }

// Plugin is a loaded plugin.
type Plugin struct {
	// Path is what was loaded; Name the plugin's name (its exported name,
	// else the file or directory name), under which --config options are
	// looked up.
	Path, Name string
	// StandIn, when set, is why the harness packages installed beside the
	// plugin were not used (they failed to bundle or to load in the
	// sandbox): the stand-in answered for them instead.
	StandIn string
	program *goja.Program
	// codeSize is the bundle's length, from which the memory its program
	// and each runtime keep live is reserved (programBytes, runtimeBytes)
	// through reserve (LoadOptions.Reserve).
	codeSize int
	reserve  func(int64) func()
	lim      Limits
	config   string // JSON of the plugin's options
	defs     []toolDef

	mu      sync.Mutex
	idle    []*vm
	created int
	max     int
	free    *sync.Cond
}

type toolDef struct {
	index                                 int
	name                                  string
	parameters, schema                    jsonv.Value
	render, meta, presentCall, presResult bool
	finalize                              bool
	raw                                   bool // not made by defineTool
}

// vm is one goja runtime with the plugin loaded.
type vm struct {
	rt      *goja.Runtime
	lim     Limits // its plugin's
	call    goja.Callable
	json    goja.Callable // JSON.stringify, for what fromJS leaves to it
	calling bool          // a projector call is running: the traps throw
	impure  string        // the global the current call reached for
	// impureWhy says why, when not simply impure ("depends on the host's
	// time zone").
	impureWhy string
	// unsupported names what the current call used that the sandbox does
	// not provide (URL, a \p{...} regular expression, ...).
	unsupported    string
	unsupportedWhy string // how it falls short, when the sandbox has it
	// clockAt is the instant the clock reads during the call; clockRead
	// names the first clock read (Date.now, Date), empty when none.
	clockAt     float64
	clockRead   string
	clockReadAt string // where, in the plugin's source
}

// Load bundles and loads the plugin at path; cfg supplies its options
// (plugins[<name>]).
func Load(path string, cfg projector.Config) (*Plugin, error) {
	return LoadWith(path, cfg, LoadOptions{})
}

// LoadOptions are what the command decides for a loaded plugin.
type LoadOptions struct {
	// Reserve, when set, makes room beside the soft memory limit for what
	// the plugin's program and runtimes keep live for as long as it is
	// loaded (under a limit below the live heap the collector runs back to
	// back), returning the func that gives it back, or nil. The command
	// passes internal/gctune.Reserve.
	Reserve func(n int64) (release func())
	// Limits bound the plugin's code (zero fields: DefaultLimits).
	Limits Limits
}

// LoadWith is Load with options.
func LoadWith(path string, cfg projector.Config, opts LoadOptions) (*Plugin, error) {
	opts.Limits = opts.Limits.orDefault()
	entry, err := entryPoint(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file or directory", path)
		}
		return nil, err
	}
	if abs, err := filepath.Abs(entry); err == nil {
		entry = abs
	}
	p, v, exported, real, err := load(path, entry, cfg, true, opts)
	var me *moduleError
	if err != nil && real && errors.As(err, &me) {
		// Installed host packages that do not run in the sandbox (I/O at
		// import time, say): the stand-in alone, as for a plugin without
		// node_modules, and StandIn says why.
		if q, w, e, _, err2 := load(path, entry, cfg, false, opts); err2 == nil {
			q.StandIn = err.Error()
			p, v, exported, err = q, w, e, nil
		}
	}
	if err != nil {
		return nil, err
	}
	if exported != "" {
		p.Name = strings.TrimPrefix(strings.TrimPrefix(exported, "dsh-"), "lasmex-")
	}
	p.idle = append(p.idle, v)
	p.created = 1
	return p, nil
}

// load bundles the plugin and makes its first runtime, which reads the
// plugin's name and definitions.
func load(path, entry string, cfg projector.Config, installed bool, opts LoadOptions) (p *Plugin, v *vm, exported string, real bool, err error) {
	b, err := bundle(entry, installed)
	real = b.real
	if err != nil {
		return nil, nil, "", real, fmt.Errorf("%s: %w", path, &moduleError{err})
	}
	prog, err := compileBundle(filepath.Join(filepath.Dir(entry), bundleName), b)
	if err != nil {
		return nil, nil, "", real, fmt.Errorf("%s: %w", path, &moduleError{fmt.Errorf("compiling the bundle: %w", err)})
	}
	// The syntax tree goja compiled from (as large again as the program)
	// is garbage now: collected before the module code runs, its pages
	// take that code's objects instead of fresh ones from the system. In
	// a fresh process that is a gain (tool-goal as a whole command: 238 ->
	// 203 ms, peak 64 -> 51 MB); in a warm one it costs about 5 ms.
	runtime.GC()
	// What the program and its first runtime keep live sits on top of the
	// soft memory limit, which bounds streaming, for as long as the plugin
	// is loaded.
	var release func()
	reserve := opts.Reserve
	if reserve != nil {
		release = reserve(programBytes(len(b.code)))
	}
	p = &Plugin{Path: path, program: prog, codeSize: len(b.code), max: max(runtime.GOMAXPROCS(0), 1), reserve: reserve, lim: opts.Limits}
	p.free = sync.NewCond(&p.mu)
	p.Name = pluginName(path)
	v, exported, err = p.newVM(cfg)
	if err != nil {
		if release != nil {
			release()
		}
		return nil, nil, "", real, fmt.Errorf("%s: %w", path, err)
	}
	releaseWith(p, release)
	return p, v, exported, real, nil
}

// compileBundle compiles the bundle as the program name, its source map
// parsed meanwhile on another core, as are the stand-in host's scripts
// (the first runtime needs them next). The bundle's own name sits beside
// the entry, so that the map's sources resolve against the entry's
// directory and a position the map does not cover (esbuild's helpers) is
// told apart from the plugin's.
func compileBundle(name string, b built) (*goja.Program, error) {
	var srcMap *sourcemap.Consumer
	mapped := make(chan struct{})
	go func() {
		defer close(mapped)
		defer func() { recover() }() // a map that does not parse only costs positions
		if len(b.srcMap) > 0 {
			srcMap, _ = sourcemap.Parse(name, b.srcMap)
		}
		standIn()
	}()
	defer func() { <-mapped }()
	ast, err := parser.ParseFile(nil, name, b.code, 0, parser.WithDisableSourceMaps)
	if err != nil {
		return nil, &goja.CompilerSyntaxError{CompilerError: goja.CompilerError{Message: err.Error()}} // as goja.Compile reports it
	}
	prog, err := goja.CompileAST(ast, true)
	if err != nil {
		return nil, err
	}
	<-mapped
	if srcMap != nil {
		ast.File.SetSourceMap(srcMap) // before any runtime reads a position
	}
	return prog, nil
}

// programBytes and runtimeBytes estimate what a plugin keeps live from a
// bundle of size bytes: its compiled program with the first runtime, and
// each further runtime (measured on upstream's plugins: tool-goal's 0.9 MB
// bundle keeps 29 MB, and 6 MB a runtime; tool-todo's 19 and 8).
func programBytes(size int) int64 { return max(int64(size)*36, 8<<20) }
func runtimeBytes(size int) int64 { return max(int64(size)*10, 4<<20) }

// releaseWith gives back a reservation once what it was made for is
// collected.
func releaseWith[T any](owner *T, release func()) {
	if release != nil {
		runtime.AddCleanup(owner, func(release func()) { release() }, release)
	}
}

// moduleError is a failure to bundle or to run the bundle's module code
// (not the plugin's apply): one the stand-in may get past.
type moduleError struct{ err error }

func (e *moduleError) Error() string { return e.err.Error() }
func (e *moduleError) Unwrap() error { return e.err }

// entryPoint picks the file to bundle: the file itself, or in a directory
// package.json's exports (".": import, module, default, node, require),
// module or main, else src/index.{ts,mts,js,mjs}, index.*, dist/index.*.
func entryPoint(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return filepath.Abs(path)
	}
	if b, err := os.ReadFile(filepath.Join(path, "package.json")); err == nil {
		if v, err := jsonv.Parse(b); err == nil {
			for _, s := range append(exportsEntry(v.Get("exports")), v.Get("module").Str(), v.Get("main").Str()) {
				if s == "" {
					continue
				}
				if _, err := os.Stat(filepath.Join(path, s)); err == nil {
					return filepath.Abs(filepath.Join(path, s))
				}
			}
		}
	}
	for _, c := range []string{"src/index.ts", "src/index.mts", "src/index.js", "src/index.mjs", "index.ts", "index.js", "index.mjs", "dist/index.js", "dist/index.mjs"} {
		if _, err := os.Stat(filepath.Join(path, c)); err == nil {
			return filepath.Abs(filepath.Join(path, c))
		}
	}
	return "", fmt.Errorf("%s: no entry point (package.json main/module, src/index.ts, index.js, dist/index.js)", path)
}

// exportsEntry is the files package.json "exports" names for the package
// itself (".", or the whole field), conditions taken in the field's own
// order as Node does, among those a bundler for Node matches (import,
// module, node, default, require); later candidates follow, for when a
// file is missing.
func exportsEntry(exports jsonv.Value) []string {
	if exports.IsObject() && exports.Has(".") {
		exports = exports.Get(".")
	}
	if exports.IsString() {
		return []string{exports.Str()}
	}
	var out []string
	for _, m := range exports.Members() {
		switch m.Key {
		case "import", "module", "node", "default", "require":
			out = append(out, exportsEntry(m.Value)...)
		}
	}
	return out
}

func pluginName(path string) string {
	base := filepath.Base(path)
	for _, ext := range []string{".mjs", ".js", ".ts", ".mts"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// hostPackage reports whether an import names one of the harness's own
// packages (DSH's @deepseek-ai/dsh-*, Cordis and the rest of its
// @deepseek-ai scope; LasmeX's lasmex-*): installed, it is bundled for
// real; not installed, the stand-in answers for it.
func hostPackage(p string) bool {
	return strings.HasPrefix(p, "@deepseek-ai/") || strings.HasPrefix(p, "lasmex-")
}

// toolsPackage reports whether an import is the package whose defineTool
// a plugin calls: its definitions are marked as made by defineTool.
func toolsPackage(p string) bool { return p == "@deepseek-ai/dsh-tools" || p == "lasmex-tools" }

// nodeBuiltins are Node's built-in modules, built on first use (nothing a
// command may not use is built at start-up).
var nodeBuiltins = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, name := range strings.Fields("assert async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns domain events fs fs/promises http http2 https inspector module net os path path/posix path/win32 perf_hooks process punycode querystring readline repl stream stream/promises string_decoder sys timers timers/promises tls trace_events tty url util util/types v8 vm wasi worker_threads zlib") {
		m[name] = true
	}
	return m
})

// resolving marks esbuild's own resolution of a host package, which the
// sandbox plugin lets through.
type resolving struct{}

// built is a bundle: the IIFE's code and its source map (sources relative
// to the entry's directory), and whether an installed host package was
// bundled for real.
type built struct {
	code, srcMap []byte
	real         bool
}

// bundle runs esbuild: one IIFE whose exports land in __dshPlugin. A host
// package installed where the plugin resolves it (its node_modules, the
// workspace's links, its tsconfig paths) is bundled for real, defineTool
// of the tools package included (wrapped only to mark what it makes); one
// that is not, or every one when installed is false, is the stand-in
// alone.
func bundle(entry string, installed bool) (built, error) {
	dir := cacheDir()
	key := cacheKey(entry, installed)
	if dir != "" {
		if b, ok := cachedBundle(dir, key, entry); ok {
			return b, nil
		}
	}
	var pre map[string]string
	if dir != "" {
		pre = contextBefore(entry)
	}
	b, inputs, read, err := build(entry, installed)
	if afterBuild != nil {
		afterBuild()
	}
	if err == nil && dir != "" {
		for f, sum := range pre {
			if got, ok := read[f]; ok && got != sum {
				return b, nil // changed while it was bundled: not kept
			}
			read[f] = sum
		}
		storeBundle(dir, key, entry, b, inputs, read)
	}
	return b, err
}

// afterBuild, when set, runs between a build and its storing (tests save a
// file there, as an editor might while esbuild runs).
var afterBuild func()

// inputLoader is the loader esbuild would pick for a file it reads itself
// (ok false: one the build leaves to esbuild).
func inputLoader(path string) (l api.Loader, js, ok bool) {
	switch strings.TrimLeft(filepath.Ext(path), ".") {
	case "js", "mjs", "cjs":
		return api.LoaderJS, true, true
	case "ts", "mts", "cts":
		return api.LoaderTS, true, true
	case "tsx":
		return api.LoaderTSX, true, true
	case "jsx":
		return api.LoaderJSX, true, true
	case "json":
		return api.LoaderJSON, false, true
	}
	return api.LoaderNone, false, false
}

var sourceMapComment = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*//[#@][ \t]*sourceMappingURL=([^\s'"]+)[ \t]*$`)
})

// inputMap handles the source map a built input names: a map file beside
// it is read (and tracked, as an input of the bundle); one that does not
// parse is dropped from the source, so that it costs the positions in that
// file and never the plugin.
func inputMap(src []byte, path string, record func(string, []byte)) []byte {
	loc := sourceMapComment().FindAllSubmatchIndex(src, -1)
	if len(loc) == 0 {
		return src
	}
	last := loc[len(loc)-1]
	ref := string(src[last[2]:last[3]])
	if strings.HasPrefix(ref, "data:") {
		return src
	}
	if u, err := url.PathUnescape(ref); err == nil {
		ref = u
	}
	mapPath := filepath.Join(filepath.Dir(path), filepath.FromSlash(ref))
	data, err := readRegular(mapPath)
	if err == nil {
		record(mapPath, data)
		if _, err = sourcemap.Parse(mapPath, data); err == nil && json.Valid(data) {
			return src
		}
	}
	out := append([]byte(nil), src[:last[0]]...)
	return append(out, src[last[1]:]...)
}

// build runs esbuild (bundle without the cache); inputs are the files it
// read.
func build(entry string, installed bool) (b built, inputs []string, read map[string]string, err error) {
	real := false
	builds.Add(1)
	// What esbuild is given is read here and hashed as read: the cache files
	// a bundle under the content it was made from, even when a file is
	// saved while it runs.
	read = map[string]string{}
	var readMu sync.Mutex
	record := func(path string, data []byte) {
		sum := hashBytes(data)
		readMu.Lock()
		read[path] = sum
		readMu.Unlock()
	}
	stubs := api.Plugin{
		Name: "dsh-replay-sandbox",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				switch {
				case strings.HasPrefix(a.Path, "node:"):
					return api.OnResolveResult{Path: strings.TrimPrefix(a.Path, "node:"), Namespace: "dsh-node"}, nil
				case nodeBuiltins()[a.Path]:
					return api.OnResolveResult{Path: a.Path, Namespace: "dsh-node"}, nil
				case hostPackage(a.Path):
					if _, inner := a.PluginData.(resolving); inner {
						return api.OnResolveResult{}, nil // esbuild's own resolution
					}
					if installed {
						r := b.Resolve(a.Path, api.ResolveOptions{Importer: a.Importer, ResolveDir: a.ResolveDir, Kind: a.Kind, PluginData: resolving{}})
						if len(r.Errors) == 0 && r.Path != "" && !r.External && r.Namespace == "file" {
							real = true
							if toolsPackage(a.Path) {
								return api.OnResolveResult{Path: r.Path, Namespace: "dsh-host", PluginData: r.Path}, nil
							}
							se := api.SideEffectsTrue
							if !r.SideEffects {
								se = api.SideEffectsFalse
							}
							return api.OnResolveResult{Path: r.Path, SideEffects: se}, nil
						}
					}
					return api.OnResolveResult{Path: a.Path, Namespace: "dsh-host"}, nil
				}
				return api.OnResolveResult{}, nil
			})
			// import.meta has no value in one IIFE: a module's own URL is
			// written in as Node would give it, and the JSON a module reads
			// with createRequire(import.meta.url)('./x.json') is bundled.
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
				loader, isJS, ok := inputLoader(a.Path)
				if !ok {
					return api.OnLoadResult{}, nil // esbuild's own (hashed after)
				}
				src, err := readRegular(a.Path)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				record(a.Path, src)
				if isJS {
					src = inputMap(src, a.Path, record)
				}
				s := string(src)
				if isJS && strings.Contains(s, "import.meta") {
					s = importMeta(s, a.Path)
				}
				return api.OnLoadResult{Contents: &s, Loader: loader, ResolveDir: filepath.Dir(a.Path)}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "dsh-node"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
				s := fmt.Sprintf("module.exports = globalThis.__dshNodeModule(%q);", a.Path)
				return api.OnLoadResult{Contents: &s, Loader: api.LoaderJS}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "dsh-host"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
				if realPath, ok := a.PluginData.(string); ok {
					q := strconv.Quote(filepath.ToSlash(realPath))
					s := "import { defineTool as real } from " + q + ";\n" +
						"export * from " + q + ";\n" +
						"export function defineTool(options) { return globalThis.__dshMarkDefined(real(options)); }\n"
					return api.OnLoadResult{Contents: &s, Loader: api.LoaderJS, ResolveDir: filepath.Dir(realPath)}, nil
				}
				s := "module.exports = globalThis.__dshHost;"
				return api.OnLoadResult{Contents: &s, Loader: api.LoaderJS}, nil
			})
		},
	}
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{entry},
		Bundle:      true,
		Write:       false,
		Format:      api.FormatIIFE,
		GlobalName:  "__dshPlugin",
		Platform:    api.PlatformNeutral,
		MainFields:  []string{"module", "main"},
		Target:      api.ES2017,
		// x ** y becomes Math.pow(x, y), which node.js watches.
		Supported: map[string]bool{"exponent-operator": false},
		// A finding can name the plugin's own file and line where a
		// projector threw or reached for a global. The map is kept apart
		// from the code (goja would parse an inline one before compiling);
		// its sources are relative to the entry's directory, where goja
		// resolves them from (the program is named beside the entry).
		Outfile:        filepath.Join(filepath.Dir(entry), bundleName),
		Sourcemap:      api.SourceMapExternal,
		SourcesContent: api.SourcesContentExclude,
		AbsWorkingDir:  filepath.Dir(entry),
		Plugins:        []api.Plugin{stubs},
		LogLevel:       api.LogLevelSilent,
		Metafile:       true,
	})
	if len(res.Errors) > 0 {
		var msgs []string
		for _, m := range res.Errors {
			where := ""
			if m.Location != nil {
				where = fmt.Sprintf("%s:%d:%d: ", m.Location.File, m.Location.Line, m.Location.Column+1) // columns from 1, as editors count
			}
			msgs = append(msgs, where+m.Text)
		}
		return built{real: real}, nil, nil, fmt.Errorf("bundling: %s", strings.Join(msgs, "; "))
	}
	b.real = real
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".map") {
			b.srcMap = f.Contents
		} else {
			b.code = f.Contents
		}
	}
	if b.code == nil {
		return b, nil, nil, errors.New("bundling produced no output")
	}
	return b, metafileInputs(res.Metafile, filepath.Dir(entry)), read, nil
}

var (
	createRequireCall = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`createRequire\(\s*import\.meta\.url\s*\)\(\s*('[^'\\\n]*'|"[^"\\\n]*")\s*\)`)
	})
	importMetaRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bimport\.meta\b`) })
)

// importMeta gives a module its import.meta ({url: its file: URL}), and
// turns createRequire(import.meta.url)(literal) into require(literal),
// which esbuild bundles. The binding goes on the first line (after a
// shebang), so that the source map's lines still hold.
func importMeta(src, path string) string {
	src = createRequireCall().ReplaceAllString(src, "require($1)")
	src = importMetaRef().ReplaceAllLiteralString(src, "__dshImportMeta")
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	decl := "var __dshImportMeta = { url: " + strconv.Quote(u) + " };"
	at := 0
	if strings.HasPrefix(src, "#!") {
		if nl := strings.IndexByte(src, '\n'); nl >= 0 {
			at = nl + 1
		} else {
			return src
		}
	}
	return src[:at] + decl + src[at:]
}

// standIn is the stand-in host's scripts, compiled once for every runtime.
var standIn = sync.OnceValues(func() ([]*goja.Program, error) {
	var out []*goja.Program
	for _, js := range []struct{ name, src string }{{"dsh-replay/host.js", hostJS}, {"dsh-replay/node.js", nodeJS}, {"dsh-replay/nodemods.js", nodeModsJS}} {
		prog, err := goja.Compile(js.name, js.src, true)
		if err != nil {
			return nil, fmt.Errorf("compiling the stand-in host (%s): %w", js.name, err)
		}
		out = append(out, prog)
	}
	return out, nil
})

// newVM makes a runtime with the host, runs the bundle and apply(ctx,
// config), and (for the first runtime) reads the tool definitions.
func (p *Plugin) newVM(cfg projector.Config) (v *vm, exported string, err error) {
	// goja panics where a value resists conversion (a Proxy with no
	// string form): that is the plugin's error, not a crash.
	defer func() {
		if r := recover(); r != nil {
			v, exported, err = nil, "", fmt.Errorf("loading failed: %v", r)
		}
	}()
	v = &vm{rt: goja.New(), lim: p.lim}
	rt := v.rt
	rt.SetFieldNameMapper(goja.UncapFieldNameMapper())
	// A runaway recursion stops here rather than exhausting memory (V8
	// stops near 11,000 frames of a small function).
	rt.SetMaxCallStackSize(maxCallStack)
	rt.Set("__dshImpure", func(name, why string) goja.Value {
		if !v.calling {
			return goja.Undefined()
		}
		if v.impure == "" {
			v.impure, v.impureWhy = name, why
		}
		panic(rt.NewGoError(fmt.Errorf("%s is not available to a pure projector", name)))
	})
	stopLoad := watch(rt, p.lim.Load)
	defer func() {
		stopLoad()
		rt.ClearInterrupt()
	}()
	rt.Set("__dshClock", func(name string) goja.Value {
		if !v.calling {
			return goja.Undefined()
		}
		if v.clockRead == "" {
			v.clockRead, v.clockReadAt = name, framesAt(rt.CaptureCallStack(0, nil))
		}
		return rt.ToValue(v.clockAt)
	})
	rt.Set("__dshServices", toJS(rt, cfg.Services))
	rt.Set("__dshUnsupported", func(feature, why string) goja.Value {
		if !v.calling {
			return goja.Undefined()
		}
		if v.unsupported == "" {
			v.unsupported, v.unsupportedWhy = feature, why
		}
		panic(rt.NewGoError(fmt.Errorf("%s is not available in dsh-replay's JavaScript sandbox", feature)))
	})
	installNatives(rt)
	progs, err := standIn()
	if err != nil {
		return nil, "", err
	}
	for _, prog := range progs {
		if _, err := rt.RunProgram(prog); err != nil {
			return nil, "", fmt.Errorf("starting the stand-in host: %w", err)
		}
	}
	if _, err := rt.RunProgram(p.program); err != nil {
		return nil, "", &moduleError{fmt.Errorf("running the bundle: %w", jsError(err, p.lim.Load))}
	}
	mod := rt.Get("__dshPlugin")
	if mod == nil || goja.IsUndefined(mod) || goja.IsNull(mod) {
		return nil, "", errors.New("the bundle exports nothing")
	}
	nameOf, _ := goja.AssertFunction(rt.Get("__dshPluginName"))
	n, err := nameOf(goja.Undefined(), mod)
	if err != nil {
		return nil, "", jsError(err, p.lim.Load)
	}
	exported = stringOf(n)
	// The first runtime (made by Load, before any concurrent use) settles
	// the options; later ones only read them.
	if p.config == "" {
		name := p.Name
		if exported != "" {
			name = strings.TrimPrefix(strings.TrimPrefix(exported, "dsh-"), "lasmex-")
		}
		opts := cfg.Plugin(name)
		if opts.IsUndefined() {
			opts = jsonv.Obj()
		}
		p.config = jsonv.Encode(opts)
	}
	config, err := rt.RunString("(" + p.config + ")")
	if err != nil {
		return nil, "", err
	}
	apply, _ := goja.AssertFunction(rt.Get("__dshApply"))
	applied, err := apply(goja.Undefined(), mod, config)
	if err != nil {
		return nil, "", fmt.Errorf("apply(ctx, config) threw: %w", jsError(err, p.lim.Load))
	}
	// The promise jobs have run (goja runs them as the call returns): an
	// async apply that rejected is a load failure too.
	res := applied.ToObject(rt)
	if fails := res.Get("failures").ToObject(rt); fails.Get("length").ToInteger() > 0 {
		return nil, "", fmt.Errorf("apply(ctx, config) rejected: %s", strings.TrimSpace(stringOf(fails.Get("0"))))
	}
	touched := res.Get("touched")
	unsettled := 0
	if f, ok := goja.AssertFunction(res.Get("unsettled")); ok {
		if n, err := f(goja.Undefined()); err == nil {
			unsettled = int(n.ToInteger())
		}
	}
	call, ok := goja.AssertFunction(rt.Get("__dshCall"))
	if !ok {
		return nil, "", errors.New("stand-in host broken: no __dshCall")
	}
	v.call = call
	v.json, _ = goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("stringify"))
	if p.defs == nil {
		if err := p.readDefs(rt, touched.String(), unsettled); err != nil {
			return nil, "", err
		}
	}
	return v, exported, nil
}

// readDefs reads the registered definitions; touched names the ctx
// members the plugin used that the stand-in does not model, for the error
// when none was registered.
func (p *Plugin) readDefs(rt *goja.Runtime, touched string, unsettled int) error {
	tools := rt.Get("__dshTools").ToObject(rt)
	n := int(tools.Get("length").ToInteger())
	if n == 0 && unsettled > 0 {
		// The sandbox has no timers, I/O or events: what it awaits never
		// comes, and the tools it would register after it never are.
		return errors.New("apply(ctx, config) never settles: the promise it returned is still pending once every job has run (it awaits something the sandbox never provides: a timer, I/O, an event), and it registered no tools before that")
	}
	if n == 0 {
		msg := "the plugin defines no tools: apply(ctx, config) registered none with ctx.tools.register(def)"
		if touched != "" {
			msg += "; it used ctx." + strings.ReplaceAll(touched, " ", ", ctx.") + ", which the stand-in host leaves inert"
		}
		return errors.New(msg)
	}
	defined, _ := goja.AssertFunction(rt.Get("__dshDefined"))
	stringify, _ := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("stringify"))
	asJSON := func(v goja.Value) (jsonv.Value, error) {
		s, err := stringify(goja.Undefined(), v)
		if err != nil {
			return jsonv.Value{}, err
		}
		if goja.IsUndefined(s) {
			return jsonv.Value{}, nil
		}
		return jsonv.ParseString(s.String())
	}
	isFn := func(o *goja.Object, k string) bool {
		if o == nil {
			return false
		}
		_, ok := goja.AssertFunction(o.Get(k))
		return ok
	}
	for i := 0; i < n; i++ {
		t := tools.Get(fmt.Sprint(i)).ToObject(rt)
		name, isStr := t.Get("name").Export().(string)
		if !isStr {
			return fmt.Errorf("tool %d registered has no string name (%s)", i+1, stringOf(t.Get("name")))
		}
		d := toolDef{index: i, name: name}
		var err error
		if d.parameters, err = asJSON(t.Get("parameters")); err != nil {
			return fmt.Errorf("tool %q: parameters: %w", d.name, err)
		}
		var out *goja.Object
		if o := t.Get("output"); o != nil && !goja.IsUndefined(o) {
			out = o.ToObject(rt)
			if d.schema, err = asJSON(out.Get("schema")); err != nil {
				return fmt.Errorf("tool %q: output schema: %w", d.name, err)
			}
		}
		d.render, d.meta = isFn(out, "render"), isFn(out, "presentationMeta")
		d.presentCall, d.presResult = isFn(t, "presentCall"), isFn(t, "presentResult")
		d.finalize = isFn(t, "finalizeContent")
		// Presenters of a definition not made by defineTool are not
		// soft-validated.
		isDefined, _ := defined(goja.Undefined(), t)
		d.raw = !isDefined.ToBoolean()
		p.defs = append(p.defs, d)
	}
	return nil
}

// thrownMessage is upstream's message of a thrown value: Error.message,
// else an object's string message, else String(thrown).
func thrownMessage(err error) string {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		if o, ok := ex.Value().(*goja.Object); ok {
			if m := o.Get("message"); m != nil && !goja.IsUndefined(m) {
				if _, isStr := m.Export().(string); isStr {
					return m.String()
				}
			}
		}
		return stringOf(ex.Value())
	}
	return err.Error()
}

// stringOf is String(v), or a placeholder when v has no string form
// (goja panics then).
func stringOf(v goja.Value) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = "(a value with no string form)"
		}
	}()
	if v == nil {
		return "undefined"
	}
	return v.String()
}

// jsError is a thrown value as an error, with where in the plugin's
// sources (or its dependencies') it was thrown, when known.
func jsError(err error, limit time.Duration) error {
	var stopped *goja.InterruptedError
	if errors.As(err, &stopped) {
		msg := fmt.Sprintf("did not finish within %v and was stopped", limit)
		if where := sourceAt(err); where != "" {
			msg += " at " + where
		}
		return errors.New(msg)
	}
	var overflow *goja.StackOverflowError
	if errors.As(err, &overflow) {
		msg := "overflowed the stack"
		if where := sourceAt(err); where != "" {
			msg += " at " + where
		}
		return errors.New(msg)
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		msg := strings.TrimSpace(stringOf(ex.Value()))
		if where := sourceAt(err); where != "" {
			msg += " (at " + where + ")"
		}
		return errors.New(msg)
	}
	return err
}

// get borrows a runtime (one per goroutine at a time: goja is not safe for
// concurrent use), making one when all are busy and fewer than max exist.
func (p *Plugin) get(cfg projector.Config) (*vm, error) {
	p.mu.Lock()
	for len(p.idle) == 0 && p.created >= p.max {
		p.free.Wait()
	}
	if n := len(p.idle); n > 0 {
		v := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return v, nil
	}
	p.created++
	p.mu.Unlock()
	var release func()
	if p.reserve != nil {
		release = p.reserve(runtimeBytes(p.codeSize))
	}
	v, _, err := p.newVM(cfg)
	if err != nil {
		if release != nil {
			release()
		}
		p.mu.Lock()
		p.created--
		p.free.Signal()
		p.mu.Unlock()
		return nil, err
	}
	releaseWith(v, release)
	return v, nil
}

func (p *Plugin) put(v *vm) {
	p.mu.Lock()
	p.idle = append(p.idle, v)
	p.free.Signal()
	p.mu.Unlock()
}

// invoke runs one projector of tool d: which is render, presentationMeta,
// presentCall or presentResult. It returns the undefined Value for
// undefined and for a value that is not lossless JSON.
func (p *Plugin) invoke(cfg projector.Config, d *toolDef, which string, args, second jsonv.Value) (jsonv.Value, error) {
	v, err := p.get(cfg)
	if err != nil {
		return jsonv.Value{}, err
	}
	defer p.put(v)
	rt := v.rt
	out, bad, err := v.run(d, which, args, second, clockA)
	if err == nil && v.clockRead != "" {
		// It read the clock: run it again at another instant, and only an
		// answer that moved is impure.
		read, at := v.clockRead, v.clockReadAt
		out2, bad2, err2 := v.run(d, which, args, second, clockB)
		if err2 != nil || bad2 != bad || jsonv.Encode(out2) != jsonv.Encode(out) || out2.IsDefined() != out.IsDefined() {
			if err2 != nil && !isClockFree(err2) {
				return jsonv.Value{}, err2
			}
			return jsonv.Value{}, &ImpureError{Tool: d.name, Projector: which, Global: read, At: at, Why: "its answer depends on"}
		}
	}
	if err != nil {
		return jsonv.Value{}, err
	}
	// A number of the input goja writes wrongly, found in the output's
	// text: the digits are goja's, not what Node would have written.
	if out.IsDefined() {
		if ms := misprints(rt, second, misprints(rt, args, nil)); len(ms) > 0 {
			if m, ok := printed(out, ms); ok {
				return jsonv.Value{}, &UnsupportedError{Tool: d.name, Projector: which,
					Feature: "the number " + m.Right + " in text", Why: "goja writes as " + m.Wrong + " where V8 writes " + m.Right}
			}
		}
	}
	if bad && which == "finalizeContent" {
		// Upstream turns the outcome into an error result.
		return jsonv.Value{}, &projector.Throw{Message: "finalizeContent returned non-lossless content"}
	}
	// Not lossless JSON reads as undefined, which the contract reports as
	// "returned non-lossless JSON" for render and presentationMeta.
	return out, nil
}

// The instants the clock reads in a projector call (2026-01-01T00:00:00Z,
// and 400 days and 12.345 s later).
const (
	clockA = 1767225600000
	clockB = clockA + 400*86400000 + 12345
)

// MemoryBudget bounds how far the Go heap may grow during one projector
// call (or a plugin's load) before the call is stopped as
// projector-resource: goja has no allocation accounting, so a watchdog
// samples the heap while the call runs. The heap is the process's, so the
// budget is generous (other logs are read meanwhile); $DSH_REPLAY_PLUGIN_MEMORY
// (MiB) overrides it.
var MemoryBudget = memoryBudget()

// DefaultMemoryBudget is MemoryBudget's default: 256 MiB.
const DefaultMemoryBudget = 256 << 20

// MemoryEnv names the variable that sets MemoryBudget in MiB.
const MemoryEnv = "DSH_REPLAY_PLUGIN_MEMORY"

func memoryBudget() uint64 {
	if n, err := strconv.ParseUint(os.Getenv(MemoryEnv), 10, 32); err == nil && n > 0 {
		return n << 20
	}
	return DefaultMemoryBudget
}

// memTick is how often the watchdog samples the heap: a string that
// doubles reaches a GB in well under a second.
const memTick = 2 * time.Millisecond

// heapBytes is the heap the program's objects occupy (live or not yet
// swept); reading it does not stop the world.
func heapBytes(sample []metrics.Sample) uint64 {
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

// Why a watch stopped a call.
const (
	stopDeadline = "deadline"
	stopMemory   = "memory"
)

// watch interrupts rt once the running call has used limit of CPU time
// (the thread's own, where the system tells it; wall time elsewhere), or
// ten times that in wall time, so that a busy machine does not stop a slow
// but finite projector; or once the heap has grown by MemoryBudget since
// it began. stop ends the watch and says why it fired ("" when it did
// not).
func watch(rt *goja.Runtime, limit time.Duration) (stop func() string) {
	read, release := threadCPU()
	var start time.Duration
	if read != nil {
		start = read()
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap0 := heapBytes(sample)
	began := time.Now()
	var fired atomic.Value
	fired.Store("")
	done, exited := make(chan struct{}), make(chan struct{})
	tick := min(max(limit/20, time.Millisecond), 50*time.Millisecond)
	go func() {
		defer close(exited)
		t := time.NewTicker(min(tick, memTick))
		defer t.Stop()
		lastCPU := began
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				if h := heapBytes(sample); h > heap0 && h-heap0 > MemoryBudget {
					fired.Store(stopMemory)
					rt.Interrupt(fmt.Sprintf("the heap grew past the plugin memory budget (%d MiB)", MemoryBudget>>20))
					return
				}
				if now.Sub(lastCPU) < tick {
					continue
				}
				lastCPU = now
				wall := time.Since(began)
				used := wall
				if read != nil {
					used = read() - start
				}
				if used >= limit || wall >= 10*limit {
					fired.Store(stopDeadline)
					rt.Interrupt("deadline")
					return
				}
			}
		}
	}()
	return func() string {
		close(done)
		<-exited // no interrupt lands after the watch
		release()
		why := fired.Load().(string)
		if why == stopMemory {
			// What the call built is garbage now: give it back before the
			// next call (or the next log) needs the room.
			debug.FreeOSMemory()
		}
		return why
	}
}

// isClockFree reports whether a second run's failure is one of the traps
// (which the first run would have met too): anything else is returned.
func isClockFree(err error) bool {
	var te *TimeoutError
	var ie *ImpureError
	var ue *UnsupportedError
	return !errors.As(err, &te) && !errors.As(err, &ie) && !errors.As(err, &ue)
}

// run makes one projector call with the clock at the given instant.
func (v *vm) run(d *toolDef, which string, args, second jsonv.Value, at float64) (jsonv.Value, bool, error) {
	rt := v.rt
	v.calling, v.impure, v.impureWhy, v.unsupported, v.unsupportedWhy = true, "", "", "", ""
	v.clockAt, v.clockRead = at, ""
	stop := watch(rt, v.lim.Call)
	secondJS := goja.Null()
	if second.IsDefined() {
		secondJS = toJS(rt, second)
	}
	res, err := v.call(goja.Undefined(), rt.ToValue(d.index), rt.ToValue(which), toJS(rt, args), secondJS)
	// The answer is read while the traps and the deadline still hold: a
	// getter in the returned value is projector code.
	var out jsonv.Value
	var bad bool
	if err == nil {
		out, bad, err = v.result(res)
	}
	stopped := stop()
	rt.ClearInterrupt()
	v.calling = false
	switch {
	case v.impure != "":
		return jsonv.Value{}, false, &ImpureError{Tool: d.name, Projector: which, Global: v.impure, Why: v.impureWhy, At: sourceAt(err)}
	case v.unsupported != "":
		return jsonv.Value{}, false, &UnsupportedError{Tool: d.name, Projector: which, Feature: v.unsupported, Why: v.unsupportedWhy, At: sourceAt(err)}
	case stopped == stopMemory:
		return jsonv.Value{}, false, &ResourceError{Tool: d.name, Projector: which, Budget: MemoryBudget, At: sourceAt(err)}
	case stopped == stopDeadline:
		return jsonv.Value{}, false, &TimeoutError{Tool: d.name, Projector: which, After: v.lim.Call, At: sourceAt(err)}
	case err != nil:
		msg := thrownMessage(err)
		var overflow *goja.StackOverflowError
		if errors.As(err, &overflow) {
			msg = "Maximum call stack size exceeded" // V8's RangeError
		}
		return jsonv.Value{}, false, &projector.Throw{Message: msg, At: sourceAt(err)}
	}
	return out, bad, nil
}

// result reads __dshCall's answer: the value (undefined for undefined),
// or bad for one that is not lossless JSON. An exception raised while
// reading it (a getter that throws) is returned as err.
func (v *vm) result(res goja.Value) (out jsonv.Value, bad bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, isErr := r.(error)
			if !isErr {
				panic(r)
			}
			out, bad, err = jsonv.Value{}, false, e
		}
	}()
	o := res.ToObject(v.rt)
	if u := o.Get("u"); u != nil && u.ToBoolean() {
		return jsonv.Value{}, false, nil
	}
	if b := o.Get("bad"); b != nil && b.ToBoolean() {
		return jsonv.Value{}, true, nil
	}
	if j := o.Get("j"); j != nil {
		out, err = jsonv.ParseString(j.String())
		return out, false, err
	}
	val := o.Get("v")
	if out, ok := fromJS(val); ok {
		return out, false, nil
	}
	text, err := v.json(goja.Undefined(), val)
	if err != nil {
		return jsonv.Value{}, false, err
	}
	out, err = jsonv.ParseString(text.String())
	return out, false, err
}

// Tools are the plugin's tool definitions as projector tools.
func (p *Plugin) Tools(cfg projector.Config) []*projector.Tool {
	var out []*projector.Tool
	for i := range p.defs {
		d := &p.defs[i]
		t := &projector.Tool{Name: d.name, Plugin: p.Name, Parameters: d.parameters, RawPresenters: d.raw}
		if !t.Parameters.IsObject() {
			t.Parameters = jsonv.MustParse(`{"type":"object","properties":{}}`)
		}
		if d.render {
			t.Output = &projector.Output{Schema: d.schema}
			if !t.Output.Schema.IsDefined() {
				t.Output.Schema = jsonv.Obj()
			}
			t.Output.Render = func(args, value jsonv.Value) (jsonv.Value, error) {
				return p.invoke(cfg, d, "render", args, value)
			}
			if d.meta {
				t.Output.PresentationMeta = func(args, value jsonv.Value) (jsonv.Value, error) {
					return p.invoke(cfg, d, "presentationMeta", args, value)
				}
			}
		}
		if d.finalize {
			t.FinalizeContent = func(args, value jsonv.Value, r projector.Result) jsonv.Value {
				v, err := p.invoke(cfg, d, "finalizeContent", args, resultObject(r, value))
				if err != nil {
					panic(err)
				}
				if !v.IsDefined() {
					return r.Content // undefined keeps the content
				}
				return v
			}
		}
		if d.presentCall {
			t.PresentCall = func(args jsonv.Value) jsonv.Value {
				v, err := p.invoke(cfg, d, "presentCall", args, jsonv.Value{})
				if err != nil {
					panic(err)
				}
				return v
			}
		}
		if d.presResult {
			t.PresentResult = func(args jsonv.Value, r projector.Result) jsonv.Value {
				v, err := p.invoke(cfg, d, "presentResult", args, resultObject(r, jsonv.Value{}))
				if err != nil {
					panic(err)
				}
				return v
			}
		}
		out = append(out, t)
	}
	return out
}

// resultObject is the result a presenter or finalizer receives: {content,
// isError, meta?} (presentResult gets no value; finalizeContent gets the
// frozen result, value included).
func resultObject(r projector.Result, value jsonv.Value) jsonv.Value {
	ms := []jsonv.Member{jsonv.M("content", r.Content), jsonv.M("isError", jsonv.BoolValue(r.IsError))}
	if value.IsDefined() {
		ms = append(ms, jsonv.M("value", value))
	}
	if r.Meta.IsDefined() {
		ms = append(ms, jsonv.M("meta", r.Meta))
	}
	return jsonv.Obj(ms...)
}

// bundleName names the bundle's program.
const bundleName = "<dsh-replay bundle>.js"

// sourceAt is where in the plugin's own files a JavaScript error arose:
// the innermost frame that maps to one (not the stand-in host, nor a
// node:* stub), as file:line:col of the original source.
func sourceAt(err error) string {
	var st interface{ Stack() []goja.StackFrame }
	if !errors.As(err, &st) {
		return ""
	}
	return framesAt(st.Stack())
}

// framesAt is sourceAt for a captured call stack.
func framesAt(frames []goja.StackFrame) string {
	for _, f := range frames {
		p := f.Position()
		if p.Filename == "" || p.Line == 0 || strings.HasPrefix(p.Filename, "dsh-") {
			continue
		}
		if filepath.Base(p.Filename) == bundleName {
			continue // esbuild's own code
		}
		// A source-mapped column counts from 0.
		name, col := p.Filename, p.Column+1
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, name); err == nil && len(rel) < len(name) {
				name = rel // from where the user stands
			}
		}
		return fmt.Sprintf("%s:%d:%d", name, p.Line, col)
	}
	return ""
}

// installNatives gives node.js the Go it calls: V8's number formatting,
// fdlibm's logarithms and exponential, and JSON.parse through jsonv.
func installNatives(rt *goja.Runtime) {
	rt.Set("__dshNumfmt", numfmt)
	rt.Set("__dshFdlibm", fdlibmCall)
	rt.Set("__dshParseJSON", func(text goja.Value) goja.Value {
		val, err := jsonv.ParseString(escapeLoneSurrogates(wtf8(text)))
		if err != nil {
			ctor, _ := goja.AssertConstructor(rt.Get("SyntaxError"))
			e, _ := ctor(nil, rt.ToValue(err.Error()))
			panic(e)
		}
		return toJS(rt, val)
	})
}
