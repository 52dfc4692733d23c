package cmd

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/dsh-replay/dsh-replay/logformat"
)

// addPathFilterFlags adds --include and --exclude (every command that walks
// directories has them).
func addPathFilterFlags(f *pflag.FlagSet, pf *logformat.PathFilter) {
	f.StringArrayVar(&pf.Include, "include", nil, "in directories, only files whose path relative to the directory matches `GLOB` (** for any depth; a glob without / matches the base name); repeatable")
	f.StringArrayVar(&pf.Exclude, "exclude", nil, "in directories, skip files whose relative path matches `GLOB`; repeatable")
}

// expandInputs expands the arguments (exit 2 on a bad glob, 3 on a missing
// path or an empty directory).
func expandInputs(args []string, pf logformat.PathFilter) (logformat.Inputs, error) {
	if err := pf.Check(); err != nil {
		return logformat.Inputs{}, usageErr("--include/--exclude: %v", err)
	}
	in, err := logformat.Expand(args, pf)
	if err != nil {
		return in, &ExitError{Code: ExitCannot, Err: err}
	}
	return in, nil
}

// expandLogs is expandInputs for commands that only read logs: a file found
// in a directory that is not a session log is dropped with a warning.
func expandLogs(args []string, pf logformat.PathFilter, stderr io.Writer) ([]string, error) {
	in, err := expandInputs(args, pf)
	if err != nil {
		return nil, err
	}
	out := in.Paths[:0:0]
	for _, p := range in.Paths {
		if in.Walked[p] {
			if err := logformat.Classify(p); logformat.IsNotASessionLog(err) {
				e := err.(*logformat.Error)
				warn(stderr, where(e.File, e.Line), logformat.NotASessionLog, e.Msg+" (skipped)")
				continue
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// warn prints a reader notice or a skipped file in the one format every
// command uses: "dsh-replay: warning: FILE:LINE: KIND: MESSAGE".
func warn(w io.Writer, loc, kind, msg string) {
	fmt.Fprintf(w, "dsh-replay: warning: %s: %s: %s\n", loc, kind, msg)
}

// warnNotices prints a summary's notices with warn.
func warnNotices(w io.Writer, sum *logformat.Summary) {
	if sum == nil {
		return
	}
	for _, n := range sum.Notices {
		warn(w, where(n.File, n.Line), n.Kind, n.Msg)
	}
	if sum.NoticesDropped > 0 {
		warn(w, sum.File, "notices", strconv.Itoa(sum.NoticesDropped)+" more notices not shown")
	}
}
