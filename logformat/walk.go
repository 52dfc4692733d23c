package logformat

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// NotASessionLog is the Error kind of a file whose first line is JSON but
// neither a session header nor a wrapped event stream (a JSON-RPC
// transcript, a fixture of another kind). Found in a directory walk it is
// skipped with a notice; named on the command line it cannot be verified.
const NotASessionLog = "not-a-session-log"

// PathFilter narrows a directory walk: a file found in a directory is kept
// when it matches some Include (or there is none) and no Exclude. Patterns
// are matched against the path relative to the directory argument, with
// "/" separators; "**" matches any number of directories, and a pattern
// without "/" also matches the base name at any depth (as in .gitignore).
// Files named on the command line are never filtered.
type PathFilter struct {
	Include, Exclude []string
}

// Check reports the first malformed pattern.
func (f PathFilter) Check() error {
	for _, set := range [][]string{f.Include, f.Exclude} {
		for _, p := range set {
			if p == "" {
				return errors.New("empty glob")
			}
			for _, seg := range strings.Split(p, "/") {
				if seg == "**" {
					continue
				}
				if _, err := path.Match(seg, ""); err != nil {
					return fmt.Errorf("bad glob %q: %v", p, err)
				}
			}
		}
	}
	return nil
}

// Keep reports whether a file at rel (relative to its directory argument)
// passes the filter.
func (f PathFilter) Keep(rel string) bool {
	rel = filepath.ToSlash(rel)
	if len(f.Include) > 0 && !matchAny(f.Include, rel) {
		return false
	}
	return !matchAny(f.Exclude, rel)
}

func matchAny(pats []string, rel string) bool {
	for _, p := range pats {
		if MatchGlob(p, rel) {
			return true
		}
	}
	return false
}

// MatchGlob matches a slash-separated path against a glob with "**"
// segments; a pattern without "/" matches the base name too.
func MatchGlob(pattern, rel string) bool {
	if !strings.Contains(pattern, "/") {
		if ok, _ := path.Match(pattern, rel[strings.LastIndexByte(rel, '/')+1:]); ok {
			return true
		}
	}
	return matchSegs(strings.Split(pattern, "/"), strings.Split(rel, "/"))
}

// matchSegs matches segment by segment from the end, keeping for each
// name suffix whether the pattern suffix matches it: time linear in the
// product of the lengths, where backtracking over "**" was exponential.
func matchSegs(pat, name []string) bool {
	next := make([]bool, len(name)+1) // pat[i+1:] matches name[j:]
	next[len(name)] = true
	cur := make([]bool, len(name)+1)
	for i := len(pat) - 1; i >= 0; i-- {
		if pat[i] == "**" {
			found := false
			for j := len(name); j >= 0; j-- {
				found = found || next[j]
				cur[j] = found
			}
		} else {
			cur[len(name)] = false
			for j := len(name) - 1; j >= 0; j-- {
				ok := false
				if next[j+1] {
					ok, _ = path.Match(pat[i], name[j])
				}
				cur[j] = ok
			}
		}
		next, cur = cur, next
	}
	return next[0]
}

// Inputs is the expansion of command-line arguments.
type Inputs struct {
	// Paths are the logs in order: the arguments, each directory's logs sorted.
	Paths []string
	// Walked marks the paths found in a directory (not named explicitly).
	Walked map[string]bool
	// NoSidecar marks the walked logs whose directory listing holds no
	// values sidecar for them (Options.NoSidecar: not looked for again).
	NoSidecar map[string]bool
	// Errs are walked paths known bad without opening them: a directory or
	// link that could not be read (Kind Unreadable), a FIFO, device or
	// socket named like a log (Kind NotASessionLog: skipped with a notice).
	// They are in Paths, so each is reported in its place.
	Errs map[string]*Error
	// Superseded are the older generations of sessions a walk left out,
	// each with the newest generation beside it (see SupersededNotices).
	Superseded map[string]string
}

