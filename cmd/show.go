package cmd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

func init() { register(newShowCmd) }

// readCalls is the log reader (a variable so tests can stand in for it).
var readCalls = logformat.ReadCalls

type showOptions struct {
	config  string
	callID  string
	tool    string
	turn    int
	errors  bool
	raw     bool
	compact bool
	full    bool
	json    bool
	width   int
	color   string
	noPager bool
	filter  logformat.PathFilter
}

func newShowCmd() *cobra.Command {
	o := &showOptions{}
	c := &cobra.Command{
		Use:   "show PATH...",
		Short: "Print each recorded tool call as a card",
		Long: `Print each tool call of a session log as a card, in log order: the call as
its tool presents it (presentCall), the result (presentResult), and the
call id and file:line it came from. Tools without a presenter, presenters
that return nothing or fail, and unknown cards fall back to a generic card
with the raw arguments and result text.

PATH is a log file (.jsonl or .jsonl.zstd), a directory searched recursively,
or - for standard input.

Colour: --color auto (the default) colours only a terminal; NO_COLOR set to
any non-empty value turns it off; --color always|never overrides both.
Output longer than the screen goes through $PAGER (default "less -R") when
stdout is a terminal, unless --no-pager.

--json prints one object per call (and per Code Mode sub-call):
{"log","line","callId","tool","isError","callView","resultView"}, where
callView/resultView are exactly what the presenters returned (absent when
they returned nothing or failed).

Exit codes: 0 shown, 2 usage error, 3 a log could not be read.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if !c.Flags().Changed("turn") {
				o.turn = -1
			}
			return runShow(c, o, args)
		},
	}
	f := c.Flags()
	f.StringVar(&o.config, "config", "", "deployment configuration `FILE` the projectors read")
	f.StringVar(&o.callID, "call", "", "show only the call with this `ID`")
	f.StringVar(&o.tool, "tool", "", "show only calls of the tool `NAME`")
	f.IntVar(&o.turn, "turn", -1, "show only calls of turn `N`")
	f.BoolVar(&o.errors, "errors", false, "show only calls that failed or have no result")
	f.BoolVar(&o.raw, "raw", false, "show the model-facing content instead of the card")
	f.BoolVar(&o.compact, "compact", false, "one line per call: icon, tool, title, status")
	f.BoolVar(&o.full, "full", false, "do not collapse long cards; draw diffs with context")
	f.BoolVar(&o.json, "json", false, "print NDJSON, one object per call, with the presenters' views")
	f.IntVar(&o.width, "width", 0, "wrap at `N` columns (default: the terminal's width, else 100)")
	f.StringVar(&o.color, "color", "auto", "colour: auto, always or never")
	f.BoolVar(&o.noPager, "no-pager", false, "never page the output")
	addPathFilterFlags(f, &o.filter)
	return c
}

// terminal is what show needs to know about its stdout.
type terminal struct {
	isTTY         bool
	width, height int
}

func stdoutTerminal(w io.Writer) terminal {
	f, ok := w.(interface{ Fd() uintptr })
	if !ok || !term.IsTerminal(f.Fd()) {
		return terminal{}
	}
	t := terminal{isTTY: true}
	if wd, ht, err := term.GetSize(f.Fd()); err == nil {
		t.width, t.height = wd, ht
	}
	return t
}

func runShow(c *cobra.Command, o *showOptions, args []string) error {
	switch o.color {
	case "auto", "always", "never":
	default:
		return usageErr("--color must be auto, always or never, not %q", o.color)
	}
	if c.Flags().Changed("width") && o.width < cards.MinWidth {
		return usageErr("--width must be at least %d", cards.MinWidth)
	}
	modes := 0
	for _, b := range []bool{o.raw, o.compact, o.json} {
		if b {
			modes++
		}
	}
	if modes > 1 {
		return usageErr("--raw, --compact and --json cannot be combined")
	}
	cfg, err := projector.LoadConfig(o.config)
	if err != nil {
		return usageErr("--config: %v", err)
	}
	reg, err := builtin.Registry(cfg)
	if err != nil {
		return &ExitError{Code: ExitCannot, Err: fmt.Errorf("building the tool registry: %w", err)}
	}
	stdout, stderr := c.OutOrStdout(), c.ErrOrStderr()
	paths, err := expandLogs(args, o.filter, stderr)
	if err != nil {
		return err
	}

	tty := stdoutTerminal(stdout)
	width := o.width
	if width == 0 {
		width = 100
		if tty.isTTY && tty.width > 0 {
			width = max(tty.width, cards.MinWidth)
		}
	}
	styles := cards.Plain()
	if useColor(o.color, tty.isTTY) {
		styles = cards.NewStyles(termenv.ANSI)
	}

	// On a terminal the output is buffered to decide about paging; anywhere
	// else it streams.
	var buf bytes.Buffer
	var out io.Writer = stdout
	page := tty.isTTY && !o.noPager && tty.height > 0
	if page {
		out = &buf
	}
	bw := bufio.NewWriter(out)
	s := &shower{o: o, reg: reg, w: bw, opts: cards.Options{Width: width, Full: o.full, Styles: styles}, multi: len(paths) > 1}

	failed := false
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "dsh-replay: no session logs found")
		failed = true
	}
	for _, path := range paths {
		s.startLog(path)
		sum, err := readCalls(path, logformat.Options{}, s.call)
		warnNotices(stderr, sum)
		if err != nil {
			var we *writeError
			if errors.As(err, &we) {
				return &ExitError{Code: ExitCannot, Err: we.err}
			}
			fmt.Fprintf(stderr, "dsh-replay: %v\n", err)
			failed = true
		}
	}
	s.finish()
	if err := bw.Flush(); err != nil {
		return &ExitError{Code: ExitCannot, Err: err}
	}
	if page {
		if lines := bytes.Count(buf.Bytes(), []byte{'\n'}); lines >= tty.height {
			if err := runPager(buf.Bytes(), stdout, stderr); err == nil {
				buf.Reset()
			}
		}
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			return &ExitError{Code: ExitCannot, Err: err}
		}
	}
	if failed {
		return &ExitError{Code: ExitCannot}
	}
	return nil
}

// useColor: --color always/never decide; auto colours a terminal unless
// NO_COLOR is set to anything non-empty (no-color.org) or TERM is dumb.
func useColor(mode string, tty bool) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	return tty && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

func where(file string, line int) string {
	if line > 0 {
		return file + ":" + strconv.Itoa(line)
	}
	return file
}

// runPager pipes the output through $PAGER (default "less -R").
func runPager(data []byte, stdout, stderr io.Writer) error {
	pager := os.Getenv("PAGER")
	if strings.TrimSpace(pager) == "" {
		pager = "less -R"
	}
	cmd := exec.Command("sh", "-c", pager)
	cmd.Stdin = bytes.NewReader(data)
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	if os.Getenv("LESS") == "" {
		cmd.Env = append(os.Environ(), "LESS=R")
	}
	return cmd.Run()
}

// writeError marks a failed write to stdout, which stops reading.
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }

// shower renders the calls of one run.
type shower struct {
	o     *showOptions
	reg   *projector.Registry
	w     *bufio.Writer
	opts  cards.Options
	multi bool

	shown, failed, interrupted int
}

func (s *shower) startLog(path string) {
	if s.multi && !s.o.json {
		gap := "\n"
		if s.o.compact {
			gap = ""
		}
		fmt.Fprintf(s.w, "%s\n%s", s.opts.Styles.Dim.Render("── "+cards.Sanitize(path)), gap)
	}
}

func (s *shower) finish() {
	if s.o.json {
		return
	}
	text := fmt.Sprintf("%d %s shown", s.shown, plural(s.shown, "call", "calls"))
	if s.failed > 0 {
		text += fmt.Sprintf(" · %d failed", s.failed)
	}
	if s.interrupted > 0 {
		text += fmt.Sprintf(" · %d without a result", s.interrupted)
	}
	if s.opts.Styles.Color {
		text = s.opts.Styles.Dim.Render(text)
	}
	fmt.Fprintln(s.w, text)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// views are the presenters' outputs for one call.
type views struct {
	call, result       jsonv.Value // undefined: no view
	callErr, resultErr error
}

func (s *shower) present(c *logformat.Call) views {
	var v views
	tool := s.reg.Lookup(c.Name)
	if tool == nil || c.ArgumentsError != "" || c.Arguments.IsUndefined() {
		return v
	}
	v.call, v.callErr = tool.CallView(c.Arguments)
	if c.HasResult {
		v.result, v.resultErr = tool.ResultView(c.Arguments, projector.Result{Content: c.Content, IsError: c.IsError, Meta: c.Meta})
	}
	return v
}

func (s *shower) matches(c *logformat.Call) bool {
	o := s.o
	if o.callID != "" && c.CallID != o.callID {
		return false
	}
	if o.tool != "" && c.Name != o.tool {
		return false
	}
	if o.turn >= 0 && c.Turn != o.turn {
		return false
	}
	return true
}

// call is the ReadCalls callback: it shows the root call when it matches,
// else any of its sub-calls that match on their own.
func (s *shower) call(c *logformat.Call) error {
	if s.matches(c) {
		return s.emit(c, true)
	}
	for _, sub := range c.SubCalls {
		if s.matches(sub) {
			if err := s.emit(sub, false); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *shower) emit(c *logformat.Call, withSubs bool) error {
	e := s.entry(c, withSubs)
	if s.o.errors {
		if st := e.Status(); st.Kind == cards.StatusOK {
			return nil
		}
	}
	var err error
	if s.o.json {
		err = s.writeJSON(c, withSubs)
	} else {
		s.count(e)
		switch {
		case s.o.compact:
			_, err = s.w.WriteString(cards.RenderCompact(e, s.opts))
		case s.o.raw:
			_, err = s.w.WriteString(cards.RenderRaw(e, s.opts) + "\n")
		default:
			_, err = s.w.WriteString(cards.Render(e, s.opts) + "\n")
		}
	}
	if err != nil {
		return &writeError{err}
	}
	return nil
}

func (s *shower) count(e *cards.Entry) {
	s.shown++
	switch st := e.Status(); st.Kind {
	case cards.StatusError:
		s.failed++
	case cards.StatusWarn:
		if !e.HasResult {
			s.interrupted++
		}
	}
}

func failure(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// entry builds the renderer's view of a call, running its presenters.
func (s *shower) entry(c *logformat.Call, withSubs bool) *cards.Entry {
	v := s.present(c)
	e := &cards.Entry{
		Tool:          c.Name,
		CallID:        c.CallID,
		Location:      where(c.File, c.Line),
		Args:          c.Arguments,
		RawArgs:       c.RawArguments,
		CallView:      cards.DecodeCallView(v.call),
		CallFailure:   failure(v.callErr),
		HasResult:     c.HasResult,
		Content:       c.Content,
		IsError:       c.IsError,
		Synthetic:     c.Synthetic,
		ResultView:    cards.DecodeResultView(v.result),
		ResultFailure: failure(v.resultErr),
	}
	if c.Error.IsObject() {
		if n := c.Error.Get("name"); n.IsString() {
			e.ErrorName = n.Str()
		}
		if code := c.Error.Get("code"); code.IsString() {
			e.ErrorCode = code.Str()
		}
	}
	if withSubs {
		for _, sub := range c.SubCalls {
			e.Subs = append(e.Subs, s.entry(sub, true))
		}
	}
	return e
}

// writeJSON prints the NDJSON object of a call, then of each sub-call.
func (s *shower) writeJSON(c *logformat.Call, withSubs bool) error {
	v := s.present(c)
	ms := []jsonv.Member{
		jsonv.M("log", jsonv.Str(c.File)),
		jsonv.M("line", jsonv.Int(c.Line)),
		jsonv.M("callId", jsonv.Str(c.CallID)),
		jsonv.M("tool", jsonv.Str(c.Name)),
		jsonv.M("isError", jsonv.BoolValue(c.IsError)),
	}
	if v.callErr == nil && v.call.IsDefined() {
		ms = append(ms, jsonv.M("callView", v.call))
	}
	if v.resultErr == nil && v.result.IsDefined() {
		ms = append(ms, jsonv.M("resultView", v.result))
	}
	if _, err := s.w.WriteString(jsonv.Stringify(jsonv.Obj(ms...)) + "\n"); err != nil {
		return err
	}
	if withSubs {
		for _, sub := range c.SubCalls {
			if err := s.writeJSON(sub, true); err != nil {
				return err
			}
		}
	}
	return nil
}
