package report

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/replay"
)

// The HTML report: one self-contained file (inline CSS and a little vanilla
// JS, nothing from the network) with the verdict and the per-tool table
// first, then every log with its calls drawn as cards and their findings,
// recorded against replayed side by side. Filters by class, tool and log,
// a text search, "only divergences" (on by default when there are any) and
// deep links (#call-ID). Log sections are spooled to a temporary file as
// their logs end, so memory is bounded by one log whatever the run's size.

//go:embed html/report.css
var htmlCSS string

//go:embed html/report.js
var htmlJS string

//go:embed html/report.tmpl
var htmlTmpl string

// HTMLSectionLines caps the lines of one card section of a call with
// findings, HTMLQuietLines of a call without; the rest is a note with the
// command that shows the call whole. A report over ten thousand calls stays
// small enough to open in a browser in a few seconds.
const (
	HTMLSectionLines = 300
	HTMLQuietLines   = 12
	HTMLLazyLines    = 4 // for cards in templates (see HTMLEagerCards)
)

// Past HTMLEagerCards calls without findings, such calls are written in
// inert <template> chunks of HTMLChunkCards that the page turns into
// cards only when they scroll into view, a filter or search needs them, or
// a link points into them: parsing a template costs a fraction of laying
// out its cards, so a run of any size opens. Variables so tests can lower
// them.
var (
	HTMLEagerCards = 2000
	HTMLChunkCards = 200
)

// htmlTemplates is parsed on first use: only runs that write an HTML report
// pay for it.
var htmlTemplates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"css": func() template.CSS { return template.CSS(htmlCSS) },
		"js":  func() template.JS { return template.JS(htmlJS) },
		"calls": func(n int) string {
			if n == 1 {
				return "1 call"
			}
			return strconv.Itoa(n) + " calls"
		},
	}).Parse(htmlTmpl))
})

// htmlSink writes the HTML report.
type htmlSink struct {
	w    io.Writer
	o    Options
	show bool // show --html: cards only, no verdict

	out *spool // the finished log sections

	cur      *htmlLog
	logIndex int
	ids      map[string]int
	tools    map[string]bool
	classes  map[replay.Class]int
	logs     []htmlLogRef
	calls    int
	bad      int
	quiet    int // calls without findings so far
	err      error
}

type htmlLogRef struct {
	Index int
	File  string
}

func newHTML(w io.Writer, o Options) *htmlSink {
	return &htmlSink{w: w, o: o, out: newSpool(), ids: map[string]int{}, tools: map[string]bool{}, classes: map[replay.Class]int{}}
}

// HTMLCards is the HTML writer of show --html: the same page as verify's
// report, without a verdict. Its cards go through the same drawing as
// verify's (htmlSink.card); show hands it the entries its printer built.
type HTMLCards struct{ s *htmlSink }

// NewHTMLCards starts a show --html page; feed it with BeginLog, Card and
// EndLog, then Close.
func NewHTMLCards(w io.Writer, showArgs []string) *HTMLCards {
	s := newHTML(w, Options{Deterministic: true, ShowArgs: showArgs})
	s.show = true
	return &HTMLCards{s}
}

// BeginLog starts the section of a log.
func (h *HTMLCards) BeginLog(file string) { h.s.BeginLog(file) }

// Card draws the card of one call (e without its sub-calls' cards).
func (h *HTMLCards) Card(c *logformat.Call, e *cards.Entry) {
	h.s.card(callRef{File: c.File, Line: c.Line, CallID: c.CallID, Tool: c.Name, SubCall: c.IsSubCall}, replay.Unverified, nil, e)
}

// EndLog ends the section of the log begun last.
func (h *HTMLCards) EndLog() { h.s.endLog(nil, false) }

// Close writes the page.
func (h *HTMLCards) Close() error { return h.s.Close(nil) }

// htmlLog is the log being read: its calls are kept until it ends (the
// section's head needs its counts).
type htmlLog struct {
	index    int
	file     string
	calls    *spool    // the log's calls, rendered
	chunk    htmlChunk // quiet calls waiting for their template
	count    int
	findings []htmlFinding
	classes  map[string]bool
	bad      bool
}

type htmlChunk struct {
	body  bytes.Buffer
	n     int
	tools map[string]int
	order []string
}

type htmlCall struct {
	ID       string // the element id
	CallID   string
	Tool     string
	Sub      bool
	Status   string // verified, diverged, unverified
	Bad      bool
	Classes  string
	Card     htmlCard
	Findings []htmlFinding
}

