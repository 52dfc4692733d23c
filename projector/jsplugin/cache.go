package jsplugin

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// (See evict.go for the size bound, and build for how what esbuild read
// is hashed as it was read.)
//
// A bundle is cached in the user's cache directory
// (os.UserCacheDir()/dsh-replay/bundles; DSH_REPLAY_CACHE_DIR names
// another, "off" turns it off) under a key of what is bundled (the entry,
// whether installed host packages are used, this bundler's format), with
// its source map and a manifest of what it was made from: the content
// hash of every input, of the package manifests and tsconfig files about
// them, and the modification time of the directories they sit in (a file
// added beside them can change how an import resolves). It is used only
// when all of these still hold, and rewritten otherwise; files are written
// atomically (a temporary file renamed), and a cache that cannot be read
// or written is passed over. A file whose size and modification time are
// those recorded with its hash is not hashed again (as git's index does):
// a stamp is recorded only for a file last modified well before it was
// hashed, so that a write within the file system's clock tick of the
// hashing cannot hide behind it.

// bundleFormat changes whenever bundle()'s output for the same inputs
// would (its options, the sandbox plugin's rewrites).
const bundleFormat = "dsh-replay bundle 2"

// builds counts esbuild runs, hashed the files and bundles hashed (for
// tests of the cache).
var builds, hashed atomic.Int64

func cacheDir() string {
	switch d := os.Getenv("DSH_REPLAY_CACHE_DIR"); d {
	case "off":
		return ""
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(base, "dsh-replay", "bundles")
	default:
		return d
	}
}

// esbuildVersion is the esbuild this binary carries.
func esbuildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/evanw/esbuild" {
				return d.Version
			}
		}
	}
	return "unknown"
}

func cacheKey(entry string, installed bool) string {
	h := sha256.New()
	for _, s := range []string{bundleFormat, esbuildVersion(), entry, map[bool]string{true: "installed", false: "stand-in"}[installed]} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func hashFile(path string) (string, bool) {
	b, err := readRegular(path)
	if err != nil {
		return "", false
	}
	return hashBytes(b), true
}

func hashBytes(b []byte) string {
	hashed.Add(1)
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// racyWindow is how recently a file may have been modified for its
// stamp not to be trusted: coarse file system clocks tick once a second or
// two.
const racyWindow = 3 * time.Second

// fileStamp is a file's size and modification time, "" when it was
// modified too recently to vouch for its content.
func fileStamp(path string) string {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || time.Since(st.ModTime()) < racyWindow {
		return ""
	}
	return strconv.FormatInt(st.Size(), 10) + ":" + strconv.FormatInt(st.ModTime().UnixNano(), 10)
}

// unchanged reports whether the file at path still has the content hashed
// as sum: by its stamp when the recorded one matches, else by its hash.
func unchanged(path, sum, stamp string) bool {
	if stamp != "" && fileStamp(path) == stamp {
		return true
	}
	got, ok := hashFile(path)
	return ok && got == sum
}

func dirStamp(dir string) (int64, bool) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return 0, false
	}
	return st.ModTime().UnixNano(), true
}

// contextFiles are the files that shape resolution in a directory.
var contextFiles = []string{"package.json", "tsconfig.json", "tsconfig.base.json"}

