package logformat

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
)

// fakeFS is an in-memory tree for the walker: modes by path, link targets,
// and directories whose listing fails.
type fakeFS struct {
	mode    map[string]fs.FileMode
	link    map[string]string
	listErr map[string]error
}

func newFakeFS() *fakeFS {
	return &fakeFS{mode: map[string]fs.FileMode{}, link: map[string]string{}, listErr: map[string]error{}}
}

// add creates p and its parents; mode 0 is a regular file.
func (f *fakeFS) add(p string, m fs.FileMode) {
	p = filepath.Clean(p)
	for d := filepath.Dir(p); d != "/" && d != "."; d = filepath.Dir(d) {
		if _, ok := f.mode[d]; !ok {
			f.mode[d] = fs.ModeDir
		}
	}
	f.mode[p] = m
}

func (f *fakeFS) symlink(p, target string) {
	f.add(p, fs.ModeSymlink)
	f.link[filepath.Clean(p)] = target
}

type fakeInfo struct {
	name string
	mode fs.FileMode
}

func (i fakeInfo) Name() string       { return i.name }
func (i fakeInfo) Size() int64        { return 0 }
func (i fakeInfo) Mode() fs.FileMode  { return i.mode }
func (i fakeInfo) ModTime() time.Time { return time.Time{} }
func (i fakeInfo) IsDir() bool        { return i.mode.IsDir() }
func (i fakeInfo) Sys() any           { return nil }

func (f *fakeFS) stat(p string) (fs.FileInfo, error) {
	p = filepath.Clean(p)
	for hops := 0; ; hops++ {
		m, ok := f.mode[p]
		if !ok {
			return nil, &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
		}
		if m&fs.ModeSymlink == 0 {
			return fakeInfo{filepath.Base(p), m}, nil
		}
		if hops == 8 {
			return nil, &fs.PathError{Op: "stat", Path: p, Err: syscall.ELOOP}
		}
		t := f.link[p]
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		p = filepath.Clean(t)
	}
}

