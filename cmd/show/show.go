package show

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/atomicwrite"
	"github.com/dsh-replay/dsh-replay/internal/gctune"
	"github.com/dsh-replay/dsh-replay/internal/termquote"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/replay"
	"github.com/dsh-replay/dsh-replay/report"
)

type showOptions struct {
	cmdutil.IO
	// widthSet and turnSet: --width and --turn were given.
	widthSet, turnSet bool

	proj    cmdutil.ProjectorFlags
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
	diff    bool
}

// NewCmd is `dsh-replay show`; runF, when set, runs instead of the
// command (tests).
func NewCmd(f *cmdutil.Factory, runF func(*showOptions) error) *cobra.Command {
	o := &showOptions{}
	o.proj.Limits = f.PluginLimits
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
		PreRun: func(c *cobra.Command, _ []string) {
			o.widthSet, o.turnSet = c.Flags().Changed("width"), c.Flags().Changed("turn")
		},
		RunE: cmdutil.RunE(o, runF, runShow),
	}
	fl := c.Flags()
	fl.StringVar(&o.callID, "call", "", "show only the call with this `ID`")
	fl.StringVar(&o.tool, "tool", "", "show only calls of the tool `NAME`")
	fl.IntVar(&o.turn, "turn", -1, "show only calls of turn `N`")
	fl.BoolVar(&o.errors, "errors", false, "show only calls that failed or have no result")
	fl.BoolVar(&o.raw, "raw", false, "show the model-facing content instead of the card")
	fl.BoolVar(&o.compact, "compact", false, "one line per call: icon, tool, title, status")
	fl.BoolVar(&o.full, "full", false, "do not collapse long cards; draw diffs with context")
	fl.BoolVar(&o.json, "json", false, "print NDJSON, one object per call, with the presenters' views")
	fl.IntVar(&o.width, "width", 0, fmt.Sprintf("wrap at `N` columns, %d to %d (default: the terminal's width, else $COLUMNS, else 100; either clamped to that range)", cards.MinWidth, cards.MaxWidth))
	fl.StringVar(&o.color, "color", "auto", "colour: auto, always or never")
	fl.BoolVar(&o.noPager, "no-pager", false, "never page the output")
	fl.BoolVar(&o.diff, "diff", false, "print both sides of each call: the recorded content and meta, what the projectors replay from the recorded value, the value, a diff, and the commands that accept the replayed side")
	fl.StringVar(&o.html, "html", "", "write the cards as one self-contained HTML page to `FILE` (atomically) instead of the terminal")
	cmdutil.AddPathFilterFlags(fl, &o.filter)
	o.proj.AddProjectors(fl)
	return c
}

// Validate checks the flags.
func (o *showOptions) Validate() error {
	if !o.turnSet {
		o.turn = -1
	}
	switch o.color {
	case "auto", "always", "never":
	default:
		return cmdutil.UsageErr("--color must be auto, always or never, not %q", o.color)
	}
	if o.widthSet && (o.width < cards.MinWidth || o.width > cards.MaxWidth) {
		return cmdutil.UsageErr("--width must be between %d and %d, not %d", cards.MinWidth, cards.MaxWidth, o.width)
	}
	modes := 0
	for _, b := range []bool{o.raw, o.compact, o.json, o.diff} {
		if b {
			modes++
		}
	}
	if o.html != "" {
		modes++
	}
	if modes > 1 {
		return cmdutil.UsageErr("--raw, --compact, --json, --diff and --html cannot be combined")
	}
	if err := cmdutil.CheckOutputs(o.Args, cmdutil.Output{Flag: "--html", Path: o.html}); err != nil {
		return err
	}
	return nil
}

