package hostdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Layouts of an install.
const (
	SourceTree  = "source tree"
	NodeModules = "node_modules"
)

// Install is what Discover found in a directory.
type Install struct {
	// Dir is the directory as given, made absolute.
	Dir string
	// Layout is SourceTree or NodeModules.
	Layout string
	// Host is "dsh" or "lasmex"; Product "DSH" or "LasmeX".
	Host, Product string
	// Version is the install's version and VersionFrom the package.json it
	// was read from (the CLI's, else the workspace root's, else the tools
	// package's).
	Version, VersionFrom string
	// Packages are the tool plugin candidates, by name.
	Packages []Package
	// FirstParty counts every first-party package found.
	FirstParty int
}

// Package is one first-party package.
type Package struct {
	// Name is the package name; Plugin the name its options go by in
	// --config (no scope, no dsh-/lasmex- prefix).
	Name, Plugin, Version string
	// Dir is the package's directory (symbolic links resolved).
	Dir string
}

// String names the install: "DSH 0.1.1-rc.2 (source tree DIR)".
func (in *Install) String() string {
	return fmt.Sprintf("%s %s (%s %s)", in.Product, in.Version, in.Layout, in.Dir)
}

// firstParty reports whether a package name is one of the hosts' own.
func firstParty(name string) bool {
	return (strings.HasPrefix(name, "@deepseek-ai/dsh-") || strings.HasPrefix(name, "lasmex-")) && !strings.HasSuffix(name, "-root")
}

// cliPackage reports whether a name is a host's CLI (what a global install
// installs).
func cliPackage(name string) bool { return name == "@deepseek-ai/dsh" || name == "lasmex" }

func toolsPackage(name string) bool {
	return name == "@deepseek-ai/dsh-tools" || name == "lasmex-tools"
}

// pluginName is the name a package's options go by.
func pluginName(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimPrefix(strings.TrimPrefix(name, "dsh-"), "lasmex-")
}

type manifest struct {
	name, version string
	deps          []string
	v             jsonv.Value
}

func readManifest(dir string) (manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return manifest{}, err
	}
	v, err := jsonv.Parse(b)
	if err != nil {
		return manifest{}, fmt.Errorf("%s: %w", filepath.Join(dir, "package.json"), err)
	}
	m := manifest{name: v.Get("name").Str(), version: v.Get("version").Str(), v: v}
	for _, k := range []string{"dependencies", "peerDependencies", "optionalDependencies"} {
		for _, d := range v.Get(k).Members() {
			m.deps = append(m.deps, d.Key)
		}
	}
	return m, nil
}

