package cards

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"

	"github.com/dsh-replay/dsh-replay/internal/termquote"
)

// TabWidth is the tab stop Sanitize pads to.
const TabWidth = termquote.TabWidth

// Sanitize makes one line of untrusted log text safe and visible on a
// terminal (see termquote.Sanitize).
func Sanitize(s string) string { return termquote.Sanitize(s) }

// SplitLines splits text into lines at \n, dropping the empty line after a
// trailing newline (upstream textLines). Empty text has no lines.
func SplitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Width is the display width of sanitized text in terminal cells (grapheme
// clusters; wide CJK and emoji count two).
func Width(s string) int { return ansi.StringWidth(s) }

// Truncate cuts sanitized text to at most width cells, ending with "…" when
// it was cut. It never splits a grapheme cluster.
func Truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if Width(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// Wrap breaks one sanitized line into rows of at most width cells, at the last
// space when there is one in the row (keeping leading indentation), else
// between grapheme clusters. It always returns at least one row.
func Wrap(s string, width int) []string {
	if width < 1 {
		width = 1
	}
	if Width(s) <= width {
		return []string{s}
	}
	var rows []string
	var cur strings.Builder
	curW := 0
	lastSpace := -1 // byte offset just after the last space in cur
	leading := true // still inside the row's leading indentation
	flushAt := func(at int) {
		row := cur.String()
		rest := row[at:]
		rows = append(rows, strings.TrimRight(row[:at], " "))
		cur.Reset()
		cur.WriteString(rest)
		curW = Width(rest)
		lastSpace = -1
		leading = false
	}
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		cl := g.Str()
		w := g.Width()
		if curW+w > width && curW > 0 {
			if cl == " " { // break at the space that overflows
				flushAt(cur.Len())
				continue
			}
			if lastSpace > 0 {
				flushAt(lastSpace)
				if cl == " " && curW == 0 {
					continue // a space at the start of a continuation row
				}
			} else {
				flushAt(cur.Len())
				if cl == " " {
					continue
				}
			}
			if curW+w > width && curW > 0 {
				flushAt(cur.Len())
			}
		}
		cur.WriteString(cl)
		curW += w
		if cl == " " {
			if !leading {
				lastSpace = cur.Len()
			}
		} else {
			leading = false
		}
	}
	if cur.Len() > 0 || len(rows) == 0 {
		rows = append(rows, cur.String())
	}
	return rows
}

// padRight pads sanitized text with spaces to width cells.
func padRight(s string, width int) string {
	if w := Width(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}