func runShow(o *showOptions) error {
	args := o.Args
	reg, _, host, err := o.proj.Projectors()
	if err != nil {
		return err
	}
	stdout, stderr := o.Out, o.ErrOut
	if host != nil {
		// The cards are drawn by the host's code: said where it does not
		// mix with them.
		fmt.Fprintf(stderr, "dsh-replay: host %s\n", host.Headline())
	}
	in, err := cmdutil.ExpandLogInputs(args, o.filter, stderr)
	if err != nil {
		return err
	}
	paths := in.Paths

	tty := cmdutil.TerminalOf(stdout)
	width := cmdutil.OutputWidth(o.width, tty, cards.MinWidth, cards.MaxWidth, 100)
	styles := cards.NewStyles(cmdutil.ColorProfile(o.color, tty.IsTTY))

	// On a terminal the output is buffered to decide about paging; anywhere
	// else it streams.
	var buf bytes.Buffer
	var out io.Writer = stdout
	page := tty.IsTTY && !o.noPager && tty.Height > 0
	if page {
		out = &buf
	}
	bw := bufio.NewWriter(out)
	s := newShower(o, reg, bw, cards.Options{Width: width, Full: o.full, Styles: styles})
	s.multi = len(paths) > 1
	var htmlPage bytes.Buffer
	if o.html != "" {
		s.html = report.NewHTMLCards(&htmlPage, o.proj.ShowArgs())
		s.p.Emit = s.htmlCards
	}

	var diff *differ
	if o.diff {
		diff = &differ{o: o, eng: replay.NewEngine(reg, replay.Options{}), w: bw, st: styles}
		s.p.Match = func(*logformat.Call) bool { return false }
		s.diff = diff
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
			sum, err = logformat.ReadCalls(path, logformat.Options{Release: reg.Config.Release, Reserve: gctune.Reserve}, s.call)
		}
		if s.html != nil {
			s.html.EndLog()
		}
		cmdutil.WarnNotices(stderr, sum)
		if err != nil {
			var we *cards.WriteError
			if errors.As(err, &we) {
				return &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: we.Err}
			}
			fmt.Fprintf(stderr, "dsh-replay: %s\n", termquote.EscapeControls(err.Error()))
			failed = true
		}
	}
	if o.callID != "" && !s.idFound && !failed {
		bw.Flush()
		return cmdutil.UsageErr("no call %q in %s%s", o.callID, strings.Join(paths, ", "), nearestText(o.callID, s.ids))
	}
	if s.html != nil {
		if err := s.html.Close(); err != nil {
			return cmdutil.Cannot(err)
		}
		cmdutil.HandleInterrupts() // a signal now leaves no temporary file
		if err := atomicwrite.WriteFile(o.html, htmlPage.Bytes(), 0o644); err != nil {
			return cmdutil.Cannot(fmt.Errorf("--html: %w", err))
		}
		fmt.Fprintf(bw, "%d %s written to %s\n", s.p.Shown, cmdutil.Plural(s.p.Shown, "call", "calls"), o.html)
		s.warnDeclined(stderr)
		if err := bw.Flush(); err != nil {
			return cmdutil.Cannot(err)
		}
		if failed {
			return &cmdutil.ExitError{Code: cmdutil.ExitCannot}
		}
		return nil
	}
	if diff != nil {
		fmt.Fprintf(bw, "\n%d %s shown\n", diff.shown, cmdutil.Plural(diff.shown, "call", "calls"))
	} else {
		s.p.Finish()
	}
	s.warnDeclined(stderr)
	if err := bw.Flush(); err != nil {
		return &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: err}
	}
	if page {
		if lines := bytes.Count(buf.Bytes(), []byte{'\n'}); lines >= tty.Height {
			if err := cmdutil.Page(buf.Bytes(), stdout, stderr); err == nil {
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

// shower renders the calls of one run.
type shower struct {
	o     *showOptions
	p     *cards.Printer
	multi bool

	// html receives the cards for --html.
	html *report.HTMLCards
	// diff prints both sides instead of cards (--diff).
	diff *differ

	// With --call: every call id seen (for the nearest ids when none
	// matches) and whether one did.
	ids     []string
	idFound bool
}

func newShower(o *showOptions, reg *projector.Registry, w *bufio.Writer, opts cards.Options) *shower {
	s := &shower{o: o}
	s.p = &cards.Printer{Reg: reg, W: w, Opts: opts, OnlyErrors: o.errors, Match: s.matches}
	switch {
	case o.json:
		s.p.Mode = cards.ModeJSON
	case o.compact:
		s.p.Mode = cards.ModeCompact
	case o.raw:
		s.p.Mode = cards.ModeRaw
	}
	return s
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
		fmt.Fprintf(s.p.W, "%s\n%s", s.p.Opts.Styles.Dim.Render("── "+cards.Sanitize(path)), gap)
	}
}

// warnDeclined prints one presenter-declined warning per tool and hint,
// located at its first call.
func (s *shower) warnDeclined(stderr io.Writer) {
	for _, d := range s.p.Declined() {
		more := ""
		if d.N > 1 {
			more = fmt.Sprintf(" (and %d more %s calls)", d.N-1, d.Tool)
		}
		cmdutil.Warn(stderr, cmdutil.Where(d.File, d.Line), "presenter-declined", fmt.Sprintf("the %s presenters declined the recorded arguments of call %s%s (%s): drawn as a generic card%s", d.Tool, d.CallID, more, d.Why, d.Hint))
	}
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

// call is the ReadCalls callback.
func (s *shower) call(c *logformat.Call) error {
	if s.o.callID != "" && !s.idFound {
		s.noteIDs(c)
	}
	if s.diff != nil {
		s.diff.call(c)
	}
	return s.p.Call(c)
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

// htmlCards hands a call (and its sub-calls, each its own card) to --html.
func (s *shower) htmlCards(c *logformat.Call, e *cards.Entry, withSubs bool) {
	root := *e
	root.Subs = nil
	s.html.Card(c, &root)
	if withSubs {
		for i, sub := range c.SubCalls {
			s.htmlCards(sub, e.Subs[i], true)
		}
	}
}