// walkFS is what a directory walk asks of the file system (tests and the
// fuzz target stand in for it).
type walkFS struct {
	stat    func(string) (fs.FileInfo, error)
	readDir func(string) ([]dirEntry, error)
}

var osFS = walkFS{stat: os.Stat, readDir: readDir}

// dirEntry is one entry of a directory listing: its name and type bits
// (fs.FileMode.Type; a symbolic link is not followed).
type dirEntry struct {
	name string
	typ  fs.FileMode
}

// Expand turns command-line arguments (files, directories searched
// recursively for *.jsonl and *.jsonl.zstd, "-") into the logs to read.
// Values sidecars (*.values.jsonl) and card goldens found in directories are
// not logs. Symbolic links to files are followed, links to directories are
// not. A missing path, a named file that is not a regular file, or a
// directory with no log that passes the filter, is an *Error; what a walk
// cannot read is in Inputs.Errs and does not stop it.
func Expand(args []string, filter PathFilter) (Inputs, error) {
	return expand(args, filter, osFS)
}

func expand(args []string, filter PathFilter, fsys walkFS) (Inputs, error) {
	in := Inputs{Walked: map[string]bool{}, Errs: map[string]*Error{}, NoSidecar: map[string]bool{}}
	seen := map[string]bool{}
	add := func(p string, walked bool) {
		if !seen[p] {
			seen[p] = true
			in.Paths = append(in.Paths, p)
			if walked {
				in.Walked[p] = true
			}
		}
	}
	filtered := len(filter.Include)+len(filter.Exclude) > 0
	for _, a := range args {
		if a == "-" {
			add(a, false)
			continue
		}
		st, err := fsys.stat(a)
		if err != nil {
			return Inputs{}, &Error{File: a, Msg: openMsg(err)}
		}
		if !st.IsDir() {
			if !st.Mode().IsRegular() {
				return Inputs{}, notRegular(a, "", st.Mode())
			}
			add(a, false)
			continue
		}
		w := walker{root: a, filter: filter, filtered: filtered, fs: fsys, errs: map[string]*Error{}, alone: map[string]bool{},
			slots: make(chan struct{}, walkers())}
		w.list(a, w.sub)
		w.wg.Wait()
		if len(w.found) == 0 {
			msg := "directory holds no session logs (*.jsonl, *.jsonl.zstd)"
			if filtered {
				msg = "directory holds no session logs (*.jsonl, *.jsonl.zstd) that pass --include/--exclude"
			}
			return Inputs{}, &Error{File: a, Msg: msg}
		}
		for old, newest := range w.superseded {
			if in.Superseded == nil {
				in.Superseded = map[string]string{}
			}
			in.Superseded[old] = newest
		}
		sort.Strings(w.found)
		for _, p := range w.found {
			if !seen[p] {
				if e := w.errs[p]; e != nil {
					in.Errs[p] = e
				}
				if w.alone[p] {
					in.NoSidecar[p] = true
				}
			}
			add(p, true)
		}
	}
	return in, nil
}

// walkers bounds the goroutines a walk adds: reading a directory is a
// few system calls, and a tree of thousands of small directories read one
// after another leaves the other cores idle. Each holds one descriptor at
// a time, drawn from the descriptor budget (fds).
func walkers() int { return min(2*runtime.GOMAXPROCS(0), cap(fds())) }

// walker collects the logs under one directory argument, reading
// subdirectories on up to cap(slots) more goroutines (the order found is
// sorted afterwards).
type walker struct {
	root     string
	filter   PathFilter
	filtered bool
	fs       walkFS
	slots    chan struct{}
	wg       sync.WaitGroup

	mu    sync.Mutex
	found []string
	errs  map[string]*Error
	alone map[string]bool // found logs with no sidecar in their directory
	// superseded are older generations left out (see generations.go).
	superseded map[string]string
}

func (w *walker) bad(p, kind, msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.found = append(w.found, p)
	w.errs[p] = &Error{File: p, Kind: kind, Msg: msg}
}

func (w *walker) rel(p string) string {
	rel, err := filepath.Rel(w.root, p)
	if err != nil {
		return p
	}
	return rel
}