type htmlCard struct {
	Icon, Title, Pill, PillClass string
	Call, Result                 []htmlLine
	CallMore, ResultMore         int
	Footer                       string
	ShowCmd                      string
	HasCall, HasResult           bool
}

type htmlLine struct {
	Class, Gutter, Text string
}

type htmlFinding struct {
	Class, Headline, Sev, Projector, Where, CallID, Pointer, Message, Command string
	// Accept: golden update of the call, then golden review (acceptCommands).
	Accept     []string
	HasPointer bool
	Rows       []htmlDiffRow
	More       string
}

// htmlDiffRow is one row of the side-by-side diff: recorded on the left,
// replayed on the right, each cut into the common text and the differing
// span (Mark).
type htmlDiffRow struct {
	LeftPre, LeftMark, LeftPost    string
	RightPre, RightMark, RightPost string
	LeftKind, RightKind            string // same, del, add, empty
	Note                           string // a full-width row (a gap, "… N more lines")
}

func (s *htmlSink) BeginLog(file string) {
	s.logIndex++
	s.cur = &htmlLog{index: s.logIndex, file: file, classes: map[string]bool{}, calls: newSpool()}
}

// callRef names the call a card is of.
type callRef struct {
	File    string
	Line    int
	CallID  string
	Tool    string
	SubCall bool
}

// Call draws a verified call: its card is built here from the view the
// engine returned.
func (s *htmlSink) Call(r *replay.CallResult) {
	e := cardOf(r)
	s.card(callRef{File: r.File, Line: r.Line, CallID: r.CallID, Tool: r.Tool, SubCall: r.SubCall}, r.Status, r.Findings, e)
}

// cardOf is the card of a call with a view: the one it carries, or one
// built from the presenters' outputs.
func cardOf(r *replay.CallResult) *cards.Entry {
	v := r.View
	if v == nil {
		return nil
	}
	if e, ok := v.Card.(*cards.Entry); ok {
		return e
	}
	return cards.FromView(v.Call, v.CallView, v.ResultView, v.CallFailure, v.ResultFailure)
}

// card adds one call's card and findings to the log's section.
func (s *htmlSink) card(r callRef, status replay.Status, findings []replay.Finding, e *cards.Entry) {
	s.calls++
	s.tools[r.Tool] = true
	c := htmlCall{CallID: r.CallID, Tool: r.Tool, Sub: r.SubCall, Status: status.String()}
	c.ID = "call-" + r.CallID
	if n := s.ids[r.CallID]; n > 0 {
		c.ID = fmt.Sprintf("call-%s--%d", r.CallID, n+1)
	}
	s.ids[r.CallID]++
	var classes []string
	seen := map[string]bool{}
	for i := range findings {
		f := &findings[i]
		s.classes[f.Class]++
		if !seen[string(f.Class)] {
			seen[string(f.Class)] = true
			classes = append(classes, string(f.Class))
		}
		c.Findings = append(c.Findings, s.newHTMLFinding(f))
		if f.Sev >= replay.Failure {
			c.Bad = true
		}
	}
	if status == replay.Diverged {
		c.Bad = true
	}
	if c.Bad {
		s.bad++
		s.cur.bad = true
	}
	c.Classes = strings.Join(classes, " ")
	for _, cl := range classes {
		s.cur.classes[cl] = true
	}
	quiet := len(findings) == 0 && !c.Bad && !s.show
	lazy := false
	if quiet {
		s.quiet++
		lazy = s.quiet > HTMLEagerCards
	}
	limit := HTMLSectionLines
	switch {
	case lazy:
		limit = HTMLLazyLines
	case quiet:
		limit = HTMLQuietLines
	}
	c.Card = s.htmlCardOf(r, e, limit)
	s.cur.count++
	if lazy {
		s.lazyCall(&c)
		return
	}
	s.flushChunk()
	if err := htmlTemplates().ExecuteTemplate(s.cur.calls, "call", &c); err != nil && s.err == nil {
		s.err = err
	}
}

// lazyCall adds a quiet call to the open chunk.
func (s *htmlSink) lazyCall(c *htmlCall) {
	ch := &s.cur.chunk
	if err := htmlTemplates().ExecuteTemplate(&ch.body, "call", c); err != nil && s.err == nil {
		s.err = err
	}
	ch.n++
	if ch.tools == nil {
		ch.tools = map[string]int{}
	}
	if ch.tools[c.Tool] == 0 {
		ch.order = append(ch.order, c.Tool)
	}
	ch.tools[c.Tool]++
	if ch.n >= HTMLChunkCards {
		s.flushChunk()
	}
}