// manifest describes what a bundle was made from; read holds the hashes of
// what the build read (the files esbuild loaded, their source maps, the
// entry's package and tsconfig files as they were before it began). ok is
// false when one of those has changed since: the bundle may hold the old
// content and must not be filed under the new.
func manifest(entry string, inputs []string, b built, read map[string]string) (_ jsonv.Value, ok bool) {
	files := map[string]bool{}
	for f := range read {
		files[f] = true
	}
	dirs := map[string]bool{}
	addContext := func(dir string) {
		dirs[dir] = true
		for _, f := range contextFiles {
			if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
				files[filepath.Join(dir, f)] = true
			}
		}
	}
	for _, in := range inputs {
		files[in] = true
		dir := filepath.Dir(in)
		dirs[dir] = true
		// Up to the package the input belongs to.
		for d := dir; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "package.json")); err == nil {
				addContext(d)
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	// The entry's ancestors up to the outermost holding a package manifest
	// or a tsconfig (the workspace root).
	var chain []string
	top := -1
	for d := filepath.Dir(entry); ; d = filepath.Dir(d) {
		chain = append(chain, d)
		for _, f := range contextFiles {
			if _, err := os.Stat(filepath.Join(d, f)); err == nil {
				top = len(chain) - 1
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := 0; i <= top; i++ {
		addContext(chain[i])
	}
	var fs, ds []jsonv.Value
	for _, f := range sortedKeys(files) {
		stamp := fileStamp(f) // before hashing: a write in between leaves it stale
		sum, ok := hashFile(f)
		if want, was := read[f]; was && (!ok || sum != want) {
			return jsonv.Value{}, false // changed while it was bundled
		}
		if ok {
			fs = append(fs, jsonv.Arr(jsonv.Str(f), jsonv.Str(sum), jsonv.Str(stamp)))
		}
	}
	for _, d := range sortedKeys(dirs) {
		if t, ok := dirStamp(d); ok {
			ds = append(ds, jsonv.Arr(jsonv.Str(d), jsonv.Str(strconv.FormatInt(t, 10))))
		}
	}
	return jsonv.Obj(
		jsonv.M("format", jsonv.Str(bundleFormat)),
		jsonv.M("entry", jsonv.Str(entry)),
		jsonv.M("real", jsonv.BoolValue(b.real)),
		jsonv.M("code", jsonv.Str(hashBytes(b.code))),
		jsonv.M("map", jsonv.Str(hashBytes(b.srcMap))),
		jsonv.M("files", jsonv.Arr(fs...)),
		jsonv.M("dirs", jsonv.Arr(ds...)),
	), true
}

// contextBefore hashes the package and tsconfig files of the entry's
// directories before a build, for manifest's check.
func contextBefore(entry string) map[string]string {
	out := map[string]string{}
	for d := filepath.Dir(entry); ; d = filepath.Dir(d) {
		for _, f := range contextFiles {
			p := filepath.Join(d, f)
			if sum, ok := hashFile(p); ok {
				out[p] = sum
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// cachedBundle is the cached bundle for key when everything it was made
// from is unchanged.
func cachedBundle(dir, key, entry string) (b built, ok bool) {
	mb, err := readRegular(filepath.Join(dir, key+".json"))
	if err != nil {
		return built{}, false
	}
	m, err := jsonv.Parse(mb)
	if err != nil || m.Get("format").Str() != bundleFormat || m.Get("entry").Str() != entry {
		return built{}, false
	}
	for _, f := range m.Get("files").Elems() {
		if !unchanged(f.At(0).Str(), f.At(1).Str(), f.At(2).Str()) {
			return built{}, false
		}
	}
	for _, d := range m.Get("dirs").Elems() {
		if t, ok := dirStamp(d.At(0).Str()); !ok || strconv.FormatInt(t, 10) != d.At(1).Str() {
			return built{}, false
		}
	}
	read := func(ext, field string) ([]byte, bool) {
		data, err := readRegular(filepath.Join(dir, key+ext))
		return data, err == nil && hashBytes(data) == m.Get(field).Str()
	}
	if b.code, ok = read(".js", "code"); !ok {
		return built{}, false
	}
	if b.srcMap, ok = read(".map", "map"); !ok {
		return built{}, false
	}
	b.real = m.Get("real").IsBool() && m.Get("real").Bool()
	// The manifest's time is the bundle's last use, for eviction.
	now := time.Now()
	os.Chtimes(filepath.Join(dir, key+".json"), now, now)
	return b, true
}

// storeBundle writes the bundle and its map, then the manifest, each
// atomically.
func storeBundle(dir, key, entry string, b built, inputs []string, read map[string]string) {
	m, ok := manifest(entry, inputs, b, read)
	if !ok {
		return // used for this run, not kept: the next run bundles again
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	if writeAtomic(filepath.Join(dir, key+".js"), b.code) != nil || writeAtomic(filepath.Join(dir, key+".map"), b.srcMap) != nil {
		return
	}
	if writeAtomic(filepath.Join(dir, key+".json"), []byte(jsonv.Encode(m))) == nil {
		evict(dir, CacheMax(), key)
	}
}

func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// metafileInputs are the files of esbuild's metafile inputs (those of the
// file namespace), absolute.
func metafileInputs(meta, wd string) []string {
	m, err := jsonv.ParseString(meta)
	if err != nil {
		return nil
	}
	var out []string
	for _, in := range m.Get("inputs").Members() {
		p := in.Key
		if i := strings.Index(p, ":"); i > 0 && !filepath.IsAbs(p) {
			if p[:i] != "file" {
				continue // another namespace: the sandbox's own modules
			}
			p = p[i+1:]
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		out = append(out, p)
	}
	return out
}
