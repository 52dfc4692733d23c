package logformat

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
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

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			for i := 0; i <= len(name); i++ {
				if matchSegs(rest, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// Inputs is the expansion of command-line arguments.
type Inputs struct {
	// Paths are the logs in order: the arguments, each directory's logs sorted.
	Paths []string
	// Walked marks the paths found in a directory (not named explicitly).
	Walked map[string]bool
}

// Expand turns command-line arguments (files, directories searched
// recursively for *.jsonl and *.jsonl.zstd, "-") into the logs to read.
// Values sidecars (*.values.jsonl) and card goldens found in directories are
// not logs. A missing path, or a directory with no log that passes the
// filter, is an *Error.
func Expand(args []string, filter PathFilter) (Inputs, error) {
	in := Inputs{Walked: map[string]bool{}}
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
		st, err := os.Stat(a)
		if err != nil {
			return Inputs{}, &Error{File: a, Msg: openMsg(err)}
		}
		if !st.IsDir() {
			add(a, false)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return &Error{File: p, Msg: openMsg(err)}
			}
			if d.IsDir() {
				return nil
			}
			name := d.Name()
			if IsSidecar(name) {
				return nil
			}
			if !strings.HasSuffix(name, ".jsonl") && !strings.HasSuffix(name, ".jsonl.zstd") {
				return nil
			}
			if filtered {
				rel, err := filepath.Rel(a, p)
				if err != nil || !filter.Keep(rel) {
					return nil
				}
			}
			found = append(found, p)
			return nil
		})
		if err != nil {
			return Inputs{}, err
		}
		if len(found) == 0 {
			msg := "directory holds no session logs (*.jsonl, *.jsonl.zstd)"
			if filtered {
				msg = "directory holds no session logs (*.jsonl, *.jsonl.zstd) that pass --include/--exclude"
			}
			return Inputs{}, &Error{File: a, Msg: msg}
		}
		sort.Strings(found)
		for _, p := range found {
			add(p, true)
		}
	}
	return in, nil
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
