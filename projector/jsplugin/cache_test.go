package jsplugin

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

func mustJS(s string) jsonv.Value { return jsonv.MustParse(s) }

// TestBundleCache: a second load of an unchanged plugin does not run
// esbuild; a changed input, package manifest or a file added beside an
// input rebundles; a cache that is corrupt, or cannot be written, is passed
// over without an error.
func TestBundleCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("DSH_REPLAY_CACHE_DIR", cache)
	dir := t.TempDir()
	write := func(rel, src string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name":"cached","main":"index.js"}`)
	write("index.js", `import { label } from './lib/label.js'
export function apply(ctx) { ctx.tools.register({ name: 'c', parameters: { type: 'object' }, output: { schema: {}, render: () => [{ type: 'text', text: label }] } }) }`)
	write("lib/label.js", `export const label = 'one'`)
	load := func(want string) int64 {
		t.Helper()
		before := builds.Load()
		p, err := Load(dir, projector.Config{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.Tools(projector.Config{})[0].RunRender(mustJS(`{}`), mustJS(`null`))
		if err != nil || out.At(0).Get("text").Str() != want {
			t.Fatalf("render %v %v, want %q", out, err, want)
		}
		return builds.Load() - before
	}
	if n := load("one"); n != 1 {
		t.Errorf("first load: %d builds, want 1", n)
	}
	if n := load("one"); n != 0 {
		t.Errorf("second load: %d builds, want 0 (cached)", n)
	}
	entries, _ := os.ReadDir(cache)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 3 || strings.Contains(strings.Join(names, " "), ".tmp-") {
		t.Errorf("cache holds %v, want one bundle, its map and its manifest", names)
	}
	write("lib/label.js", `export const label = 'two'`)
	if n := load("two"); n != 1 {
		t.Errorf("after an input changed: %d builds, want 1", n)
	}
	write("package.json", `{"name":"cached","main":"index.js","version":"2"}`)
	if n := load("two"); n != 1 {
		t.Errorf("after the manifest changed: %d builds, want 1", n)
	}
	// A file added beside an input moves its directory's time (on some
	// file systems only to the next tick).
	time.Sleep(10 * time.Millisecond)
	write("lib/other.js", `export const x = 1`)
	if n := load("two"); n != 1 {
		t.Errorf("after a file was added beside an input: %d builds, want 1", n)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".js") {
			os.WriteFile(filepath.Join(cache, e.Name()), []byte("garbage"), 0o644)
		}
	}
	if n := load("two"); n != 1 {
		t.Errorf("corrupt cache: %d builds, want 1", n)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".map") {
			os.WriteFile(filepath.Join(cache, e.Name()), []byte("{}"), 0o644)
		}
	}
	if n := load("two"); n != 1 {
		t.Errorf("corrupt source map: %d builds, want 1", n)
	}
	// A cache that cannot be written (a file where the directory should be).
	blocked := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocked, nil, 0o644)
	t.Setenv("DSH_REPLAY_CACHE_DIR", filepath.Join(blocked, "bundles"))
	if n := load("two"); n != 1 {
		t.Errorf("unwritable cache: %d builds, want 1", n)
	}
	t.Setenv("DSH_REPLAY_CACHE_DIR", "off")
	if n := load("two") + load("two"); n != 2 {
		t.Errorf("cache off: %d builds, want 2", n)
	}
}

