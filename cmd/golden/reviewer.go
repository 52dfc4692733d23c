package golden

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// The interactive reviewer.

type viewMode int

const (
	viewUnified viewMode = iota
	viewSplit
	viewOld
	viewNew
)

var viewNames = []string{"unified", "side by side", "old", "new"}

type reviewKeys struct {
	Accept, Reject, Skip                 key.Binding
	AcceptAll, RejectAll, SkipAll        key.Binding
	Next, Unified, Split, OldOnly, New   key.Binding
	Up, Down, PageUp, PageDown, Top, End key.Binding
	Help, Quit                           key.Binding
}

func newReviewKeys() reviewKeys {
	return reviewKeys{
		Accept:    key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "accept")),
		Reject:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reject")),
		Skip:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "skip")),
		AcceptAll: key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "accept all remaining")),
		RejectAll: key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "reject all remaining")),
		SkipAll:   key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "skip all remaining")),
		Next:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next view")),
		Unified:   key.NewBinding(key.WithKeys("1", "u"), key.WithHelp("1/u", "unified diff")),
		Split:     key.NewBinding(key.WithKeys("2", "b"), key.WithHelp("2/b", "side by side")),
		OldOnly:   key.NewBinding(key.WithKeys("3", "o"), key.WithHelp("3/o", "old text")),
		New:       key.NewBinding(key.WithKeys("4", "n"), key.WithHelp("4/n", "new text")),
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		PageUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:  key.NewBinding(key.WithKeys("pgdown", " "), key.WithHelp("pgdn/space", "page down")),
		Top:       key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/g", "top")),
		End:       key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end/G", "bottom")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c", "esc"), key.WithHelp("q", "quit (the rest stays pending)")),
	}
}

// ShortHelp and FullHelp make reviewKeys a help.KeyMap.
func (k reviewKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Accept, k.Reject, k.Skip, k.Next, k.Help, k.Quit}
}

func (k reviewKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Accept, k.Reject, k.Skip, k.AcceptAll, k.RejectAll, k.SkipAll},
		{k.Next, k.Unified, k.Split, k.OldOnly, k.New},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.End},
		{k.Help, k.Quit},
	}
}

type reviewStyles struct {
	title, dim, label, add, del, ok, bad, box lipgloss.Style
}

func newReviewStyles() reviewStyles {
	return reviewStyles{
		title: lipgloss.NewStyle().Bold(true),
		dim:   lipgloss.NewStyle().Faint(true),
		label: lipgloss.NewStyle().Bold(true).Underline(true),
		add:   lipgloss.NewStyle().Foreground(lipgloss.Color("2")),
		del:   lipgloss.NewStyle().Foreground(lipgloss.Color("1")),
		ok:    lipgloss.NewStyle().Foreground(lipgloss.Color("2")).Bold(true),
		bad:   lipgloss.NewStyle().Foreground(lipgloss.Color("1")).Bold(true),
		box:   lipgloss.NewStyle().Border(lipgloss.NormalBorder()).Padding(0, 1),
	}
}

// reviewer is the bubbletea model: one pending call per screen.
type reviewer struct {
	g        *goldenRun
	revs     []*callReview
	verdicts []string // "", accepted, rejected, skipped
	idx      int
	mode     viewMode
	vp       viewport.Model
	help     help.Model
	keys     reviewKeys
	st       reviewStyles
	fullHelp bool
	width    int
	height   int
	status   string
	done     bool
}

func newReviewer(g *goldenRun, revs []*callReview) *reviewer {
	m := &reviewer{g: g, revs: revs, verdicts: make([]string, len(revs)), keys: newReviewKeys(), st: newReviewStyles(),
		help: help.New(), width: 100, height: 30}
	m.vp = viewport.New(m.width, m.bodyHeight())
	m.refresh()
	return m
}

func (m *reviewer) Init() tea.Cmd { return nil }

func (m *reviewer) bodyHeight() int {
	h := m.height - 4 // title, subtitle, status, help
	if m.fullHelp {
		h -= 6
	}
	return max(h, 3)
}

