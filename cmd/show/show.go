// Package show is `dsh-replay show`: every recorded call drawn as its card
// (or as NDJSON views), and the renderer the card goldens are made with.
package show

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/cmd/report"
	"github.com/dsh-replay/dsh-replay/replay"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

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
	html    string
	plugins []string
}

// NewCmd is `dsh-replay show`.
func NewCmd() *cobra.Command {
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

The footer of a card always holds the whole call id (it is what --call
takes); an unknown --call id exits 2 and lists the nearest ids.

Exit codes: 0 shown, 2 usage error or unknown --call id, 3 a log could not
be read.`,
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
	f.IntVar(&o.width, "width", 0, "wrap at `N` columns (default: the terminal's width, else $COLUMNS, else 100)")
	f.StringVar(&o.color, "color", "auto", "colour: auto, always or never")
	f.BoolVar(&o.noPager, "no-pager", false, "never page the output")
	f.StringVar(&o.html, "html", "", "write the cards as one self-contained HTML page to `FILE` (atomically) instead of the terminal")
	cmdutil.AddPathFilterFlags(f, &o.filter)
	cmdutil.AddPluginFlag(f, &o.plugins)
	return c
}

// terminal is what show needs to know about its stdout.
type terminal struct {
	isTTY         bool
	width, height int
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool { return stdoutTerminal(w).isTTY }

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
		return cmdutil.UsageErr("--color must be auto, always or never, not %q", o.color)
	}
	if c.Flags().Changed("width") && o.width < cards.MinWidth {
		return cmdutil.UsageErr("--width must be at least %d", cards.MinWidth)
	}
	modes := 0
	for _, b := range []bool{o.raw, o.compact, o.json} {
		if b {
			modes++
		}
	}
	if o.html != "" {
		modes++
	}
	if modes > 1 {
		return cmdutil.UsageErr("--raw, --compact, --json and --html cannot be combined")
	}
	reg, _, err := cmdutil.Registry(o.config, o.plugins)
	if err != nil {
		return err
	}
	stdout, stderr := c.OutOrStdout(), c.ErrOrStderr()
	in, err := cmdutil.ExpandLogInputs(args, o.filter, stderr)
	if err != nil {
		return err
	}
	paths := in.Paths

	tty := stdoutTerminal(stdout)
	width := showWidth(o.width, tty)
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
	var htmlPage bytes.Buffer
	if o.html != "" {
		s.html = report.NewHTMLCards(&htmlPage, cmdutil.ProjectorArgs(o.config, o.plugins))
	}

	failed := false
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "dsh-replay: no session logs found")
		failed = true
	}
	for _, path := range paths {
		s.startLog(path)
		var sum *logformat.Summary
		if e := in.Errs[path]; e != nil {
			sum, err = &logformat.Summary{File: path}, e
		} else {
			sum, err = readCalls(path, logformat.Options{}, s.call)
		}
		if s.html != nil {
			s.html.EndLog(&replay.LogResult{File: path, Summary: sum})
		}
		cmdutil.WarnNotices(stderr, sum)
		if err != nil {
			var we *writeError
			if errors.As(err, &we) {
				return &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: we.err}
			}
			fmt.Fprintf(stderr, "dsh-replay: %s\n", logformat.EscapeControls(err.Error()))
			failed = true
		}
	}
	if o.callID != "" && !s.idFound && !failed {
		bw.Flush()
		return cmdutil.UsageErr("no call %q in %s%s", o.callID, strings.Join(paths, ", "), nearestText(o.callID, s.ids))
	}
	if s.html != nil {
		if err := s.html.Close(nil); err != nil {
			return cmdutil.Cannot(err)
		}
		if err := logformat.WriteFileAtomic(o.html, htmlPage.Bytes(), 0o644); err != nil {
			return cmdutil.Cannot(fmt.Errorf("--html: %w", err))
		}
		fmt.Fprintf(bw, "%d %s written to %s\n", s.shown, cmdutil.Plural(s.shown, "call", "calls"), o.html)
		s.warnDeclined(stderr)
		if err := bw.Flush(); err != nil {
			return cmdutil.Cannot(err)
		}
		if failed {
			return &cmdutil.ExitError{Code: cmdutil.ExitCannot}
		}
		return nil
	}
	s.finish()
	s.warnDeclined(stderr)
	if err := bw.Flush(); err != nil {
		return &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: err}
	}
	if page {
		if lines := bytes.Count(buf.Bytes(), []byte{'\n'}); lines >= tty.height {
			if err := runPager(buf.Bytes(), stdout, stderr); err == nil {
				buf.Reset()
			}
		}
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			return &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: err}
		}
	}
	if failed {
		return &cmdutil.ExitError{Code: cmdutil.ExitCannot}
	}
	return nil
}

// showWidth picks the card width: --width, else the terminal's, else
// $COLUMNS (so a pipe or a CI log can be sized), else 100.
func showWidth(flag int, tty terminal) int {
	if flag > 0 {
		return flag
	}
	if tty.isTTY && tty.width > 0 {
		return max(tty.width, cards.MinWidth)
	}
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && n > 0 {
		return max(n, cards.MinWidth)
	}
	return 100
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

	// html receives the cards for --html.
	html report.Sink

	// declined counts calls whose presenters declined the recorded
	// arguments, by tool and hint, for one warning each at the end.
	declined     map[string]*declinedCalls
	declineOrder []string

	// With --call: every call id seen (for the nearest ids when none
	// matches) and whether one did.
	ids     []string
	idFound bool
}

type declinedCalls struct {
	tool, why, hint, first, callID string
	n                              int
}

func (s *shower) startLog(path string) {
	if s.html != nil {
		s.html.BeginLog(path)
		return
	}
	if s.multi && !s.o.json {
		gap := "\n"
		if s.o.compact {
			gap = ""
		}
		fmt.Fprintf(s.w, "%s\n%s", s.opts.Styles.Dim.Render("── "+cards.Sanitize(path)), gap)
	}
}

func (s *shower) noteDeclined(c *logformat.Call, why string) {
	hint := ""
	if alt := s.reg.AcceptingVariant(c.Name, c.Arguments); alt != nil {
		hint = fmt.Sprintf("; the %s variant of %s accepts them: run with %s", alt.Plugin, c.Name, alt.Selects)
	}
	key := c.Name + "\x00" + hint
	d := s.declined[key]
	if d == nil {
		if s.declined == nil {
			s.declined = map[string]*declinedCalls{}
		}
		d = &declinedCalls{tool: c.Name, why: why, hint: hint, first: cmdutil.Where(c.File, c.Line), callID: c.CallID}
		s.declined[key] = d
		s.declineOrder = append(s.declineOrder, key)
	}
	d.n++
}

// warnDeclined prints one presenter-declined warning per tool and hint,
// located at its first call.
func (s *shower) warnDeclined(stderr io.Writer) {
	for _, key := range s.declineOrder {
		d := s.declined[key]
		more := ""
		if d.n > 1 {
			more = fmt.Sprintf(" (and %d more %s calls)", d.n-1, d.tool)
		}
		cmdutil.Warn(stderr, d.first, "presenter-declined", fmt.Sprintf("the %s presenters declined the recorded arguments of call %s%s (%s): drawn as a generic card%s", d.tool, d.callID, more, d.why, d.hint))
	}
}

func (s *shower) finish() {
	if s.o.json {
		return
	}
	text := fmt.Sprintf("%d %s shown", s.shown, cmdutil.Plural(s.shown, "call", "calls"))
	if s.failed > 0 {
		text += fmt.Sprintf(" · %d failed", s.failed)
	}
	if s.interrupted > 0 {
		text += fmt.Sprintf(" · %d without a result", s.interrupted)
	}
	declined := 0
	for _, d := range s.declined {
		declined += d.n
	}
	if declined > 0 {
		text += fmt.Sprintf(" · %d generic (presenter declined)", declined)
	}
	if s.opts.Styles.Color {
		text = s.opts.Styles.Dim.Render(text)
	}
	fmt.Fprintln(s.w, text)
}

// views are the presenters' outputs for one call.
type views struct {
	call, result       jsonv.Value // undefined: no view
	callErr, resultErr error
}

func (s *shower) present(c *logformat.Call) views {
	var v views
	tool := s.reg.PresenterTool(c.Name, c.Host, c.Arguments)
	if tool == nil || c.ArgumentsError != "" || c.Arguments.IsUndefined() {
		return v
	}
	if viol := tool.Declines(c.Arguments); len(viol) > 0 {
		s.noteDeclined(c, viol[0].Message)
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
	if s.o.callID != "" && !s.idFound {
		s.noteIDs(c)
	}
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

func (s *shower) noteIDs(c *logformat.Call) {
	if c.CallID == s.o.callID {
		s.idFound = true
	}
	if len(s.ids) < maxNearestPool {
		s.ids = append(s.ids, c.CallID)
	}
	for _, sub := range c.SubCalls {
		s.noteIDs(sub)
	}
}

func (s *shower) emit(c *logformat.Call, withSubs bool) error {
	e := s.entry(c, withSubs)
	if s.o.errors {
		if st := e.Status(); st.Kind == cards.StatusOK {
			return nil
		}
	}
	if s.html != nil {
		s.count(e)
		s.htmlCards(c, e, withSubs)
		return nil
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

// entry builds the renderer's view of a call, running its presenters.
func (s *shower) entry(c *logformat.Call, withSubs bool) *cards.Entry {
	v := s.present(c)
	e := cards.FromCall(c, v.call, v.result, v.callErr, v.resultErr)
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

// maxNearestPool bounds the call ids kept for suggestions.
const maxNearestPool = 100000

// nearestText lists up to five call ids closest to id (by edit distance,
// ties in log order), for the error of an unknown --call.
func nearestText(id string, ids []string) string {
	if len(ids) == 0 {
		return " (the logs have no calls)"
	}
	type cand struct {
		id   string
		dist int
	}
	seen := map[string]bool{}
	var cs []cand
	for _, x := range ids {
		if seen[x] {
			continue
		}
		seen[x] = true
		d := cmdutil.EditDistance(id, x)
		if strings.Contains(x, id) || strings.Contains(id, x) {
			d = min(d, max(len(x), len(id))-min(len(x), len(id)))
		}
		cs = append(cs, cand{x, d})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].dist < cs[j].dist })
	var names []string
	for i := 0; i < len(cs) && i < 5; i++ {
		names = append(names, cs[i].id)
	}
	return "; nearest: " + strings.Join(names, ", ")
}

// Bodies renders a log (its bytes are data, name its provenance) as show
// does without colour at width: the card text and the NDJSON views, in one
// pass over the log. The card goldens are made with it.
func Bodies(reg *projector.Registry, name string, data []byte, width int) (text, ndjson []byte, err error) {
	var tb, jb bytes.Buffer
	tw, jw := bufio.NewWriter(&tb), bufio.NewWriter(&jb)
	show := func(w *bufio.Writer, json bool) *shower {
		return &shower{
			o:    &showOptions{turn: -1, json: json},
			reg:  reg,
			w:    w,
			opts: cards.Options{Width: width, Styles: cards.Plain()},
		}
	}
	ts, js := show(tw, false), show(jw, true)
	_, err = logformat.ReadCallsFrom(name, bytes.NewReader(data), logformat.Options{NoViewPrepass: true}, func(c *logformat.Call) error {
		if err := ts.call(c); err != nil {
			return err
		}
		return js.call(c)
	})
	if err != nil {
		return nil, nil, err
	}
	ts.finish()
	js.finish()
	if err := tw.Flush(); err != nil {
		return nil, nil, err
	}
	if err := jw.Flush(); err != nil {
		return nil, nil, err
	}
	return tb.Bytes(), jb.Bytes(), nil
}

// htmlCards hands a call (and its sub-calls, each its own card) to --html.
func (s *shower) htmlCards(c *logformat.Call, e *cards.Entry, withSubs bool) {
	root := *e
	root.Subs = nil
	s.html.Call(&replay.CallResult{File: c.File, Line: c.Line, CallID: c.CallID, Tool: c.Name, SubCall: c.IsSubCall, Status: replay.Unverified, Entry: &root})
	if withSubs {
		for i, sub := range c.SubCalls {
			s.htmlCards(sub, e.Subs[i], true)
		}
	}
}
