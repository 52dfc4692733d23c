package cmdutil

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/dsh-replay/dsh-replay/internal/termquote"

	"github.com/dsh-replay/dsh-replay/logformat"
)

// Output is a file a command is about to write, named as the user named it
// (Flag is how: "--report json", "--html").
type Output struct {
	Flag, Path string
	// Self is the input this output replaces on purpose (golden update's
	// log, re-recorded in place): not a clash.
	Self string
}

// CheckOutputs refuses (exit 2, naming both) an output that is one of the
// command's inputs, before anything is opened for writing: a log or its
// values sidecar named in args (the same file by device and inode, so
// through a symbolic or hard link too), a file under a directory in args
// that the walk would read (*.jsonl, *.jsonl.zstd: by real path), or
// another output. "-" (stdout) is never an input.
func CheckOutputs(args []string, outs ...Output) error {
	files := map[any]string{} // file identity -> the input's name
	var dirs [][2]string      // {name, real path} of directory arguments
	addFile := func(name string) {
		if fi, err := os.Stat(name); err == nil && !fi.IsDir() {
			if _, dup := files[fileKey(name, fi)]; !dup {
				files[fileKey(name, fi)] = name
			}
		}
	}
	for _, a := range args {
		if a == "-" {
			continue
		}
		fi, err := os.Stat(a)
		if err != nil {
			continue // reading it fails in its place
		}
		if fi.IsDir() {
			dirs = append(dirs, [2]string{a, realPath(a)})
			continue
		}
		addFile(a)
		addFile(logformat.SidecarPath(a))
	}
	seen := map[any]Output{}
	for _, o := range outs {
		if o.Path == "" || o.Path == "-" {
			continue
		}
		real := realPath(o.Path)
		keys := []any{real}
		if fi, err := os.Stat(o.Path); err == nil {
			keys = append(keys, fileKey(o.Path, fi))
			if in, ok := files[fileKey(o.Path, fi)]; ok && in != o.Self && sameNow(in, o.Path) {
				return UsageErr("%s %s is the input %s: refusing to write over what it reads", o.Flag, termquote.QuoteName(o.Path), termquote.QuoteName(in))
			}
		}
		if isLogName(real) {
			for _, d := range dirs {
				if within(d[1], real) {
					return UsageErr("%s %s lies in the input directory %s and would be read as a log: refusing to write over what it reads", o.Flag, termquote.QuoteName(o.Path), termquote.QuoteName(d[0]))
				}
			}
		}
		for _, k := range keys {
			if p, ok := seen[k]; ok {
				return UsageErr("%s %s and %s %s are the same file", p.Flag, termquote.QuoteName(p.Path), o.Flag, termquote.QuoteName(o.Path))
			}
		}
		for _, k := range keys {
			seen[k] = o
		}
	}
	return nil
}

// sameNow looks at both names again: the input's identity was taken a
// moment ago, and another process (a concurrent golden run) may since have
// replaced it and had its inode reused by the output.
func sameNow(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// realPath is the absolute path of p with the links of its directory (and
// of p itself, when it exists) resolved.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	} else if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		p = filepath.Join(d, filepath.Base(p))
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

func isLogName(p string) bool {
	return strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".jsonl.zstd")
}

func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
