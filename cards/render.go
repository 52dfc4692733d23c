package cards

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Options are the inputs of a render besides the entry.
type Options struct {
	Width  int  // total columns; clamped to [MinWidth, MaxWidth]
	Full   bool // no collapsing; diffs with context
	Styles Styles
}

// Collapsing limits of a card that is not drawn --full.
const (
	MinWidth = 20
	// MaxWidth bounds a card's width: rows are padded to the width, so
	// an unbounded one (a huge $COLUMNS) costs memory and output in
	// proportion to it.
	MaxWidth       = 1000
	CollapseCall   = 6  // logical lines of the call section
	CollapseResult = 12 // logical lines of the result section
	MaxRowsPerLine = 3  // wrapped rows of one logical line
)

func (o Options) width() int {
	return min(max(o.Width, MinWidth), MaxWidth)
}

// Render draws one call as a card: a header (icon, title, status pill), the
// call section, nested sub-calls, the result section, and a dim footer with
// the tool, call id and file:line. Every row fits the width; the text ends
// with a newline.
func Render(e *Entry, o Options) string {
	var b strings.Builder
	for _, row := range o.card(e, o.width()) {
		b.WriteString(row)
		b.WriteByte('\n')
	}
	return b.String()
}

// footerRows is "╰ tool · call id · file:line". The call id is what a
// reader pastes into --call, so it is never cut: when the row is too narrow
// the location goes to a row of its own (its path shortened from the left
// only when it cannot fit there), then the id wraps.
func (o Options) footerRows(e *Entry, rail lipgloss.Style, width int) []string {
	s := o.Styles
	corner := s.paint(rail, "╰") + " "
	w := max(width-2, 1)
	tool, id, loc := Sanitize(e.Tool), Sanitize(e.CallID), Sanitize(e.Location)
	head := joinDot(tool, id)
	if full := joinDot(head, loc); Width(full) <= w {
		return []string{corner + s.paint(s.Dim, full)}
	}
	if head == "" {
		return []string{corner + s.paint(s.Dim, truncateLeft(loc, w))}
	}
	var rows []string
	switch {
	case Width(head) <= w:
		rows = []string{head}
	case id == "":
		rows = []string{Truncate(tool, w)}
	default:
		if tool != "" {
			rows = append(rows, Truncate(tool, w))
		}
		rows = append(rows, strings.Split(ansi.Hardwrap(id, w, true), "\n")...)
	}
	if loc != "" {
		rows = append(rows, truncateLeft(loc, w))
	}
	for i, r := range rows {
		lead := "  "
		if i == 0 {
			lead = corner
		}
		rows[i] = lead + s.paint(s.Dim, r)
	}
	return rows
}

func joinDot(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " · " + b
}

// truncateLeft keeps the end of s: "…" and the last width-1 cells.
func truncateLeft(s string, width int) string {
	if Width(s) <= width {
		return s
	}
	if width <= 1 {
		return Truncate(s, width)
	}
	return "…" + ansi.TruncateLeft(s, Width(s)-(width-1), "")
}

func (o Options) icon(st Status) lipgloss.Style {
	switch st.Kind {
	case StatusError:
		return o.Styles.Failure
	case StatusWarn:
		return o.Styles.RailWarn.Bold(true)
	}
	return o.Styles.Icon
}

func (o Options) rail(st Status) lipgloss.Style {
	switch st.Kind {
	case StatusError:
		return o.Styles.RailError
	case StatusWarn:
		return o.Styles.RailWarn
	}
	return o.Styles.Rail
}

// pill draws the status; without colour it is bracketed so it still reads as one.
func (o Options) pill(st Status, width int) (string, int) {
	s := o.Styles
	if Width(st.Text)+2 > width/2 {
		// too narrow for words: the symbol alone
		st.Text = firstCluster(st.Text)
	}
	if !s.Color {
		t := "[" + st.Text + "]"
		return t, Width(t)
	}
	t := " " + st.Text + " "
	switch st.Kind {
	case StatusError:
		return s.paint(s.PillError, t), Width(t)
	case StatusWarn:
		return s.paint(s.PillWarn, t), Width(t)
	}
	return s.paint(s.PillOK, t), Width(t)
}

