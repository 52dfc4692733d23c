package golden

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// layout is where a run's goldens live, next to the logs or (out set) under
// out mirroring the logs' paths relative to cwd, and what the commands it
// prints must repeat to find them again.
type layout struct {
	out  string // absolute; "" keeps goldens next to their logs
	cwd  string
	proj cmdutil.ProjectorFlags
}

// newLayout resolves out against the working directory.
func newLayout(out string, proj cmdutil.ProjectorFlags) (layout, error) {
	l := layout{proj: proj}
	var err error
	if l.cwd, err = os.Getwd(); err != nil {
		return l, &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: err}
	}
	if out != "" {
		if l.out, err = filepath.Abs(out); err != nil {
			return l, cmdutil.UsageErr("--out: %v", err)
		}
	}
	return l, nil
}

// rel is path relative to the working directory, or (outside it) the
// absolute path without its root, for mirroring under --out.
func (l *layout) rel(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if r, err := filepath.Rel(l.cwd, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return strings.TrimLeft(strings.TrimPrefix(abs, filepath.VolumeName(abs)), `/\`)
}

// place is where the golden of a source-tree path lives.
func (l *layout) place(path string) string {
	if l.out == "" {
		return path
	}
	return filepath.Join(l.out, l.rel(path))
}

// unplace maps a path under --out back to the source tree.
func (l *layout) unplace(p string) string {
	if l.out == "" {
		return p
	}
	if r, err := filepath.Rel(l.out, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// logExists: a log for the golden base (under --out: the source-tree log or
// its re-recorded copy).
func (l *layout) logExists(base string) bool {
	cands := []string{base}
	if l.out != "" {
		if r, err := filepath.Rel(l.out, base); err == nil && !strings.HasPrefix(r, "..") {
			cands = append(cands, filepath.Join(l.cwd, r))
		}
	}
	for _, b := range cands {
		if fileExists(b+".jsonl") || fileExists(b+".jsonl.zstd") {
			return true
		}
	}
	return false
}

// command is the exact dsh-replay command line for a golden subcommand on
// paths, with the flags that change its outcome.
func (l *layout) command(sub string, paths []string, extra ...string) string {
	parts := []string{"dsh-replay", "golden", sub}
	parts = append(parts, extra...)
	if l.out != "" {
		parts = append(parts, "--out", shellQuote(l.out))
	}
	if sub == "update" || sub == "check" {
		for _, a := range l.proj.Args() {
			parts = append(parts, shellQuote(a))
		}
	}
	for _, p := range paths {
		parts = append(parts, shellQuote(p))
	}
	return strings.Join(parts, " ")
}