// flushChunk writes the open chunk: a placeholder sized for its cards that
// holds them in a template, with the count of each tool for the filters.
func (s *htmlSink) flushChunk() {
	ch := &s.cur.chunk
	if ch.n == 0 {
		return
	}
	var tools []string
	for _, t := range ch.order {
		tools = append(tools, t+"="+strconv.Itoa(ch.tools[t]))
	}
	b := s.cur.calls
	fmt.Fprintf(b, `<div class="lazy" data-n="%d" data-tools="%s" style="min-height:%dem"><template>`, ch.n, template.HTMLEscapeString(strings.Join(tools, " ")), ch.n*8)
	b.Write(ch.body.Bytes())
	b.WriteString("</template></div>\n")
	ch.body.Reset()
	ch.n, ch.tools, ch.order = 0, nil, nil
}

func (s *htmlSink) EndLog(l *replay.LogResult) { s.endLog(l.Findings, l.NotALog) }

func (s *htmlSink) endLog(findings []replay.Finding, notALog bool) {
	s.flushChunk()
	for i := range findings {
		f := &findings[i]
		s.classes[f.Class]++
		s.cur.findings = append(s.cur.findings, s.newHTMLFinding(f))
		s.cur.classes[string(f.Class)] = true
		if f.Sev >= replay.Failure {
			s.cur.bad = true
			s.bad++
		}
	}
	s.logs = append(s.logs, htmlLogRef{s.cur.index, s.cur.file})
	var cls []string
	for c := range s.cur.classes {
		cls = append(cls, c)
	}
	sort.Strings(cls)
	data := map[string]any{
		"Index": s.cur.index, "File": s.cur.file, "Findings": s.cur.findings,
		"Classes": strings.Join(cls, " "), "Bad": s.cur.bad, "NotALog": notALog, "Count": s.cur.count,
	}
	if err := htmlTemplates().ExecuteTemplate(s.out, "log-head", data); err != nil && s.err == nil {
		s.err = err
	}
	if err := s.cur.calls.copyTo(s.out); err != nil && s.err == nil {
		s.err = err
	}
	s.out.WriteString("</section>\n")
	s.cur = nil
}

func (s *htmlSink) Close(t *Totals) error {
	if s.err != nil {
		return s.err
	}
	var classes []map[string]any
	for _, c := range sortedClasses(s.classes) {
		classes = append(classes, map[string]any{"Name": string(c), "Count": s.classes[c]})
	}
	var tools []string
	for x := range s.tools {
		tools = append(tools, x)
	}
	sort.Strings(tools)
	data := map[string]any{
		"Show":      s.show,
		"Totals":    t,
		"Verdict":   "",
		"Hint":      "",
		"Status":    "ok",
		"Tools":     tools,
		"ToolRows":  []*ToolTally{},
		"Classes":   classes,
		"Logs":      s.logs,
		"Calls":     s.calls,
		"Bad":       s.bad,
		"Generated": "",
	}
	if t != nil {
		data["Verdict"] = verdict(t)
		data["Hint"] = noValuesHint(t)
		data["ToolRows"] = t.SortedTools()
		data["Status"] = map[int]string{0: "ok", 1: "diverged"}[t.ExitCode]
		if t.ExitCode > 1 {
			data["Status"] = "fatal"
		}
	}
	if !s.o.Deterministic {
		data["Generated"] = time.Now().UTC().Format(time.RFC3339)
	}
	w := bufio.NewWriterSize(s.w, 1<<16)
	if err := htmlTemplates().ExecuteTemplate(w, "head", data); err != nil {
		return err
	}
	if err := s.out.copyTo(w); err != nil {
		return fmt.Errorf("html spool: %w", err)
	}
	if err := htmlTemplates().ExecuteTemplate(w, "tail", data); err != nil {
		return err
	}
	return w.Flush()
}