func (f *fakeFS) readDir(dir string) ([]dirEntry, error) {
	dir = filepath.Clean(dir)
	if err := f.listErr[dir]; err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	var out []dirEntry
	for p, m := range f.mode {
		if filepath.Dir(p) == dir && p != dir {
			out = append(out, dirEntry{name: filepath.Base(p), typ: m.Type()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

func (f *fakeFS) walkFS() walkFS { return walkFS{stat: f.stat, readDir: f.readDir} }

// describe lists Paths as "rel kind" (kind "-" for a log to read).
func describe(root string, in Inputs) string {
	var out []string
	for _, p := range in.Paths {
		rel, _ := filepath.Rel(root, p)
		kind := "-"
		if e := in.Errs[p]; e != nil {
			kind = e.Kind + ": " + e.Msg
		}
		out = append(out, filepath.ToSlash(rel)+" "+kind)
	}
	return strings.Join(out, "\n")
}

// A walk opens regular files only: FIFOs, sockets and devices named like a
// log are listed as not-a-session-log, links that lead nowhere as
// unreadable, links to directories are not followed; nothing is opened.
func TestExpandIrregularFiles(t *testing.T) {
	f := newFakeFS()
	f.add("/r/a.jsonl", 0)
	f.add("/r/b.jsonl", fs.ModeNamedPipe)
	f.add("/r/c.jsonl", fs.ModeSocket)
	f.add("/r/d.jsonl.zstd", fs.ModeDevice|fs.ModeCharDevice)
	f.add("/r/e.jsonl", fs.ModeDevice)
	f.symlink("/r/f.jsonl", "a.jsonl")
	f.symlink("/r/g.jsonl", "b.jsonl")
	f.symlink("/r/h.jsonl", "nowhere.jsonl")
	f.symlink("/r/i.jsonl", "i.jsonl")
	f.symlink("/r/j.jsonl", "/r") // a loop if followed
	f.add("/r/k.values.jsonl", fs.ModeNamedPipe)
	f.add("/r/sub/l.jsonl", fs.ModeNamedPipe)
	in, err := expand([]string{"/r"}, PathFilter{}, f.walkFS())
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"a.jsonl -",
		"b.jsonl not-a-session-log: a named pipe (FIFO), not a regular file (not opened)",
		"c.jsonl not-a-session-log: a socket, not a regular file (not opened)",
		"d.jsonl.zstd not-a-session-log: a character device, not a regular file (not opened)",
		"e.jsonl not-a-session-log: a block device, not a regular file (not opened)",
		"f.jsonl -",
		"g.jsonl not-a-session-log: a named pipe (FIFO), not a regular file (not opened)",
		"h.jsonl unreadable: cannot follow link: no such file or directory",
		"i.jsonl unreadable: cannot follow link: too many levels of symbolic links",
		"sub/l.jsonl not-a-session-log: a named pipe (FIFO), not a regular file (not opened)",
	}, "\n")
	if got := describe("/r", in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, p := range in.Paths {
		if !in.Walked[p] {
			t.Errorf("%s not marked walked", p)
		}
	}

	// Named on the command line, a file that is not regular is an error.
	for _, p := range []string{"/r/b.jsonl", "/r/c.jsonl", "/r/g.jsonl"} {
		_, err := expand([]string{p}, PathFilter{}, f.walkFS())
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, "not a regular file") || e.File != p {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// An unreadable directory is one entry among the logs, in its place, and
// the walk goes on; --exclude naming it drops it; a tree of nothing but
// unreadable directories is not "empty".
func TestExpandUnreadableDirectory(t *testing.T) {
	f := newFakeFS()
	f.add("/u/a.jsonl", 0)
	f.add("/u/locked/x.jsonl", 0)
	f.add("/u/z/ok.jsonl", 0)
	f.listErr["/u/locked"] = fs.ErrPermission
	in, err := expand([]string{"/u"}, PathFilter{}, f.walkFS())
	if err != nil {
		t.Fatal(err)
	}
	want := "a.jsonl -\nlocked unreadable: cannot read directory: permission denied\nz/ok.jsonl -"
	if got := describe("/u", in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, ex := range []string{"locked", "locked/**", "**"} {
		in, _ := expand([]string{"/u"}, PathFilter{Exclude: []string{ex}}, f.walkFS())
		if _, ok := in.Errs["/u/locked"]; ok {
			t.Errorf("--exclude %s: the locked directory is still reported", ex)
		}
	}
	// --include cannot know what the directory holds: it is still reported.
	in, _ = expand([]string{"/u"}, PathFilter{Include: []string{"**/ok.jsonl"}}, f.walkFS())
	if got, want := describe("/u", in), "locked unreadable: cannot read directory: permission denied\nz/ok.jsonl -"; got != want {
		t.Errorf("--include: got\n%s\nwant\n%s", got, want)
	}
	f.listErr["/u"] = fs.ErrPermission
	in, err = expand([]string{"/u"}, PathFilter{}, f.walkFS())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describe("/u", in), ". unreadable: cannot read directory: permission denied"; got != want {
		t.Errorf("unreadable root: got %q, want %q", got, want)
	}
}

// done fails the test when fn does not return: a hang detector (the
// generous limit is no speed threshold).
func done(t *testing.T, what string, fn func()) {
	t.Helper()
	ch := make(chan struct{})
	go func() { fn(); close(ch) }()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not return (it blocks)", what)
	}
}

// Links that lead nowhere, and (as a non-root user) files and directories
// without permission, are Unreadable for the reader.
func TestReadCallsUnreadable(t *testing.T) {
	dir := t.TempDir()
	dangling := filepath.Join(dir, "gone.jsonl")
	loop := filepath.Join(dir, "loop.jsonl")
	os.Symlink("nowhere.jsonl", dangling)
	os.Symlink("loop.jsonl", loop)
	cases := map[string]string{dangling: "no such file or directory", loop: "too many levels of symbolic links"}
	if os.Geteuid() != 0 {
		locked := filepath.Join(dir, "locked.jsonl")
		os.WriteFile(locked, []byte("{}\n"), 0o000)
		lockedDir := filepath.Join(dir, "lockeddir")
		os.Mkdir(lockedDir, 0o000)
		defer os.Chmod(lockedDir, 0o755)
		cases[locked] = "permission denied"
		cases[lockedDir] = "cannot read directory: permission denied"
	}
	for p, msg := range cases {
		_, err := ReadCalls(p, Options{}, func(*Call) error { return nil })
		var e *Error
		if !errors.As(err, &e) || e.Kind != Unreadable || !strings.Contains(e.Msg, msg) {
			t.Errorf("%s: %v (want kind %s, %q)", filepath.Base(p), err, Unreadable, msg)
		}
	}
	// A readable directory is not "unreadable".
	_, err := ReadCalls(dir, Options{}, func(*Call) error { return nil })
	var e *Error
	if !errors.As(err, &e) || e.Kind != "" || !strings.Contains(e.Msg, "is a directory") {
		t.Errorf("directory: %v", err)
	}
}

// FuzzExpand walks generated trees: each line of spec is "TYPE PATH" with
// TYPE f (regular), d (directory), x (directory that cannot be listed), p
// (FIFO), s (socket), l (link; PATH is "name>target"). The walk never
// panics, returns each path once, marks every path walked, opens nothing
// irregular (every irregular or unreadable entry is in Errs), and finds
// every reachable regular log that passes the filter.
func FuzzExpand(f *testing.F) {
	f.Add("f a.jsonl\np b.jsonl\nx locked\nf locked/c.jsonl\nl d.jsonl>a.jsonl\nl e.jsonl>e.jsonl", "", "")
	f.Add("d sub\nf sub/s.jsonl.zstd\nf sub/s.values.jsonl\ns sock.jsonl", "**/*.zstd", "")
	f.Add("l x.jsonl>sub\nd sub\nf sub/y.jsonl\nl sub/z.jsonl>../x.jsonl", "", "sub/**")
	// A directory sorts by its path where it cannot be listed, and what is
	// under it by its path and a separator: "logs" < "logs-x.jsonl" <
	// "logs.jsonl" < "logs/...".
	f.Add("x logs\nf logs/a.jsonl\nf logs.jsonl\nf logs-x.jsonl\nd logs0\nf logs0/b.jsonl\nf a/b/c.jsonl\nx a/b-\nf a/b-.jsonl", "", "")
	f.Add("d e\nd e/f\nx e/f/g\nf e/f/g.jsonl\nf e/f/g/h.jsonl\nf e.jsonl", "", "")
	f.Fuzz(func(t *testing.T, spec, include, exclude string) {
		fsys := newFakeFS()
		fsys.mode["/t"] = fs.ModeDir
		for _, line := range strings.Split(spec, "\n") {
			typ, name, ok := strings.Cut(line, " ")
			if !ok || name == "" {
				continue
			}
			target := ""
			if typ == "l" {
				name, target, _ = strings.Cut(name, ">")
			}
			p := filepath.Join("/t", name)
			if !strings.HasPrefix(p, "/t/") {
				continue
			}
			switch typ {
			case "f":
				fsys.add(p, 0)
			case "d":
				fsys.add(p, fs.ModeDir)
			case "x":
				fsys.add(p, fs.ModeDir)
				fsys.listErr[p] = fs.ErrPermission
			case "p":
				fsys.add(p, fs.ModeNamedPipe)
			case "s":
				fsys.add(p, fs.ModeSocket)
			case "l":
				fsys.symlink(p, target)
			}
		}
		var filter PathFilter
		if include != "" {
			filter.Include = []string{include}
		}
		if exclude != "" {
			filter.Exclude = []string{exclude}
		}
		if filter.Check() != nil {
			return
		}
		in, err := expand([]string{"/t"}, filter, fsys.walkFS())
		checkStreamMatches(t, "/t", filter, fsys.walkFS(), in, err)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, "holds no session logs") {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, p := range in.Paths {
			if seen[p] {
				t.Fatalf("%s twice", p)
			}
			seen[p] = true
			if !in.Walked[p] {
				t.Fatalf("%s not walked", p)
			}
			if in.Errs[p] != nil {
				continue
			}
			st, err := fsys.stat(p)
			if err != nil || !st.Mode().IsRegular() {
				t.Fatalf("%s would be opened: %v %v", p, st, err)
			}
		}
		for p := range in.Errs {
			if !seen[p] {
				t.Fatalf("%s in Errs, not in Paths", p)
			}
		}
		// Every regular log under listable directories that passes the filter.
		for p, m := range fsys.mode {
			name := filepath.Base(p)
			if m != 0 || IsSidecar(name) || !strings.HasSuffix(name, ".jsonl") && !strings.HasSuffix(name, ".jsonl.zstd") {
				continue
			}
			reachable := true
			for d := filepath.Dir(p); d != "/"; d = filepath.Dir(d) {
				if fsys.listErr[d] != nil || fsys.mode[d] != fs.ModeDir {
					reachable = false
				}
			}
			rel, _ := filepath.Rel("/t", p)
			if reachable && filter.Keep(rel) && !seen[p] {
				t.Fatalf("%s not found", p)
			}
		}
	})
}

// checkStreamMatches: the stream of a directory gives what Expand gives
// (the same error, or the same paths in the same order with the same
// walk facts).
func checkStreamMatches(t *testing.T, dir string, filter PathFilter, fsys walkFS, want Inputs, wantErr error) {
	t.Helper()
	s, err := expandStream(dir, filter, fsys)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("stream error %v, Expand %v", err, wantErr)
	}
	if err != nil {
		return
	}
	if s == nil {
		t.Fatal("no stream of a directory")
	}
	got := s.Inputs()
	if strings.Join(got.Paths, "\n") != strings.Join(want.Paths, "\n") {
		t.Fatalf("stream paths:\n%s\nExpand:\n%s", strings.Join(got.Paths, "\n"), strings.Join(want.Paths, "\n"))
	}
	for _, p := range want.Paths {
		if got.Walked[p] != want.Walked[p] || got.NoSidecar[p] != want.NoSidecar[p] || fmt.Sprint(got.Errs[p]) != fmt.Sprint(want.Errs[p]) {
			t.Fatalf("%s: stream %v %v %v, Expand %v %v %v", p, got.Walked[p], got.NoSidecar[p], got.Errs[p], want.Walked[p], want.NoSidecar[p], want.Errs[p])
		}
	}
	if len(got.Errs) != len(want.Errs) || len(got.NoSidecar) != len(want.NoSidecar) {
		t.Fatalf("stream has %d errors and %d without sidecar, Expand %d and %d", len(got.Errs), len(got.NoSidecar), len(want.Errs), len(want.NoSidecar))
	}
}

// TestStreamMatchesExpandOnDisk: the stream and Expand agree on real trees
// (the project's testdata, and the upstream fixtures where present).
func TestStreamMatchesExpandOnDisk(t *testing.T) {
	check := func(t *testing.T, root string) {
		in, err := Expand([]string{root}, PathFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(in.Paths) < 50 {
			t.Fatalf("%s: only %d logs", root, len(in.Paths))
		}
		checkStreamMatches(t, root, PathFilter{}, osFS, in, nil)
		filter := PathFilter{Exclude: []string{"**/golden/**"}}
		in, err = Expand([]string{root}, filter)
		checkStreamMatches(t, root, filter, osFS, in, err)
		t.Logf("%s: %d logs", root, len(in.Paths))
	}
	t.Run("testdata", func(t *testing.T) { check(t, "../testdata") })
	t.Run("fixtures", func(t *testing.T) { check(t, sharedtest.Dir(t, "fixtures")) })
}
