package cards

import (
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Styles is the palette the renderers use. It is built once, at the output
// edge, for one colour profile; renderers never look at the terminal.
type Styles struct {
	// Color is false for the plain profile: no escape codes at all, and the
	// status pill is drawn in brackets.
	Color bool

	Title, Dim, Note, Path, Output lipgloss.Style
	Added, Removed, Gap            lipgloss.Style
	Failure, Count, Gutter         lipgloss.Style
	Rail, RailError, RailWarn      lipgloss.Style
	PillOK, PillError, PillWarn    lipgloss.Style
	Icon                           lipgloss.Style
}

// Plain is the style set without any escape codes (not a terminal, NO_COLOR,
// --color never).
func Plain() Styles { return NewStyles(termenv.Ascii) }

// NewStyles builds the palette for a colour profile. termenv.Ascii is Plain.
// It uses the 16 basic colours, so the terminal's theme decides the shades.
func NewStyles(p termenv.Profile) Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(p)
	r.SetHasDarkBackground(true) // never query the terminal
	n := r.NewStyle
	red, green, yellow, cyan := lipgloss.Color("1"), lipgloss.Color("2"), lipgloss.Color("3"), lipgloss.Color("6")
	s := Styles{
		Color:     p != termenv.Ascii,
		Title:     n().Bold(true),
		Dim:       n().Faint(true),
		Note:      n().Foreground(yellow).Italic(true),
		Path:      n().Bold(true),
		Output:    n(),
		Added:     n().Foreground(green),
		Removed:   n().Foreground(red),
		Gap:       n().Faint(true),
		Failure:   n().Foreground(red).Bold(true),
		Count:     n().Foreground(cyan),
		Gutter:    n().Faint(true),
		Rail:      n().Faint(true),
		RailError: n().Foreground(red),
		RailWarn:  n().Foreground(yellow),
		PillOK:    n().Foreground(green).Bold(true),
		PillError: n().Background(red).Foreground(lipgloss.Color("15")).Bold(true),
		PillWarn:  n().Background(yellow).Foreground(lipgloss.Color("0")).Bold(true),
		Icon:      n().Bold(true),
	}
	return s
}

// paint applies st to one row of sanitized text (never to several rows: a
// style never spans a line break, so wrapping cannot split an escape).
func (s Styles) paint(st lipgloss.Style, text string) string {
	if !s.Color || text == "" {
		return text
	}
	return st.Render(text)
}