// header is "icon title ... pill"; it reports whether the title did not fit
// on the row whole (so the body repeats it in full).
func (o Options) header(e *Entry, st Status, width int) (string, bool) {
	s := o.Styles
	pill, pw := o.pill(st, width)
	title := e.Title()
	lines := SplitLines(title)
	first := ""
	if len(lines) > 0 {
		first = Sanitize(lines[0])
	}
	avail := width - 2 - pw - 1
	shown := Truncate(first, avail)
	cut := len(lines) > 1 || shown != first
	if len(lines) > 1 && Width(shown) < avail && !strings.HasSuffix(shown, "…") {
		shown = Truncate(shown+" …", avail)
	}
	icon := s.paint(o.icon(st), e.Icon())
	gap := width - 2 - Width(shown) - pw
	if gap < 1 {
		gap = 1
	}
	return icon + " " + s.paint(s.Title, shown) + strings.Repeat(" ", gap) + pill, cut
}

func (o Options) card(e *Entry, width int) []string {
	s := o.Styles
	st := e.Status()
	rail := o.rail(st)
	head, cut := o.header(e, st, width)
	rows := []string{head}
	bar := s.paint(rail, "│")
	add := func(lines []Line) {
		for _, l := range lines {
			for _, r := range o.lineRows(l, width-2) {
				if r == "" {
					rows = append(rows, bar)
				} else {
					rows = append(rows, bar+" "+r)
				}
			}
		}
	}
	var prelude []Line
	if cut {
		prelude = textLines(e.Title(), LineCommand)
	}
	callLines := o.collapse(append(prelude, e.callLines(o.Full)...), CollapseCall)
	add(callLines)
	for _, sub := range e.Subs {
		for _, r := range o.card(sub, width-2) {
			rows = append(rows, bar+" "+r)
		}
	}
	resultLines := o.collapse(e.resultLines(o.Full), CollapseResult)
	if (len(callLines) > 0 || len(e.Subs) > 0) && len(resultLines) > 0 {
		// what was asked, then what came back
		rows = append(rows, s.paint(rail, "├╴"))
	}
	add(resultLines)
	rows = append(rows, o.footerRows(e, rail, width)...)
	return rows
}

// collapse keeps the first k lines that are not summaries, replacing the rest
// with one "… +N lines" marker; summary lines (counts, statuses) always stay.
func (o Options) collapse(lines []Line, k int) []Line {
	if o.Full {
		return lines
	}
	n := 0
	for _, l := range lines {
		if !l.Summary {
			n++
		}
	}
	if n <= k {
		return lines
	}
	hidden := n - k
	out := make([]Line, 0, k+4)
	kept, marked := 0, false
	mark := func() {
		if !marked {
			out = append(out, Line{Kind: LineDim, Text: "… +" + strconv.Itoa(hidden) + plural(float64(hidden), " line", " lines")})
			marked = true
		}
	}
	for _, l := range lines {
		switch {
		case l.Summary:
			if kept >= k {
				mark()
			}
			out = append(out, l)
		case kept < k:
			out = append(out, l)
			kept++
		}
	}
	mark()
	return out
}

func (o Options) kindStyle(k Kind) lipgloss.Style {
	s := o.Styles
	switch k {
	case LineDim, LineContext, LineCommand:
		return s.Dim
	case LineNote:
		return s.Note
	case LinePath:
		return s.Path
	case LineAdded:
		return s.Added
	case LineRemoved, LineError:
		return s.Removed
	case LineGap:
		return s.Gap
	case LineFailure:
		return s.Failure
	case LineCount:
		return s.Count
	}
	return s.Output
}