// Discover finds the tool plugin candidates of the install at dir. Its
// errors say what dir is not.
func Discover(dir string) (*Install, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such directory", dir)
	} else if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s: not a directory (want a DSH or LasmeX install: a source tree, a node_modules, or a package that has one)", dir)
	}
	in := &Install{Dir: abs}
	d := &discovery{seen: map[string]bool{}, real: map[string]bool{}}
	root, rootErr := readManifest(abs)
	if rootErr == nil && root.v.Has("workspaces") && isDir(filepath.Join(abs, "packages")) {
		in.Layout = SourceTree
		d.sourceTree(abs)
		if cli, err := readManifest(filepath.Join(abs, "apps", "cli")); err == nil && cliPackage(cli.name) {
			in.Version, in.VersionFrom = cli.version, filepath.Join(abs, "apps", "cli", "package.json")
		} else if root.version != "" {
			in.Version, in.VersionFrom = root.version, filepath.Join(abs, "package.json")
		}
		in.Host = hostOfName(root.name)
	} else {
		in.Layout = NodeModules
		if rootErr == nil && (firstParty(root.name) || cliPackage(root.name)) {
			d.add(abs, root)
		}
		var roots []string
		if filepath.Base(abs) == "node_modules" {
			roots = append(roots, abs)
		} else if nm := filepath.Join(abs, "node_modules"); isDir(nm) {
			roots = append(roots, nm)
		}
		for _, nm := range roots {
			d.nodeModules(nm)
		}
		d.closure()
		for _, nm := range roots {
			d.pnpmStore(filepath.Join(nm, ".pnpm"))
		}
	}
	if len(d.pkgs) == 0 {
		return nil, fmt.Errorf("%s: not a DSH or LasmeX install: no @deepseek-ai/dsh-* or lasmex-* package in %s", dir, d.where(in.Layout))
	}
	for _, p := range d.pkgs {
		if firstParty(p.m.name) {
			in.FirstParty++
		}
		if in.Version == "" && cliPackage(p.m.name) {
			in.Version, in.VersionFrom = p.m.version, filepath.Join(p.dir, "package.json")
		}
	}
	for _, p := range d.pkgs {
		if in.Version == "" && toolsPackage(p.m.name) {
			in.Version, in.VersionFrom = p.m.version, filepath.Join(p.dir, "package.json")
		}
		if in.Host == "" {
			in.Host = hostOfName(p.m.name)
		}
	}
	in.Product = map[string]string{"dsh": "DSH", "lasmex": "LasmeX"}[in.Host]
	for _, p := range d.pkgs {
		if !firstParty(p.m.name) || hostOfName(p.m.name) != in.Host {
			continue
		}
		if definesTools(p.dir, p.m.v) {
			in.Packages = append(in.Packages, Package{Name: p.m.name, Plugin: pluginName(p.m.name), Version: p.m.version, Dir: p.dir})
		}
	}
	sort.Slice(in.Packages, func(i, j int) bool { return in.Packages[i].Name < in.Packages[j].Name })
	if in.Version == "" {
		// Neither a CLI nor the tools package: the plugins' own version
		// when they agree.
		in.Version = "mixed versions"
		for i, p := range in.Packages {
			if i == 0 {
				in.Version, in.VersionFrom = p.Version, filepath.Join(p.Dir, "package.json")
			} else if p.Version != in.Version {
				in.Version, in.VersionFrom = "mixed versions", ""
				break
			}
		}
	}
	if len(in.Packages) == 0 {
		return nil, fmt.Errorf("%s: %s install with %d first-party packages, none of which defines a tool (no defineTool or tools.register in their code)", dir, in.Product, in.FirstParty)
	}
	return in, nil
}

func hostOfName(name string) string {
	switch {
	case strings.HasPrefix(name, "@deepseek-ai/"):
		return "dsh"
	case strings.HasPrefix(name, "lasmex"):
		return "lasmex"
	}
	return ""
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

type found struct {
	dir string
	m   manifest
}

// discovery collects packages by name, the first found of a name kept
// (the shallowest: top-level before the dependency closure before the
// pnpm store).
type discovery struct {
	pkgs []found
	seen map[string]bool // by name
	real map[string]bool // by resolved directory
}

func (d *discovery) where(layout string) string {
	if layout == SourceTree {
		return "packages/*/*"
	}
	return "the directory, its node_modules or node_modules/.pnpm"
}

func (d *discovery) add(dir string, m manifest) {
	if m.name == "" || d.seen[m.name] {
		return
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	if d.real[dir] {
		return
	}
	d.seen[m.name], d.real[dir] = true, true
	d.pkgs = append(d.pkgs, found{dir, m})
}

// addDir adds the package in dir when it is a host's.
func (d *discovery) addDir(dir string) {
	m, err := readManifest(dir)
	if err == nil && (firstParty(m.name) || cliPackage(m.name)) {
		d.add(dir, m)
	}
}

func (d *discovery) sourceTree(root string) {
	groups, _ := os.ReadDir(filepath.Join(root, "packages"))
	for _, g := range groups {
		if !g.IsDir() {
			continue
		}
		pkgs, _ := os.ReadDir(filepath.Join(root, "packages", g.Name()))
		for _, p := range pkgs {
			if p.IsDir() {
				d.addDir(filepath.Join(root, "packages", g.Name(), p.Name()))
			}
		}
	}
}

// nodeModules adds the host packages directly in nm.
func (d *discovery) nodeModules(nm string) {
	entries, _ := os.ReadDir(nm)
	for _, e := range entries {
		switch {
		case e.Name() == "@deepseek-ai":
			scoped, _ := os.ReadDir(filepath.Join(nm, e.Name()))
			for _, s := range scoped {
				d.addDir(filepath.Join(nm, e.Name(), s.Name()))
			}
		case strings.HasPrefix(e.Name(), "lasmex"):
			d.addDir(filepath.Join(nm, e.Name()))
		}
	}
}

// closure adds the host packages the found ones depend on, resolved as
// Node resolves them: the package's own node_modules, then each parent's
// (which is how pnpm's store links a package's dependencies).
func (d *discovery) closure() {
	for i := 0; i < len(d.pkgs); i++ {
		p := d.pkgs[i]
		for _, dep := range p.m.deps {
			if !firstParty(dep) || d.seen[dep] {
				continue
			}
			for dir := p.dir; ; dir = filepath.Dir(dir) {
				cand := filepath.Join(dir, "node_modules", filepath.FromSlash(dep))
				if m, err := readManifest(cand); err == nil && m.name == dep {
					d.add(cand, m)
					break
				}
				if filepath.Dir(dir) == dir {
					break
				}
			}
		}
	}
}

// pnpmStore adds what pnpm's virtual store holds that nothing linked.
func (d *discovery) pnpmStore(store string) {
	entries, _ := os.ReadDir(store)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "@deepseek-ai+dsh-") || strings.HasPrefix(e.Name(), "lasmex-") {
			d.nodeModules(filepath.Join(store, e.Name(), "node_modules"))
		}
	}
}