func (m *reviewer) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = max(msg.Width, cards.MinWidth), msg.Height
		m.vp.Width, m.vp.Height = m.width, m.bodyHeight()
		m.help.Width = m.width
		m.refresh()
	case tea.KeyMsg:
		// Keys typed faster than the terminal is read arrive as one run
		// of runes: each is its own key.
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			var cmds []tea.Cmd
			for _, r := range msg.Runes {
				if m.done {
					break
				}
				_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt})
				if cmd != nil {
					cmds = append(cmds, cmd)
				}
			}
			return m, tea.Sequence(cmds...)
		}
		k := m.keys
		switch {
		case key.Matches(msg, k.Quit):
			m.done = true
			return m, tea.Quit
		case key.Matches(msg, k.Accept):
			return m, m.decide("accepted")
		case key.Matches(msg, k.Reject):
			return m, m.decide("rejected")
		case key.Matches(msg, k.Skip):
			return m, m.decide("skipped")
		case key.Matches(msg, k.AcceptAll):
			return m, m.decideAll("accepted")
		case key.Matches(msg, k.RejectAll):
			return m, m.decideAll("rejected")
		case key.Matches(msg, k.SkipAll):
			return m, m.decideAll("skipped")
		case key.Matches(msg, k.Next):
			m.setMode((m.mode + 1) % 4)
		case key.Matches(msg, k.Unified):
			m.setMode(viewUnified)
		case key.Matches(msg, k.Split):
			m.setMode(viewSplit)
		case key.Matches(msg, k.OldOnly):
			m.setMode(viewOld)
		case key.Matches(msg, k.New):
			m.setMode(viewNew)
		case key.Matches(msg, k.Help):
			m.fullHelp = !m.fullHelp
			m.vp.Height = m.bodyHeight()
		case key.Matches(msg, k.Up):
			m.vp.ScrollUp(1)
		case key.Matches(msg, k.Down):
			m.vp.ScrollDown(1)
		case key.Matches(msg, k.PageUp):
			m.vp.PageUp()
		case key.Matches(msg, k.PageDown):
			m.vp.PageDown()
		case key.Matches(msg, k.Top):
			m.vp.GotoTop()
		case key.Matches(msg, k.End):
			m.vp.GotoBottom()
		}
	}
	return m, nil
}

func (m *reviewer) setMode(v viewMode) {
	m.mode = v
	m.refresh()
}

// decide settles the current call and moves to the next undecided one.
func (m *reviewer) decide(verdict string) tea.Cmd {
	r := m.revs[m.idx]
	if verdict != "skipped" {
		accept := verdict == "accepted"
		if err := m.g.decide(m.g.stateOf(r), r, accept); err != nil {
			var stale *staleError
			if errors.As(err, &stale) {
				m.status = m.st.bad.Render("not "+verdict+": ") + err.Error() + "; run " + m.g.command("update", []string{r.unit.log}) + " again"
			} else {
				m.status = m.st.bad.Render("failed: ") + err.Error()
			}
			return nil
		}
	}
	m.verdicts[m.idx] = verdict
	m.status = fmt.Sprintf("%s call %s", verdict, r.call)
	if r.call == "" {
		m.status = verdict + " the whole-file change of " + r.unit.log
	}
	return m.advance()
}

func (m *reviewer) decideAll(verdict string) tea.Cmd {
	for m.idx < len(m.revs) && !m.done {
		if m.verdicts[m.idx] != "" {
			m.idx++
			continue
		}
		before := m.idx
		if cmd := m.decide(verdict); cmd != nil {
			return cmd
		}
		if m.idx == before && m.verdicts[before] == "" {
			return nil // a decision failed: stop and show why
		}
	}
	return nil
}

func (m *reviewer) advance() tea.Cmd {
	for i := 1; i <= len(m.revs); i++ {
		j := (m.idx + i) % len(m.revs)
		if m.verdicts[j] == "" {
			m.idx = j
			m.refresh()
			return nil
		}
	}
	m.done = true
	return tea.Quit
}

func (m *reviewer) refresh() {
	m.vp.SetContent(m.body())
	m.vp.GotoTop()
}

func (m *reviewer) count(v string) int {
	n := 0
	for _, x := range m.verdicts {
		if x == v {
			n++
		}
	}
	return n
}

func (m *reviewer) summary() string {
	a, r, s := m.count("accepted"), m.count("rejected"), m.count("skipped")
	left := len(m.revs) - a - r
	return fmt.Sprintf("golden review: %d accepted, %d rejected, %d skipped; %d still pending", a, r, s, left)
}

func (m *reviewer) View() string {
	if m.done {
		return ""
	}
	r := m.revs[m.idx]
	head := m.st.title.Render(fmt.Sprintf("golden review %d/%d", m.idx+1, len(m.revs))) +
		m.st.dim.Render(fmt.Sprintf(" · %s · accepted %d · rejected %d · skipped %d", viewNames[m.mode], m.count("accepted"), m.count("rejected"), m.count("skipped")))
	sub := cards.Truncate(r.title(), m.width)
	status := m.status
	if status == "" {
		status = m.st.dim.Render(fmt.Sprintf("%d%%", int(m.vp.ScrollPercent()*100)))
	}
	h := m.help
	h.ShowAll = m.fullHelp
	return strings.Join([]string{cards.Truncate(head, m.width), sub, m.vp.View(), cards.Truncate(status, m.width), h.View(m.keys)}, "\n")
}