// lineRows sanitizes, wraps and paints one logical line into rows of at most
// width cells. A collapsed card keeps at most MaxRowsPerLine rows per line.
func (o Options) lineRows(l Line, width int) []string {
	s := o.Styles
	text := strings.TrimRight(Sanitize(l.Text), " ")
	gw := Width(l.Gutter)
	avail := width - gw
	if avail < 4 {
		avail = 4
	}
	cut := false
	if limit := MaxRowsPerLine*avail*8 + 64; !o.Full && len(text) > limit {
		// a collapsed card shows a few rows: do not wrap megabytes for them
		for limit > 0 && !utf8.RuneStart(text[limit]) {
			limit--
		}
		text, cut = Truncate(text[:limit], MaxRowsPerLine*avail+1), true
	}
	wrapped := Wrap(text, avail)
	if cut && len(wrapped) <= MaxRowsPerLine && !strings.HasSuffix(wrapped[len(wrapped)-1], "…") {
		last := wrapped[len(wrapped)-1]
		wrapped[len(wrapped)-1] = strings.TrimSuffix(Truncate(last, avail-1), "…") + "…"
	}
	if !o.Full && len(wrapped) > MaxRowsPerLine {
		wrapped = wrapped[:MaxRowsPerLine]
		last := wrapped[MaxRowsPerLine-1]
		if Width(last) >= avail {
			last = Truncate(last, avail-1) // leaves room for the mark below
			last = strings.TrimSuffix(last, "…")
		}
		wrapped[MaxRowsPerLine-1] = last + "…"
	}
	st := o.kindStyle(l.Kind)
	rows := make([]string, len(wrapped))
	for i, w := range wrapped {
		g := l.Gutter
		if i > 0 {
			g = strings.Repeat(" ", gw)
		}
		w = strings.TrimRight(w, " ")
		if w == "" {
			rows[i] = s.paint(s.Gutter, strings.TrimRight(g, " "))
			continue
		}
		rows[i] = s.paint(s.Gutter, g) + s.paint(st, w)
	}
	return rows
}

// RenderCompact draws one line per call (and one per sub-call, indented):
// icon, tool, title, status.
func RenderCompact(e *Entry, o Options) string {
	var b strings.Builder
	o.compact(&b, e, o.width(), "")
	return b.String()
}

func (o Options) compact(b *strings.Builder, e *Entry, width int, indent string) {
	s := o.Styles
	st := e.Status()
	pill, pw := o.pill(st, width-Width(indent))
	icon := s.paint(o.icon(st), e.Icon())
	tool := Sanitize(e.Tool)
	avail := width - Width(indent) - 2 - pw - 1
	left := Truncate(tool, avail)
	title := Sanitize(firstLine(e.Title()))
	if title != tool && Width(left)+2 < avail {
		left = s.paint(s.Dim, left) + "  " + s.paint(s.Title, Truncate(title, avail-Width(left)-2))
	} else {
		left = s.paint(s.Dim, left)
	}
	gap := width - Width(indent) - 2 - ansiWidth(left) - pw
	if gap < 1 {
		gap = 1
	}
	b.WriteString(indent + icon + " " + left + strings.Repeat(" ", gap) + pill + "\n")
	for _, sub := range e.Subs {
		o.compact(b, sub, width, indent+"  ")
	}
}

// ansiWidth is the width of painted text (escape codes take no cells).
func ansiWidth(s string) int { return Width(s) }

// RenderRaw draws the model-facing content instead of the card: the header,
// the result's content blocks verbatim (sanitized, wrapped, never
// collapsed), and the footer.
func RenderRaw(e *Entry, o Options) string {
	width := o.width()
	s := o.Styles
	st := e.Status()
	rail := o.rail(st)
	head, _ := o.header(e, st, width)
	rows := []string{head}
	bar := s.paint(rail, "│")
	kind := LineOutput
	if e.IsError {
		kind = LineError
	}
	var lines []Line
	if !e.HasResult {
		lines = []Line{{Kind: LineNote, Text: "no result was recorded (interrupted)"}}
	}
	for _, blk := range e.Content.Elems() {
		if t := blk.Get("type"); t.IsString() && t.Str() == "text" && blk.Get("text").IsString() {
			lines = append(lines, textLines(blk.Get("text").Str(), kind)...)
		} else {
			lines = append(lines, blockLines(jsonv.Arr(blk), kind)...)
		}
	}
	full := o
	full.Full = true
	for _, l := range lines {
		for _, r := range full.lineRows(l, width-2) {
			if r == "" {
				rows = append(rows, bar)
			} else {
				rows = append(rows, bar+" "+r)
			}
		}
	}
	rows = append(rows, o.footerRows(e, rail, width)...)
	return strings.Join(rows, "\n") + "\n"
}

// firstCluster is the first grapheme cluster of s.
func firstCluster(s string) string {
	g := uniseg.NewGraphemes(s)
	if g.Next() {
		return g.Str()
	}
	return s
}