func sortedClasses(m map[replay.Class]int) []replay.Class {
	out := make([]replay.Class, 0, len(m))
	for c := range m {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

var lineClass = map[cards.Kind]string{
	cards.LinePlain: "", cards.LineDim: "dim", cards.LineNote: "note", cards.LinePath: "path",
	cards.LineOutput: "out", cards.LineAdded: "add", cards.LineRemoved: "del", cards.LineContext: "ctx",
	cards.LineGap: "gap", cards.LineFailure: "fail", cards.LineError: "err", cards.LineCount: "count",
	cards.LineCommand: "cmd",
}

// htmlCardOf draws a call's card as the terminal does, line for line.
func (s *htmlSink) htmlCardOf(r callRef, e *cards.Entry, limit int) htmlCard {
	if e == nil {
		e = &cards.Entry{Tool: r.Tool, CallID: r.CallID, Location: fmt.Sprintf("%s:%d", r.File, r.Line), HasResult: true}
	}
	st := e.Status()
	c := htmlCard{Icon: e.Icon(), Title: e.Title(), Pill: st.Text,
		Footer:  strings.Join(nonEmpty(e.Tool, e.CallID, e.Location), " · "),
		ShowCmd: ShowCommand(r.File, r.CallID, ShowFull, s.o.ShowArgs)}
	switch st.Kind {
	case cards.StatusError:
		c.PillClass = "err"
	case cards.StatusWarn:
		c.PillClass = "warn"
	default:
		c.PillClass = "ok"
	}
	call, result := e.Sections()
	c.Call, c.CallMore = htmlLines(call, limit)
	c.Result, c.ResultMore = htmlLines(result, limit)
	c.HasCall, c.HasResult = len(c.Call) > 0, len(c.Result) > 0
	return c
}

func htmlLines(ls []cards.Line, limit int) ([]htmlLine, int) {
	more := 0
	if len(ls) > limit {
		more = len(ls) - limit
		ls = ls[:limit]
	}
	out := make([]htmlLine, len(ls))
	for i, l := range ls {
		out[i] = htmlLine{Class: lineClass[l.Kind], Gutter: l.Gutter, Text: cards.Sanitize(l.Text)}
	}
	return out, more
}

func nonEmpty(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

func (s *htmlSink) newHTMLFinding(f *replay.Finding) htmlFinding {
	h := htmlFinding{Class: string(f.Class), Headline: f.Headline(), Sev: f.Sev.String(), Projector: f.Projector,
		Where: location(f), CallID: f.CallID, Pointer: f.Pointer, HasPointer: hasPointer(f), Message: f.Message, Command: findingCommand(f, s.o.ShowArgs),
		Accept: acceptCommands(f, s.o.ShowArgs)}
	h.Rows = sideRows(f.DiffLines())
	return h
}

// sideRows lays a finding's line diff ("- " recorded, "+ " replayed, "  "
// context, anything else a note) out side by side, pairing each run of
// removed lines with the run of added lines after it and marking the span
// where a pair differs.
func sideRows(diff []string) []htmlDiffRow {
	var rows []htmlDiffRow
	var dels, adds []string
	flush := func() {
		for i := 0; i < max(len(dels), len(adds)); i++ {
			var row htmlDiffRow
			switch {
			case i < len(dels) && i < len(adds):
				row.LeftPre, row.LeftMark, row.LeftPost, row.RightPre, row.RightMark, row.RightPost = markSpan(dels[i], adds[i])
				row.LeftKind, row.RightKind = "del", "add"
			case i < len(dels):
				row.LeftMark, row.LeftKind, row.RightKind = dels[i], "del", "empty"
			default:
				row.RightMark, row.LeftKind, row.RightKind = adds[i], "empty", "add"
			}
			rows = append(rows, row)
		}
		dels, adds = nil, nil
	}
	for _, l := range diff {
		switch {
		case strings.HasPrefix(l, "- "):
			if len(adds) > 0 {
				flush()
			}
			dels = append(dels, l[2:])
		case strings.HasPrefix(l, "+ "):
			adds = append(adds, l[2:])
		case strings.HasPrefix(l, "  "):
			flush()
			rows = append(rows, htmlDiffRow{LeftPre: l[2:], RightPre: l[2:], LeftKind: "same", RightKind: "same"})
		default:
			flush()
			rows = append(rows, htmlDiffRow{Note: l})
		}
	}
	flush()
	return rows
}

// markSpan cuts two lines into their common prefix, the differing middle
// and their common suffix (on rune boundaries).
func markSpan(a, b string) (aPre, aMid, aPost, bPre, bMid, bPost string) {
	ra, rb := []rune(a), []rune(b)
	p := 0
	for p < len(ra) && p < len(rb) && ra[p] == rb[p] {
		p++
	}
	q := 0
	for q < len(ra)-p && q < len(rb)-p && ra[len(ra)-1-q] == rb[len(rb)-1-q] {
		q++
	}
	return string(ra[:p]), string(ra[p : len(ra)-q]), string(ra[len(ra)-q:]),
		string(rb[:p]), string(rb[p : len(rb)-q]), string(rb[len(rb)-q:])
}