// walkTree walks the directory dir on a goroutine of the walk's own.
func (w *walker) walkTree(dir string) {
	w.list(dir, w.sub)
}

// sub walks the subdirectory p on a goroutine of its own when a slot is
// free, else in this one.
func (w *walker) sub(p string) {
	select {
	case w.slots <- struct{}{}:
		w.wg.Add(1)
		go func() {
			defer func() { <-w.slots; w.wg.Done() }()
			w.walkTree(p)
		}()
	default:
		w.list(p, w.sub)
	}
}

// list reads one directory: its logs and bad entries are recorded, and
// each subdirectory is handed to sub.
func (w *walker) list(dir string, sub func(p string)) {
	ents, err := w.fs.readDir(dir)
	if err != nil {
		// Reported in its place unless --exclude names the directory
		// (whatever --include says: what it holds is unknown).
		if dir == w.root || !matchAny(w.filter.Exclude, filepath.ToSlash(w.rel(dir))) {
			w.bad(dir, Unreadable, "cannot read directory: "+openMsg(err))
		}
		// os.ReadDir returns what it read before the error: walk that too.
	}
	var logs, subs []string
	var sidecars map[string]bool // made for the few directories with one
	for _, d := range ents {
		// Below the root every directory path is already clean, so
		// joining a name is appending it (filepath.Join would clean the
		// whole path again for each entry).
		var p string
		if dir == w.root {
			p = filepath.Join(dir, d.name)
		} else {
			p = dir + string(filepath.Separator) + d.name
		}
		typ := d.typ
		if typ.IsDir() {
			subs = append(subs, p)
			continue
		}
		name := d.name
		if IsSidecar(name) {
			if sidecars == nil {
				sidecars = map[string]bool{}
			}
			sidecars[name] = true
			continue
		}
		if !strings.HasSuffix(name, ".jsonl") && !strings.HasSuffix(name, ".jsonl.zstd") {
			continue
		}
		if w.filtered && !w.filter.Keep(w.rel(p)) {
			continue
		}
		if typ&fs.ModeSymlink != 0 {
			st, err := w.fs.stat(p)
			if err != nil {
				w.bad(p, Unreadable, "cannot follow link: "+openMsg(err))
				continue
			}
			if st.IsDir() {
				continue // links to directories are not followed (no loops)
			}
			typ = st.Mode().Type()
		}
		if !typ.IsRegular() {
			w.bad(p, NotASessionLog, FileKind(typ)+", not a regular file (not opened)")
			continue
		}
		logs = append(logs, p)
	}
	var superseded map[string]string
	if len(logs) > 1 {
		logs, superseded = newestGenerations(logs)
	}
	w.mu.Lock()
	for old, newest := range superseded {
		if w.superseded == nil {
			w.superseded = map[string]string{}
		}
		w.superseded[old] = newest
	}
	for _, p := range logs {
		w.found = append(w.found, p)
		// Only a listing read whole vouches for a sidecar's absence.
		if err == nil && (sidecars == nil || !sidecars[filepath.Base(SidecarPath(p))]) {
			w.alone[p] = true
		}
	}
	w.mu.Unlock()
	// The directory is closed before its subdirectories are walked: a deep
	// tree holds no descriptor a level.
	for _, p := range subs {
		sub(p)
	}
}

// ExpandPaths is Expand without a filter, returning the paths only.
func ExpandPaths(args []string) ([]string, error) {
	in, err := Expand(args, PathFilter{})
	return in.Paths, err
}

// IsNotASessionLog reports whether err says the file is not a session log.
func IsNotASessionLog(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == NotASessionLog
}

// Classify reads only the first line of a log: nil for a session log or a
// wrapped event stream, an *Error otherwise (Kind NotASessionLog for JSON
// lines of another kind).
func Classify(path string) error {
	_, err := ReadCalls(path, Options{HeaderOnly: true, NoSidecar: true, NoViewPrepass: true}, func(*Call) error { return nil })
	return err
}