// toolMarks are what a tool plugin's code contains.
var toolMarks = [][]byte{[]byte("defineTool"), []byte("tools.register")}

// maxScan bounds what is read of one package's code.
const maxScan = 16 << 20

// definesTools reports whether a package's code mentions defining or
// registering a tool: its entry files (package.json exports ".", module,
// main) and its sources under src/ and lib/ (not tests, not declarations).
func definesTools(dir string, m jsonv.Value) bool {
	budget := maxScan
	has := func(p string) bool {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() || st.Size() > int64(budget) {
			return false
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return false
		}
		budget -= len(b)
		for _, mark := range toolMarks {
			if bytes.Contains(b, mark) {
				return true
			}
		}
		return false
	}
	var entries []string
	exp := m.Get("exports")
	if exp.IsObject() && exp.Has(".") {
		exp = exp.Get(".")
	}
	entries = append(entries, stringsIn(exp)...)
	entries = append(entries, m.Get("module").Str(), m.Get("main").Str())
	for _, e := range entries {
		if e != "" && !strings.HasSuffix(e, ".d.ts") && has(filepath.Join(dir, filepath.FromSlash(e))) {
			return true
		}
	}
	hit := false
	for _, sub := range []string{"src", "lib"} {
		filepath.WalkDir(filepath.Join(dir, sub), func(p string, e fs.DirEntry, err error) error {
			if err != nil || hit || budget <= 0 {
				return filepath.SkipDir
			}
			name := e.Name()
			if e.IsDir() {
				if name == "node_modules" || name == "tests" || name == "test" || name == "__tests__" || name == "types" {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(name, ".d.ts") || strings.Contains(name, ".test.") || strings.Contains(name, ".spec.") {
				return nil
			}
			switch filepath.Ext(name) {
			case ".ts", ".mts", ".js", ".mjs", ".cjs":
				if has(p) {
					hit = true
					return filepath.SkipAll
				}
			}
			return nil
		})
		if hit {
			return true
		}
	}
	return false
}

// stringsIn is every string in an exports value (conditions of any kind).
func stringsIn(v jsonv.Value) []string {
	if v.IsString() {
		return []string{v.Str()}
	}
	var out []string
	for _, m := range v.Members() {
		if m.Key == "types" {
			continue
		}
		out = append(out, stringsIn(m.Value)...)
	}
	return out
}
