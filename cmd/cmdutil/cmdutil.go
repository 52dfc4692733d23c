package cmdutil

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dsh-replay/dsh-replay/internal/termquote"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// Exit codes: 0 all verified, 1 a divergence (or golden drift), 2 a usage
// error, 3 could not verify (an unreadable or corrupt log, an internal error,
// a recovered panic).
const (
	ExitOK         = 0
	ExitDivergence = 1
	ExitUsage      = 2
	ExitCannot     = 3
)

// Version is set at build time with -ldflags "-X .../cmd/cmdutil.Version=...".
var Version = ""

// VersionString is Version, else the module version, else "dev".
func VersionString() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// ExitError carries an exit code through cobra.
type ExitError struct {
	Code int
	Err  error // nil: the command already printed what it had to say
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}
func (e *ExitError) Unwrap() error { return e.Err }

// UsageErr marks a usage error (exit 2).
func UsageErr(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// Cannot marks a failure to do the work (exit 3).
func Cannot(err error) error { return &ExitError{Code: ExitCannot, Err: err} }

// Execute runs a command tree with explicit streams and maps the outcome to
// an exit code; no panic escapes it.
func Execute(root *cobra.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "dsh-replay: internal error (this is a bug, please report it): %v\n%s", r, debug.Stack())
			code = ExitCannot
		}
	}()
	root.SilenceUsage, root.SilenceErrors = true, true
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &ExitError{Code: ExitUsage, Err: err}
	})
	// cobra makes its completion command (five commands with their flags
	// and help) on every run; it is only wanted when a run could show or use
	// it: help, the command itself, a shell's completion request, no
	// command. Those are not found before cobra adds them.
	if c, _, err := root.Find(args); err == nil && c != root {
		root.CompletionOptions.DisableDefaultCmd = true
	}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			fmt.Fprintf(stderr, "dsh-replay: %s\n", termquote.EscapeControls(ee.Err.Error()))
		}
		return ee.Code
	}
	// cobra's own errors (unknown command, bad args) are usage errors.
	fmt.Fprintf(stderr, "dsh-replay: %s\n", termquote.EscapeControls(err.Error()))
	return ExitUsage
}

// RunCommands runs args against a bare root holding cmds (for the
// commands' own tests).
func RunCommands(args []string, stdin io.Reader, stdout, stderr io.Writer, cmds ...*cobra.Command) int {
	root := &cobra.Command{Use: "dsh-replay"}
	root.AddCommand(cmds...)
	return Execute(root, args, stdin, stdout, stderr)
}

// Plural picks the word for n.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Where is "file:line", or the file alone when line is 0, the file quoted
// when a terminal must not get it raw.
func Where(file string, line int) string {
	if line > 0 {
		return termquote.QuoteName(file) + ":" + strconv.Itoa(line)
	}
	return termquote.QuoteName(file)
}

// AddPathFilterFlags adds --include and --exclude (every command that walks
// directories has them).
func AddPathFilterFlags(f *pflag.FlagSet, pf *logformat.PathFilter) {
	StringArrayVar(f, &pf.Include, "include", nil, "in directories, only files whose path relative to the directory matches `GLOB` (** for any depth; a glob without / matches the base name); repeatable")
	StringArrayVar(f, &pf.Exclude, "exclude", nil, "in directories, skip files whose relative path matches `GLOB`; repeatable")
}

// ExpandInputs expands the arguments (exit 2 on a bad glob, 3 on a missing
// path or an empty directory).
func ExpandInputs(args []string, pf logformat.PathFilter) (logformat.Inputs, error) {
	if err := pf.Check(); err != nil {
		return logformat.Inputs{}, UsageErr("--include/--exclude: %v", err)
	}
	in, err := logformat.Expand(args, pf)
	if err != nil {
		return in, Cannot(err)
	}
	return in, nil
}

// ExpandStream is ExpandInputs for a single directory argument whose logs
// are handed out while the walk goes on (logformat.ExpandStream); nil (and
// no error) for any other arguments, which ExpandInputs then takes.
func ExpandStream(args []string, pf logformat.PathFilter) (*logformat.Stream, error) {
	if err := pf.Check(); err != nil {
		return nil, UsageErr("--include/--exclude: %v", err)
	}
	if len(args) != 1 || args[0] == "-" {
		return nil, nil
	}
	s, err := logformat.ExpandStream(args[0], pf)
	if err != nil {
		return nil, Cannot(err)
	}
	return s, nil
}

// ExpandLogs is ExpandInputs for commands that only read logs: a file found
// in a directory that is not a session log (or not a regular file) is
// dropped with a warning. What the walk could not read stays in the list
// (reading it fails again, in its place).
func ExpandLogs(args []string, pf logformat.PathFilter, stderr io.Writer) ([]string, error) {
	in, err := ExpandLogInputs(args, pf, stderr)
	return in.Paths, err
}

// ExpandLogInputs is ExpandLogs keeping Inputs.Errs (see ReadLog).
func ExpandLogInputs(args []string, pf logformat.PathFilter, stderr io.Writer) (logformat.Inputs, error) {
	in, err := ExpandInputs(args, pf)
	if err != nil {
		return in, err
	}
	out := in.Paths[:0:0]
	for _, p := range in.Paths {
		if in.Walked[p] {
			err := error(in.Errs[p])
			if in.Errs[p] == nil {
				err = logformat.Classify(p)
			}
			var e *logformat.Error
			if logformat.IsNotASessionLog(err) && errors.As(err, &e) {
				Warn(stderr, Where(e.File, e.Line), logformat.NotASessionLog, e.Msg+" (skipped)")
				continue
			}
		}
		out = append(out, p)
	}
	in.Paths = out
	WarnSuperseded(stderr, in.Superseded)
	return in, nil
}

// WarnSuperseded reports, once each, the older generations of sessions a
// walk left out (logformat.Inputs.Superseded): a notice, not a failure.
func WarnSuperseded(w io.Writer, superseded map[string]string) {
	for _, n := range logformat.SupersededNotices(superseded) {
		fmt.Fprintf(w, "dsh-replay: notice: %s: %s: %s\n", termquote.QuoteName(n.File), n.Kind, termquote.EscapeControls(n.Msg))
	}
}

// ReadLog is logformat.ReadCalls (read for "-" from stdin) that reports a
// path the walk found bad as its error without opening it.
func ReadLog(in logformat.Inputs, path string, stdin io.Reader, opts logformat.Options, fn func(*logformat.Call) error) (*logformat.Summary, error) {
	if e := in.Errs[path]; e != nil {
		return &logformat.Summary{File: path}, e
	}
	if path == "-" && stdin != nil {
		return logformat.ReadCallsFrom("-", stdin, opts, fn)
	}
	return logformat.ReadCalls(path, opts, fn)
}

// Warn prints a reader notice or a skipped file in the one format every
// command uses: "dsh-replay: warning: FILE:LINE: KIND: MESSAGE".
func Warn(w io.Writer, loc, kind, msg string) {
	fmt.Fprintf(w, "dsh-replay: warning: %s: %s: %s\n", loc, kind, termquote.EscapeControls(msg))
}

// WarnNotices prints a summary's notices with Warn.
func WarnNotices(w io.Writer, sum *logformat.Summary) {
	if sum == nil {
		return
	}
	for _, n := range sum.Notices {
		Warn(w, Where(n.File, n.Line), n.Kind, n.Msg)
	}
	if sum.NoticesDropped > 0 {
		Warn(w, Where(sum.File, 0), "notices", strconv.Itoa(sum.NoticesDropped)+" more notices not shown")
	}
}

// EditDistance is the Levenshtein distance in runes.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