// body is the scrollable text of the current call in the current view.
func (m *reviewer) body() string {
	r := m.revs[m.idx]
	w := m.width
	var b strings.Builder
	section := func(s string) { b.WriteString(m.st.label.Render(s) + "\n") }
	cardBox := func(text string) string {
		if text == "" {
			return m.st.dim.Render("(no card)")
		}
		return text
	}
	switch m.mode {
	case viewSplit:
		half := max((w-3)/2, 8)
		section("card before │ card after")
		b.WriteString(sideBySide(strings.Split(cardBox(r.cardOld), "\n"), strings.Split(cardBox(r.cardNew), "\n"), half) + "\n\n")
		section("golden diff, old │ new")
		b.WriteString(m.splitDiff(r, half))
	case viewOld, viewNew:
		old := m.mode == viewOld
		card := r.cardNew
		if old {
			card = r.cardOld
		}
		section(map[bool]string{true: "card before", false: "card after"}[old])
		b.WriteString(cardBox(card) + "\n\n")
		section(map[bool]string{true: "old golden text", false: "new golden text"}[old])
		for _, p := range r.sides(old) {
			b.WriteString(m.st.dim.Render(p.title) + "\n" + p.text + "\n")
		}
	default:
		if r.cardOld == r.cardNew && r.cardOld != "" {
			section("card (unchanged)")
			b.WriteString(r.cardOld + "\n\n")
		} else {
			section("card before")
			b.WriteString(cardBox(r.cardOld) + "\n\n")
			section("card after")
			b.WriteString(cardBox(r.cardNew) + "\n\n")
		}
		section("golden diff")
		for _, l := range r.diffLines(m.g, 0) {
			b.WriteString(m.paintDiff(cards.Truncate(l, w)) + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func (m *reviewer) paintDiff(l string) string {
	t := strings.TrimLeft(l, " ")
	switch {
	case strings.HasPrefix(t, "+ "):
		return m.st.add.Render(l)
	case strings.HasPrefix(t, "- "):
		return m.st.del.Render(l)
	}
	return l
}

type side struct{ title, text string }

// sides are the old or new golden texts of a review, piece by piece.
func (r *callReview) sides(old bool) []side {
	pick := func(a, b string) string {
		if old {
			return a
		}
		return b
	}
	var out []side
	for _, ch := range r.logChg {
		where := fmt.Sprintf("%s:%d call %s", r.unit.log, ch.line, ch.callID)
		if ch.content {
			out = append(out, side{where + " · content", pick(contentText(ch.oldContent), contentText(ch.newContent))})
		}
		if ch.meta {
			out = append(out, side{where + " · meta", pick(metaText(ch.oldMeta), metaText(ch.newMeta))})
		}
	}
	if r.cardOld != r.cardNew {
		out = append(out, side{"card (" + cardsTextExt + ")", pick(r.cardOld, r.cardNew)})
	}
	if r.jsonOld != r.jsonNew {
		out = append(out, side{"views (" + cardsJSONExt + ")", pick(r.jsonOld, r.jsonNew)})
	}
	for _, kind := range r.whole {
		p := r.unit.files[kind]
		out = append(out, side{p, pick(string(readOrEmpty(target(p))), string(readOrEmpty(p)))})
	}
	for i := range out {
		if out[i].text == "" {
			out[i].text = "(none)"
		}
	}
	return out
}

// splitDiff shows each piece's old and new text side by side.
func (m *reviewer) splitDiff(r *callReview, half int) string {
	var b strings.Builder
	olds, news := r.sides(true), r.sides(false)
	for i := range olds {
		b.WriteString(m.st.dim.Render(olds[i].title) + "\n")
		b.WriteString(sideBySide(strings.Split(olds[i].text, "\n"), strings.Split(news[i].text, "\n"), half) + "\n")
	}
	return b.String()
}

// sideBySide lays two columns of lines out, half cells each; rows that
// differ are marked in the gutter.
func sideBySide(a, b []string, half int) string {
	n := max(len(a), len(b))
	rows := make([]string, 0, n)
	for i := 0; i < n; i++ {
		var l, r string
		if i < len(a) {
			l = a[i]
		}
		if i < len(b) {
			r = b[i]
		}
		gutter := "│"
		if l != r {
			gutter = "┃"
		}
		l = cards.Truncate(l, half)
		rows = append(rows, l+strings.Repeat(" ", max(half-cards.Width(l), 0))+" "+gutter+" "+cards.Truncate(r, half))
	}
	return strings.Join(rows, "\n")
}

// runReviewer runs the interactive reviewer over revs on the terminal.
func runReviewer(g *goldenRun, o *reviewOptions, revs []*callReview) error {
	m := newReviewer(g, revs)
	p := tea.NewProgram(m, tea.WithInput(o.In), tea.WithOutput(o.Out), tea.WithAltScreen())
	// The program quits on SIGINT and SIGTERM and restores the terminal;
	// its writes are made between events, so none is cut short.
	resume := cmdutil.DeferInterrupts()
	final, err := p.Run()
	sig := resume()
	if sig == nil && errors.Is(err, tea.ErrInterrupted) {
		sig = os.Interrupt
	}
	if sig != nil {
		fmt.Fprintln(g.stdout, m.summary())
		fmt.Fprintf(g.stderr, "dsh-replay: interrupted (%v)\n", sig)
		return &cmdutil.ExitError{Code: cmdutil.InterruptExit(sig)}
	}
	if err != nil {
		return cmdutil.Cannot(fmt.Errorf("review: %w", err))
	}
	fmt.Fprintln(g.stdout, final.(*reviewer).summary())
	return nil
}