// TestBundleCacheStamps: an input modified well before it was hashed is
// vouched for by its size and modification time, and not read again; one
// modified just before (a same-size write in the same clock tick would
// look the same) is hashed on every check, so the write is seen.
func TestBundleCacheStamps(t *testing.T) {
	t.Setenv("DSH_REPLAY_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	entry := filepath.Join(dir, "index.js")
	src := `export function apply(ctx) { ctx.tools.register({ name: 's', parameters: { type: 'object' }, output: { schema: {}, render: () => [{ type: 'text', text: 'AAA' }] } }) }`
	if err := os.WriteFile(entry, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func() (hashes int64, ok bool) {
		before := hashed.Load()
		_, ok = cachedBundle(cacheDir(), cacheKey(entry, true), entry)
		return hashed.Load() - before, ok
	}
	if _, err := bundle(entry, true); err != nil {
		t.Fatal(err)
	}
	if n, ok := check(); !ok || n != 3 {
		t.Errorf("fresh input: cached %v after %d hashes, want the input, code and map hashed", ok, n)
	}
	if err := os.WriteFile(entry, []byte(strings.Replace(src, "AAA", "BBB", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := check(); ok {
		t.Error("a same-size write just after hashing was not seen")
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(entry, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := bundle(entry, true); err != nil {
		t.Fatal(err)
	}
	if n, ok := check(); !ok || n != 2 {
		t.Errorf("old input: cached %v after %d hashes, want only code and map hashed", ok, n)
	}
	if err := os.WriteFile(entry, []byte(src+" "), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := check(); ok {
		t.Error("a changed size was not seen")
	}
}

// TestPluginReservesMemory: a loaded plugin's program and runtimes have
// room reserved beside the soft memory limit (LoadOptions.Reserve: under a
// limit below the live heap the collector ran back to back, 23 upstream
// plugins took 245 s instead of 2), and the reservation is given back once
// the plugin is collected.
func TestPluginReservesMemory(t *testing.T) {
	const base = 72 << 20
	var reserved atomic.Int64
	reserve := func(n int64) func() {
		reserved.Add(n)
		var once sync.Once
		return func() { once.Do(func() { reserved.Add(-n) }) }
	}
	limit := func() int64 { return base + reserved.Load() }
	load := func() int64 {
		p, err := LoadWith(filepath.Join("..", "..", "testdata", "plugins", "todo.mjs"), projector.Config{}, LoadOptions{Reserve: reserve})
		if err != nil {
			t.Fatal(err)
		}
		return programBytes(p.codeSize)
	}
	want := load()
	if got := limit(); got != base+want {
		t.Fatalf("limit with the plugin loaded %d, want %d", got, base+want)
	}
	// The cleanup runs on its own goroutine after a collection finds the
	// plugin unreachable.
	for i := 0; i < 1000 && limit() != base; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := limit(); got != base {
		t.Errorf("limit after the plugin was collected %d, want %d", got, int64(base))
	}
}

// cacheFixture is a plugin whose render returns lib/label.js's label, and
// a load that checks it and counts the builds.
func cacheFixture(t *testing.T) (dir string, write func(rel, src string), load func(want string) int64) {
	t.Helper()
	dir = t.TempDir()
	write = func(rel, src string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name":"cached","main":"index.js"}`)
	write("index.js", `import { label } from './lib/label.js'
export function apply(ctx) { ctx.tools.register({ name: 'c', parameters: { type: 'object' }, output: { schema: {}, render: () => [{ type: 'text', text: label }] } }) }`)
	write("lib/label.js", `export const label = 'one'`)
	load = func(want string) int64 {
		t.Helper()
		before := builds.Load()
		p, err := Load(dir, projector.Config{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.Tools(projector.Config{})[0].RunRender(mustJS(`{}`), mustJS(`null`))
		if err != nil || out.At(0).Get("text").Str() != want {
			t.Fatalf("render %v %v, want %q", out, err, want)
		}
		return builds.Load() - before
	}
	return dir, write, load
}

// TestBundleCacheSaveDuringBundling: a file saved while esbuild runs (after
// it read the file) is never served from the old bundle: the bundle is
// keyed by what was read, and one whose inputs moved is not kept. Before,
// the manifest hashed the new content and the old bundle ran for ever.
func TestBundleCacheSaveDuringBundling(t *testing.T) {
	t.Setenv("DSH_REPLAY_CACHE_DIR", t.TempDir())
	_, write, load := cacheFixture(t)
	afterBuild = func() { write("lib/label.js", `export const label = 'two'`) }
	n := load("one") // what esbuild read
	afterBuild = nil
	if n != 1 {
		t.Errorf("first load: %d builds", n)
	}
	if n := load("two"); n != 1 {
		t.Errorf("after the save: %d builds, want 1 (the old bundle must not be served)", n)
	}
	if n := load("two"); n != 0 {
		t.Errorf("then: %d builds, want 0 (cached)", n)
	}
}

// TestBundleCacheInputMaps: the source map a built input names is an
// input of the bundle (a new one rebundles), and a garbled one costs
// positions only: the plugin loads.
func TestBundleCacheInputMaps(t *testing.T) {
	t.Setenv("DSH_REPLAY_CACHE_DIR", t.TempDir())
	_, write, load := cacheFixture(t)
	write("lib/label.js", "export const label = 'one'\n//# sourceMappingURL=label.js.map\n")
	write("lib/label.js.map", `{"version":3,"sources":["label.ts"],"names":[],"mappings":"AAAA"}`)
	if n := load("one"); n != 1 {
		t.Errorf("first load: %d builds", n)
	}
	write("lib/label.js.map", `{garbage`)
	if n := load("one"); n != 1 {
		t.Errorf("after the map changed: %d builds, want 1 (the map is an input)", n)
	}
	if n := load("one"); n != 0 {
		t.Errorf("then: %d builds, want 0", n)
	}
}

// TestBundleCacheBounded: past DSH_REPLAY_CACHE_MAX the least recently
// used bundles go (a hit counts as a use), never the one just stored.
func TestBundleCacheBounded(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("DSH_REPLAY_CACHE_DIR", cache)
	var loads []func(string) int64
	for range 3 {
		_, _, load := cacheFixture(t)
		loads = append(loads, load)
	}
	bundles := func() int {
		ents, _ := os.ReadDir(cache)
		n := 0
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".json") {
				n++
			}
		}
		return n
	}
	loads[0]("one")
	one := dirSize(t, cache)
	t.Setenv("DSH_REPLAY_CACHE_MAX", strconv.FormatInt(2*one+one/2, 10)) // room for two
	time.Sleep(20 * time.Millisecond)
	loads[1]("one")
	time.Sleep(20 * time.Millisecond)
	if n := loads[0]("one"); n != 0 { // a use: the first is now the newest
		t.Errorf("cached load: %d builds", n)
	}
	time.Sleep(20 * time.Millisecond)
	loads[2]("one")
	if n := bundles(); n != 2 || dirSize(t, cache) > 2*one+one/2 {
		t.Errorf("%d bundles, %d bytes: want 2 within the bound", n, dirSize(t, cache))
	}
	if n := loads[0]("one"); n != 0 {
		t.Errorf("the recently used bundle was evicted (%d builds)", n)
	}
	if n := loads[1]("one"); n != 1 {
		t.Errorf("the least recently used bundle was kept (%d builds)", n)
	}
	t.Setenv("DSH_REPLAY_CACHE_MAX", "1")
	loads[2]("one")
	if n := bundles(); n != 1 {
		t.Errorf("a bound below one bundle: %d bundles, want the one just stored", n)
	}
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{{"123", 123, true}, {"64K", 64 << 10, true}, {"512m", 512 << 20, true}, {"2G", 2 << 30, true}, {"x", 0, false}, {"-1", 0, false}, {"99999999999G", 0, false}} {
		if n, ok := parseSize(c.in); n != c.want || ok != c.ok {
			t.Errorf("parseSize(%q) = %d %v", c.in, n, ok)
		}
	}
}

func dirSize(t *testing.T, dir string) int64 {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, e := range ents {
		if info, err := e.Info(); err == nil {
			n += info.Size()
		}
	}
	return n
}
